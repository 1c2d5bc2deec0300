/**
 * A checkpoint's snapshot: what a user can observe of the scenario's object through the API, with only what is
 * random made comparable (instance ids, uids, timestamps, node names, resourceVersions). Everything else — revision
 * names, pod specs, labels, annotations, conditions, restart counts, status fields, Events, PVCs — is kept as read,
 * so two controllers that behave alike produce equal snapshots. What differs by kind (the instance-id label, the
 * owner kind, timing-only Events and conditions) comes from its {@link ParityKind}.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterState } from './cluster.js';
import type { ParityKind } from './kind.js';

const UID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})\b/g;
/** The labels a workload controller puts on an update revision to record its image pre-download decision. */
const PREDOWNLOAD_LABELS = [
  'apps.kruise.io/pre-predownload-created',
  'apps.kruise.io/image-predownload-ignored',
];
/** The service-account token volume's random suffix (kube-api-access-xxxxx). */
const SA_VOLUME = /\bkube-api-access-[a-z0-9]{5}\b/g;

/** One pod as compared: its spec and metadata as read, normalised, and what changed since the last checkpoint. */
export interface PodView {
  /** `new` when the pod did not exist at the previous checkpoint (or this is the first), else `kept`. */
  since: 'new' | 'kept';
  /** Whether the pod is terminating (deletionTimestamp set). */
  terminating: boolean;
  labels: Record<string, string>;
  annotations: Record<string, unknown>;
  finalizers: string[];
  owners: string[];
  readinessGates: string[];
  spec: unknown;
  phase: string;
  /** `Type=Status` per condition, sorted. */
  conditions: string[];
  /** Sum of the containers' restart counts. */
  restarts: number;
  /** `name=image` of each container status. */
  runningImages: string[];
}

/** A comparable view of one namespace at one checkpoint. */
export interface Snapshot {
  /** False when the cluster did not settle within the scenario's timeout. */
  settled: boolean;
  /** The scenario's object (e.g. the CloneSet): its stored spec and its status. */
  object: { spec: unknown; status: unknown } | 'absent';
  /**
   * `name #revision`, in revision order; with ` <label>` for each image pre-download decision label the revision
   * carries (`apps.kruise.io/pre-predownload-created`, `apps.kruise.io/image-predownload-ignored`).
   */
  revisions: string[];
  /**
   * The ImagePullJobs the scenario's object controls and has not deleted: name, labels, owners and spec, sorted. A
   * deleted one is left out: what happens to it then (its `deletion-protection` finalizer, removed by OpenKruise's
   * ImagePullJob controller, which Kruiseless does not run: no node agent pulls) is not the workload controller's.
   */
  imagePullJobs: unknown[];
  pods: PodView[];
  /**
   * Each PVC's name, labels, owners (`Kind/name controller=<bool>`), whether terminating, spec (without the volume
   * name, which is the provisioner's), phase and `status.capacity` (a resize shows there), sorted.
   */
  pvcs: unknown[];
  /** `Type Reason: message` of each Event on an object of the kind → count. */
  events: Record<string, number>;
  /** Extremes sampled while the cluster moved since the previous checkpoint. */
  timeline: TimelinePeaks;
}

/** Extremes of a timeline segment. */
export interface TimelinePeaks {
  /** Most pods that were not terminating at once. */
  maxPods: number;
  /** Fewest Ready pods (not terminating) at once, after the first pod became Ready in the segment or before. */
  minReady: number;
}

/**
 * Builds the snapshot of `state`.
 * @param kind the kind of the scenario's object
 * @param previousUids uids of the pods at the previous checkpoint (empty at the first)
 * @param timeline the sampled peaks since the previous checkpoint
 * @param objectName the scenario object's name, for normalising its children's names once the object is gone (a
 *   BroadcastJob deleted by its TTL leaves Events naming its pods); the object's own name is used while it exists
 */
