/**
 * A recording in-memory API server for the reconciler's unit tests, in the manner of client-go's
 * `k8s.io/client-go/testing` fake (`Fake.Actions()`): it implements the {@link KubeClient} port over maps, keeps
 * resourceVersions, UID and resourceVersion preconditions (409 Conflict), AlreadyExists and NotFound as the real API
 * server does for the calls the reconciler makes, and appends every call to a shared {@link Journal} — which the
 * recording state stores write to as well, so a test reads the one ordered list of writes of an invocation.
 * Faults that a real API server cannot be made to produce on cue (a 500 on the n-th create) are injected with
 * {@link RecordingKube.failOn}.
 */
import type {
  CloneSet,
  CloneSetStatus,
  ControllerRevision,
  JsonObject,
  PersistentVolumeClaim,
  Pod,
} from '../../../../lib/api/types.js';
import type { ImagePullJob } from '../../../../lib/api/imagePullJob.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { StoredEvent } from '../../../../lib/kube/event.js';
import { recordFolded, type EventApi } from '../../../../lib/kube/eventFolding.js';
import type { CloneSetEvent, KubeClient, Listed } from '../../../../lib/kube/types.js';
import type { ExpectationStore, LeaseStore, ScaleDownLedger } from '../../../../lib/state/index.js';
import { imageIdOf, strategicMerge } from '../../support/world.js';

/** The ordered list of calls, as short lines: `<verb> <what>`. */
export type Journal = string[];

/** Decides whether a call fails: return an error to throw, or undefined to let it through. */
export type Fault = (call: string) => KubeApiError | undefined;

function apiError(op: string, code: number, reason: string, message = reason): KubeApiError {
  return new KubeApiError(op, code, reason, message);
}

/** 409 Conflict, as the API server answers a failed resourceVersion or UID precondition. */
export function conflict(op = 'write'): KubeApiError {
  return apiError(
    op,
    409,
    'Conflict',
    'the object has been modified; please apply your changes to the latest version',
  );
}

/** 500, an API server failure. */
export function internalError(op = 'write'): KubeApiError {
  return apiError(op, 500, 'InternalError', 'etcd is unavailable');
}

function hasLabel(o: { metadata: { labels?: Record<string, string> } }, selector?: string): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [k, v] = term.split('=');
    const labels = o.metadata.labels ?? {};
    return v === undefined ? k in labels : labels[k] === v;
  });
}

/** The in-memory API server. */
export class RecordingKube implements KubeClient {
  cloneSets = new Map<string, CloneSet>();
  pods = new Map<string, Pod>();
  pvcs = new Map<string, PersistentVolumeClaim>();
  revisions = new Map<string, ControllerRevision>();
  /** ImagePullJobs by name; undefined: the resource is not served (no CRD), as by default. */
  imagePullJobs: Map<string, ImagePullJob> | undefined;
  /** Every Event the reconciler asked to record, in order (before folding). */
  events: CloneSetEvent[] = [];
  /** The stored core/v1 Event objects by name, as the real recorder leaves them (lib/kube/eventFolding.ts). */
  eventObjects = new Map<string, JsonObject>();
  /**
   * The Event API calls of the folding recorder, as `<verb> event <name>` (patches also show what they set): kept
   * apart from {@link journal} so the order of the other writes reads as before. Faults apply to them too.
   */
  eventCalls: string[] = [];
  private rv = 100;
  private faults: Fault[] = [];

  constructor(
    readonly journal: Journal,
    private readonly clock: () => Date,
  ) {}

  /** Fail calls chosen by `fault` (once each it returns an error). */
  failOn(fault: Fault): this {
    this.faults.push(fault);
    return this;
  }

  private nextRv(): string {
    return String(++this.rv);
  }

  private record(call: string, write = true): void {
    if (write) this.journal.push(call);
    for (const f of this.faults) {
      const e = f(call);
      if (e) throw e;
    }
  }