export function takeSnapshot(
  kind: ParityKind,
  state: ClusterState,
  previousUids: ReadonlySet<string>,
  timeline: TimelinePeaks,
  settled: boolean,
  objectName = '',
): Snapshot {
  const ids = new Set<string>();
  const label = kind.instanceIdLabel;
  if (label) {
    for (const o of [...state.pods, ...state.pvcs]) {
      const id = o.metadata?.labels?.[label];
      if (id) ids.add(id);
    }
  }
  const obj = state.object;
  const norm = normaliser(
    ids,
    kind.randomNameSuffix || kind.nameSuffixPattern ? (obj?.metadata.name ?? objectName) : '',
    kind.nameSuffixPattern ?? (kind.randomNameSuffix ? `[a-z0-9]{${kind.randomNameSuffix}}` : undefined),
    kind.normaliseKeys === true,
  );
  const events: Record<string, number> = {};
  for (const e of state.events) {
    if (e.involvedObject?.kind !== kind.kind) continue;
    if (e.type === 'Warning' && timingOnly(e.message)) continue;
    const key = norm(`${e.type ?? ''} ${e.reason ?? ''}: ${e.message ?? ''}`) as string;
    events[key] = kind.perReconcileEventReasons.has(e.reason ?? '') ? 1 : (events[key] ?? 0) + (e.count ?? 1);
  }
  return {
    settled,
    object: obj
      ? { spec: norm(obj.spec), status: norm(statusView(obj.status ?? {}, kind.conflictOnlyConditionTypes)) }
      : 'absent',
    revisions: state.revisions
      .filter((r) => r.metadata?.ownerReferences?.some((o) => o.kind === kind.kind))
      .sort((a, b) => a.revision - b.revision)
      .map((r) =>
        [
          `${r.metadata?.name ?? ''} #${r.revision}`,
          ...PREDOWNLOAD_LABELS.filter((l) => r.metadata?.labels?.[l] !== undefined),
        ].join(' '),
      ),
    imagePullJobs: sortCanonical(
      state.imagePullJobs
        .filter((j) => !j.metadata.deletionTimestamp)
        .filter((j) => j.metadata.ownerReferences?.some((o) => o.kind === kind.kind && o.controller))
        .map((j) =>
          norm({
            name: j.metadata.name,
            labels: j.metadata.labels ?? {},
            owners: (j.metadata.ownerReferences ?? []).map(
              (o) => `${o.kind}/${o.name} controller=${String(o.controller ?? false)}`,
            ),
            spec: j.spec ?? {},
          }),
        ),
    ),
    pods: sortCanonical(
      state.pods.map((p) => norm(podView(rankVersionAnnotations(p, kind), previousUids)) as PodView),
      kind.podSortKey,
    ),
    pvcs: sortCanonical(
      state.pvcs.map((c) =>
        norm({
          name: c.metadata?.name,
          labels: c.metadata?.labels ?? {},
          owners: (c.metadata?.ownerReferences ?? []).map(
            (o) => `${o.kind}/${o.name} controller=${String(o.controller ?? false)}`,
          ),
          terminating: Boolean(c.metadata?.deletionTimestamp),
          spec: { ...c.spec, volumeName: undefined },
          phase: c.status?.phase ?? '',
          capacity: c.status?.capacity ?? {},
        }),
      ),
    ),
    events,
    timeline,
  };
}

/** Uids of the pods in a state (for the next checkpoint's `since`). */
export function podUids(state: ClusterState): Set<string> {
  return new Set(state.pods.map((p) => p.metadata?.uid ?? ''));
}

/**
 * The pod with its {@link ParityKind.resourceVersionAnnotations} values replaced by their rank among the pod's
 * distinct such values (`<rv1>` the lowest, compared as numbers); the pod itself when the kind has none.
 */
function rankVersionAnnotations(p: V1Pod, kind: ParityKind): V1Pod {
  const spec = kind.resourceVersionAnnotations;
  const annotations = p.metadata?.annotations;
  if (!spec || !annotations) return p;
  const isVersion = ([k, v]: [string, string]): boolean => spec.keys.test(k) && !spec.fixed.has(v);
  const values = [
    ...new Set(
      Object.entries(annotations)
        .filter(isVersion)
        .map(([, v]) => v),
    ),
  ].sort((a, b) => (a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0));
  if (values.length === 0) return p;
  const ranked = Object.fromEntries(
    Object.entries(annotations).map(([k, v]) =>
      isVersion([k, v]) ? [k, `<rv${values.indexOf(v) + 1}>`] : [k, v],
    ),
  );
  return { ...p, metadata: { ...p.metadata, annotations: ranked } };
}

function podView(p: V1Pod, previousUids: ReadonlySet<string>): PodView {
  const spec: Record<string, unknown> = { ...(p.spec ?? {}) };
  delete spec.nodeName;
  // volumes by name: OpenKruise's StatefulSet lists a pod's claim volumes by ranging over a Go map (updateStorage in
  // pkg/controller/statefulset/stateful_set_utils.go), so with two volumeClaimTemplates their order is random
  if (p.spec?.volumes) spec.volumes = [...p.spec.volumes].sort((a, b) => a.name.localeCompare(b.name));
  return {
    since: previousUids.has(p.metadata?.uid ?? '') ? 'kept' : 'new',
    terminating: Boolean(p.metadata?.deletionTimestamp),
    labels: p.metadata?.labels ?? {},
    annotations: Object.fromEntries(
      Object.entries(p.metadata?.annotations ?? {}).map(([k, v]) => [k, parseJsonObject(v)]),
    ),
    finalizers: [...(p.metadata?.finalizers ?? [])].sort(),
    owners: (p.metadata?.ownerReferences ?? []).map(
      (o) => `${o.kind}/${o.name} controller=${String(o.controller ?? false)}`,
    ),
    readinessGates: (p.spec?.readinessGates ?? []).map((g) => g.conditionType).sort(),
    spec,
    phase: p.status?.phase ?? '',
    conditions: podConditions(p),
    restarts: (p.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0),
    runningImages: (p.status?.containerStatuses ?? []).map((c) => `${c.name}=${c.image}`).sort(),
  };
}

/**
 * A pod's conditions as `<type>=<status>`, sorted. `PodScheduled` is read from the binding (`spec.nodeName`) once
 * the pod is bound: the condition is kube-scheduler's, not the controller's, and on a loaded machine a bind whose
 * answer timed out but which landed leaves the scheduler's failure write `PodScheduled=False` on a bound, running pod
 * (seen once on the OpenKruise side in CI: `asts-predelete-hook`, a Ready pod with `PodScheduled=False`).
 */
function podConditions(p: V1Pod): string[] {
  const bound = Boolean(p.spec?.nodeName);
  return (p.status?.conditions ?? [])
    .map((c) => `${c.type}=${c.type === 'PodScheduled' && bound ? 'True' : c.status}`)
    .sort();
}

/**
 * API server messages a controller meets by chance, depending on how far its cache lags, so whether they show is a
 * matter of timing, not behaviour (docs/parity.md#what-is-compared):
 * - the optimistic-concurrency conflict of a write from a stale cache (OpenKruise's CloneSet controller then keeps a
 *   `FailedUpdate` condition with it until the next real failure);
 * - the AlreadyExists of a create whose name is still held by a pod being deleted (`object is being deleted: pods
 *   "…" already exists`): OpenKruise's CloneSet recreates a deleted pod under its instance id while kwok finishes
 *   the old pod's graceful deletion, and keeps a `FailedScale` condition and a `FailedCreate` Event.
 */
const TIMING_ONLY_MESSAGES = [
  'the object has been modified; please apply your changes to the latest version',
  'object is being deleted: ',
];

/** Whether `message` reports one of {@link TIMING_ONLY_MESSAGES}. */
function timingOnly(message: unknown): boolean {
  return typeof message === 'string' && TIMING_ONLY_MESSAGES.some((m) => message.includes(m));
}

/**
 * Status with condition timestamps dropped (kept: type, status, reason, message) and without a condition of one of
 * `conflictOnly` types (e.g. `FailedUpdate`) that only reports a timing-only message ({@link TIMING_ONLY_MESSAGES});
 * an emptied condition list is dropped.
 */
function statusView(
  status: Record<string, unknown>,
  conflictOnly: ReadonlySet<string>,
): Record<string, unknown> {
  const conditions = (status.conditions as Record<string, unknown>[] | undefined)
    ?.filter((c) => !(conflictOnly.has(String(c.type)) && timingOnly(c.message)))
    .map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }));
  const { conditions: _dropped, ...rest } = status;
  return { ...rest, ...(conditions && conditions.length > 0 ? { conditions } : {}) };
}

/** Annotation values that are JSON objects are compared as objects (key order is the writer's choice). */
function parseJsonObject(v: string): unknown {
  if (!v.startsWith('{')) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/**
 * A deep copy of a value with random parts replaced in every string: instance ids (`<id>`), the generated part of
 * names after `<objectName>-` matching `suffix` (a regex source; `<id>`), uids (`<uid>`), RFC 3339 times (`<time>`),
 * the service-account volume suffix; every `resourceVersion` field's value (`<rv>`: an object reference in a status
 * carries one); and object keys sorted (with `keys`, normalised first as values are).
 */
function normaliser(
  ids: ReadonlySet<string>,
  objectName: string,
  suffix: string | undefined,
  keys = false,
): (v: unknown) => unknown {
  const named =
    objectName && suffix
      ? new RegExp(`(?<=${escape(objectName)}-)(?:${suffix})(?![a-z0-9])`, 'g')
      : undefined;
  const fix = (s: string): string => {
    if (ids.has(s)) return '<id>';
    const out = s.replace(UID, '<uid>').replace(TIME, '<time>').replace(SA_VOLUME, 'kube-api-access-<sfx>');
    return named ? out.replace(named, '<id>') : out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return fix(v);
    if (v instanceof Date) return '<time>';
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined)
          out[keys ? fix(k) : k] = k === 'resourceVersion' && typeof x === 'string' ? '<rv>' : walk(x);
      }
      return out;
    }
    return v;
  };
  return walk;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function sortCanonical<T>(xs: T[], keyOf: (x: T) => unknown = (x) => x): T[] {
  return xs
    .map((x) => [JSON.stringify(keyOf(x)), x] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, x]) => x);
}