  /** Store a CloneSet as a user's `kubectl apply` would (uid, generation, resourceVersion). */
  apply(cs: CloneSet): CloneSet {
    const key = `${cs.metadata.namespace}/${cs.metadata.name}`;
    const old = this.cloneSets.get(key);
    const stored: CloneSet = structuredClone(cs);
    stored.metadata.uid = old?.metadata.uid ?? 'cs-uid';
    stored.metadata.generation = (old?.metadata.generation ?? 0) + 1;
    stored.metadata.resourceVersion = this.nextRv();
    if (old?.status) stored.status = old.status;
    this.cloneSets.set(key, stored);
    return stored;
  }

  /** The fake kubelet: every pod runs its images and is Ready. */
  kubelet(): void {
    for (const pod of this.pods.values()) {
      pod.spec.nodeName ||= 'node-1';
      pod.status = {
        ...pod.status,
        phase: 'Running',
        // the conditions controllers own (readiness-gate conditions) stay, as a kubelet leaves them
        conditions: [
          ...(pod.status?.conditions ?? []).filter((c) => c.type !== 'ContainersReady' && c.type !== 'Ready'),
          { type: 'ContainersReady', status: 'True', lastTransitionTime: '2024-05-01T08:00:00Z' },
          { type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T08:00:00Z' },
        ],
        containerStatuses: pod.spec.containers.map((c) => {
          const prev = pod.status?.containerStatuses?.find((s) => s.name === c.name);
          const same = prev?.image === c.image;
          return {
            name: c.name,
            image: c.image ?? '',
            imageID: imageIdOf(c.image ?? ''),
            containerID: `containerd://${pod.metadata.name}-${c.name}-${same ? 0 : (prev?.restartCount ?? -1) + 1}`,
            ready: true,
            restartCount: same ? (prev?.restartCount ?? 0) : prev ? prev.restartCount + 1 : 0,
          };
        }),
      };
      pod.metadata.resourceVersion = this.nextRv();
    }
  }

  async getCloneSet(namespace: string, name: string): Promise<CloneSet | undefined> {
    this.record(`get cloneset ${name}`, false);
    const cs = this.cloneSets.get(`${namespace}/${name}`);
    return cs && structuredClone(cs);
  }
  async listCloneSets(): Promise<Listed<CloneSet>> {
    return {
      items: [...this.cloneSets.values()].map((c) => structuredClone(c)),
      resourceVersion: String(this.rv),
    };
  }
  async listPods(namespace: string, labelSelector?: string): Promise<Listed<Pod>> {
    const items = [...this.pods.values()].filter(
      (p) => p.metadata.namespace === namespace && hasLabel(p, labelSelector),
    );
    return { items: structuredClone(items), resourceVersion: String(this.rv) };
  }
  async listPVCs(namespace: string, labelSelector?: string): Promise<Listed<PersistentVolumeClaim>> {
    const items = [...this.pvcs.values()].filter(
      (p) => p.metadata.namespace === namespace && hasLabel(p, labelSelector),
    );
    return { items: structuredClone(items), resourceVersion: String(this.rv) };
  }
  async listControllerRevisions(
    namespace: string,
    labelSelector?: string,
  ): Promise<Listed<ControllerRevision>> {
    const items = [...this.revisions.values()].filter(
      (r) => r.metadata.namespace === namespace && hasLabel(r, labelSelector),
    );
    return { items: structuredClone(items), resourceVersion: String(this.rv) };
  }

  async createControllerRevision(revision: ControllerRevision): Promise<ControllerRevision> {
    const name = revision.metadata.name ?? '';
    this.record(`create revision ${name}`);
    if (this.revisions.has(name)) throw apiError('create revision', 409, 'AlreadyExists');
    const stored = structuredClone(revision);
    stored.metadata.uid = `uid-${name}`;
    stored.metadata.resourceVersion = this.nextRv();
    this.revisions.set(name, stored);
    return structuredClone(stored);
  }
  async replaceControllerRevision(revision: ControllerRevision): Promise<ControllerRevision> {
    const name = revision.metadata.name ?? '';
    this.record(`replace revision ${name}`);
    const stored = {
      ...structuredClone(revision),
      metadata: { ...revision.metadata, resourceVersion: this.nextRv() },
    };
    this.revisions.set(name, stored);
    return structuredClone(stored);
  }
  async deleteControllerRevision(_namespace: string, name: string): Promise<void> {
    this.record(`delete revision ${name}`);
    if (!this.revisions.delete(name)) throw apiError('delete revision', 404, 'NotFound');
  }

  async patchControllerRevisionLabels(
    _namespace: string,
    name: string,
    labels: Record<string, string>,
  ): Promise<ControllerRevision> {
    this.record(`patch revision ${name} labels ${JSON.stringify(labels)}`);
    const stored = this.revisions.get(name);
    if (!stored) throw apiError('patch revision', 404, 'NotFound');
    stored.metadata.labels = { ...(stored.metadata.labels ?? {}), ...labels };
    stored.metadata.resourceVersion = this.nextRv();
    return structuredClone(stored);
  }

  async listImagePullJobs(namespace: string): Promise<Listed<ImagePullJob> | undefined> {
    if (!this.imagePullJobs) return undefined;
    const items = [...this.imagePullJobs.values()].filter((j) => j.metadata.namespace === namespace);
    return { items: structuredClone(items), resourceVersion: String(this.rv) };
  }
  async createImagePullJob(job: ImagePullJob): Promise<ImagePullJob> {
    const name = job.metadata.name ?? '';
    this.record(`create imagepulljob ${name}`);
    if (!this.imagePullJobs) throw apiError('create imagepulljob', 404, 'NotFound');
    if (this.imagePullJobs.has(name)) throw apiError('create imagepulljob', 409, 'AlreadyExists');
    const stored = structuredClone(job);
    stored.metadata.uid = `uid-${name}`;
    stored.metadata.resourceVersion = this.nextRv();
    this.imagePullJobs.set(name, stored);
    return structuredClone(stored);
  }
  async deleteImagePullJob(_namespace: string, name: string, uid: string): Promise<void> {
    this.record(`delete imagepulljob ${name}`);
    const stored = this.imagePullJobs?.get(name);
    if (!stored) throw apiError('delete imagepulljob', 404, 'NotFound');
    if (stored.metadata.uid !== uid) throw conflict('delete imagepulljob');
    this.imagePullJobs?.delete(name);
  }

  /** NodeImages present (a node agent runs); default none. */
  nodeImages = 0;
  async anyNodeImage(): Promise<boolean> {
    return this.nodeImages > 0;
  }

  async createPod(pod: Pod): Promise<Pod> {
    const name = pod.metadata.name ?? '';
    this.record(`create pod ${name}`);
    if (this.pods.has(name))
      throw apiError(`create pod ${name}`, 409, 'AlreadyExists', `pods "${name}" already exists`);
    const stored = structuredClone(pod);
    stored.metadata.uid = `uid-${name}`;
    stored.metadata.resourceVersion = this.nextRv();
    stored.metadata.creationTimestamp = this.clock().toISOString().slice(0, 19) + 'Z';
    stored.status = { phase: 'Pending' };
    this.pods.set(name, stored);
    return structuredClone(stored);
  }
  async deletePod(_namespace: string, name: string, uid: string): Promise<void> {
    this.record(`delete pod ${name}`);
    const pod = this.pods.get(name);
    if (!pod) throw apiError(`delete pod ${name}`, 404, 'NotFound');
    if (pod.metadata.uid !== uid) throw conflict(`delete pod ${name}`);
    this.pods.delete(name);
  }
  private patch(kind: string, name: string, patch: JsonObject, resourceVersion?: string): Pod {
    this.record(`${kind} ${name}`);
    const pod = this.pods.get(name);
    if (!pod) throw apiError(`${kind} ${name}`, 404, 'NotFound');
    if (resourceVersion !== undefined && pod.metadata.resourceVersion !== resourceVersion)
      throw conflict(`${kind} ${name}`);
    const { metadata, ...rest } = patch;
    const base = metadata ? { ...(metadata as JsonObject) } : undefined;
    if (base) delete base.resourceVersion;
    const merged = strategicMerge(pod as unknown as JsonObject, {
      ...rest,
      ...(base ? { metadata: base } : {}),
    }) as unknown as Pod;
    merged.metadata.resourceVersion = this.nextRv();
    this.pods.set(name, merged);
    return structuredClone(merged);
  }
  async patchPod(
    _namespace: string,
    name: string,
    patch: JsonObject,
    resourceVersion?: string,
  ): Promise<Pod> {
    return this.patch('patch pod', name, patch, resourceVersion);
  }
  async patchPodStatus(
    _namespace: string,
    name: string,
    patch: JsonObject,
    resourceVersion?: string,
  ): Promise<Pod> {
    return this.patch('patch pod status', name, patch, resourceVersion);
  }

  async createPVC(pvc: PersistentVolumeClaim): Promise<PersistentVolumeClaim> {
    const name = pvc.metadata.name ?? '';
    this.record(`create pvc ${name}`);
    if (this.pvcs.has(name)) throw apiError(`create pvc ${name}`, 409, 'AlreadyExists');
    const stored = structuredClone(pvc);
    stored.metadata.uid = `uid-${name}`;
    stored.metadata.resourceVersion = this.nextRv();
    this.pvcs.set(name, stored);
    return structuredClone(stored);
  }
  async deletePVC(_namespace: string, name: string, uid: string): Promise<void> {
    this.record(`delete pvc ${name}`);
    const pvc = this.pvcs.get(name);
    if (!pvc) throw apiError(`delete pvc ${name}`, 404, 'NotFound');
    if (pvc.metadata.uid !== uid) throw conflict(`delete pvc ${name}`);
    this.pvcs.delete(name);
  }
  async patchPVCOwnerReferences(
    _namespace: string,
    name: string,
    _uid: string,
    ownerReferences: NonNullable<PersistentVolumeClaim['metadata']['ownerReferences']>,
  ): Promise<void> {
    this.record(`patch pvc owner ${name}`);
    const pvc = this.pvcs.get(name);
    if (!pvc) throw apiError(`patch pvc ${name}`, 404, 'NotFound');
    pvc.metadata.ownerReferences = structuredClone(ownerReferences);
  }

  private current(cs: CloneSet, op: string): CloneSet {
    const key = `${cs.metadata.namespace}/${cs.metadata.name}`;
    const stored = this.cloneSets.get(key);
    if (!stored) throw apiError(op, 404, 'NotFound');
    if (stored.metadata.resourceVersion !== cs.metadata.resourceVersion) throw conflict(op);
    return stored;
  }
  async updateCloneSetStatus(cloneSet: CloneSet, status: CloneSetStatus): Promise<CloneSet> {
    this.record(`update status ${cloneSet.metadata.name}`);
    const stored = this.current(cloneSet, 'update status');
    stored.status = structuredClone(status);
    stored.metadata.resourceVersion = this.nextRv();
    return structuredClone(stored);
  }
  async patchCloneSetPodsToDelete(cloneSet: CloneSet, podsToDelete: string[]): Promise<CloneSet> {
    this.record(`patch podsToDelete ${cloneSet.metadata.name} [${podsToDelete.join(',')}]`);
    const stored = this.current(cloneSet, 'patch podsToDelete');
    const { podsToDelete: _old, ...rest } = stored.spec.scaleStrategy ?? {};
    stored.spec.scaleStrategy = podsToDelete.length > 0 ? { ...rest, podsToDelete } : rest;
    stored.metadata.resourceVersion = this.nextRv();
    return structuredClone(stored);
  }

  /** Every Event PATCH body, in order. */
  eventPatches: JsonObject[] = [];

  /** The in-memory Event API the real folding recorder runs on (exposed for the folding tests). */
  readonly eventApiForTests: EventApi = {
    createEvent: async (_namespace, body) => {
      const name = String((body.metadata as JsonObject).name);
      this.eventCall(`create event ${name}`);
      if (this.eventObjects.has(name))
        throw apiError(`create event ${name}`, 409, 'AlreadyExists', `events "${name}" already exists`);
      const stored = structuredClone(body);
      stored.metadata = { ...(body.metadata as JsonObject), resourceVersion: this.nextRv() };
      this.eventObjects.set(name, stored);
    },
    getEvent: async (_namespace, name) => {
      this.eventCall(`get event ${name}`);
      const stored = this.eventObjects.get(name);
      return stored && (structuredClone(stored) as unknown as StoredEvent);
    },
    patchEvent: async (_namespace, name, patch) => {
      const { metadata, ...fields } = patch;
      const sets = Object.entries(fields)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(' ');
      this.eventCall(`patch event ${name} ${sets}`);
      this.eventPatches.push(structuredClone(patch));
      const stored = this.eventObjects.get(name);
      if (!stored) throw apiError(`patch event ${name}`, 404, 'NotFound');
      const meta = stored.metadata as JsonObject;
      if ((metadata as JsonObject).resourceVersion !== meta.resourceVersion)
        throw conflict(`patch event ${name}`);
      this.eventObjects.set(name, {
        ...stored,
        ...fields,
        metadata: { ...meta, resourceVersion: this.nextRv() },
      });
    },
  };

  private eventCall(call: string): void {
    this.eventCalls.push(call);
    for (const f of this.faults) {
      const e = f(call);
      if (e) throw e;
    }
  }

  /** Journals the request, then records it through the real folding recorder (best effort, as the real client). */
  async recordEvent(cloneSet: CloneSet, event: CloneSetEvent): Promise<void> {
    this.journal.push(`event ${event.reason}: ${event.message}`);
    this.events.push(event);
    await recordFolded(this.eventApiForTests, cloneSet, event, this.clock()).catch(() => undefined);
  }
}

/**
 * The three state stores, each call appended to `journal` (`<store>.<method>`) before it runs. Reads are recorded
 * too (as `… get`), so a test sees where in the order the reconciler looked at its state.
 */
export function recordingStores<
  S extends { leases: LeaseStore; expectations: ExpectationStore; ledger: ScaleDownLedger },
>(
  stores: S,
  journal: Journal,
  describe: { expectations?: boolean } = {},
): Pick<S, 'leases' | 'expectations' | 'ledger'> {
  const wrap = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      get(t, prop, receiver) {
        const value = Reflect.get(t, prop, receiver) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        return (...args: unknown[]) => {
          let line = `${name}.${prop}`;
          if (describe.expectations && name === 'expectations' && prop === 'put') {
            const e = args[1] as {
              creates: { name: string }[];
              deletes: { name: string }[];
              updates: { name: string }[];
            };
            const part = (label: string, ops: { name: string }[]) =>
              ops.length ? ` ${label}[${ops.map((o) => o.name).join(',')}]` : '';
            line +=
              part('creates', e.creates) + part('deletes', e.deletes) + part('updates', e.updates) ||
              ' (none)';
          }
          if (name === 'lease' && prop === 'release' && typeof args[1] === 'number' && args[1] > 0) {
            line += ` (failures ${args[1]})`;
          }
          if (name === 'ledger' && prop === 'record') {
            const i = args[1] as { pods: { name: string }[] };
            line += ` [${i.pods.map((p) => p.name).join(',')}]`;
          }
          journal.push(line);
          return (value as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
  return {
    leases: wrap('lease', stores.leases),
    expectations: wrap('expectations', stores.expectations),
    ledger: wrap('ledger', stores.ledger),
  };
}
