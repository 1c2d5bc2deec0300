/**
 * Test builders shared by the planner's unit tests, shaped like OpenKruise's `createTestPod` and
 * `createTestCloneSet` (docs/behaviour/scenarios.md#scenarios notation `P(rev, state, ready, sd)` and `CS(R,
 * partition, maxUnavailable, maxSurge)`). Everything is plain data; builders never read the clock.
 */
import {
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_INSTANCE_ID,
  LABEL_LIFECYCLE_STATE,
  LABEL_SPECIFIED_DELETE,
  OWNER_API_VERSION,
  type LifecycleStateValue,
} from '../../../lib/api/keys.js';
import type {
  CloneSet,
  ControllerRevision,
  IntOrString,
  JsonObject,
  PersistentVolumeClaim,
  Pod,
  PodTemplateSpec,
} from '../../../lib/api/types.js';
import { resolveStrategy } from '../../../lib/controllers/cloneset/plan/strategy.js';
import { emptyDiff } from '../../../lib/controllers/cloneset/plan/sync/diff.js';
import {
  DEFAULT_PLANNER_OPTIONS,
  type DiffRecord,
  type PhaseContext,
  type PlannerOptions,
} from '../../../lib/controllers/cloneset/plan/types.js';

/** Revision names used by the diff scenarios (docs/behaviour/scenarios.md#scenarios): current = `old_rev`, update = `new_rev`. */
export const OLD_REV = 'old_rev';
export const NEW_REV = 'new_rev';

/** A fixed "now" for tests: 2024-05-01T08:00:00Z. */
export const NOW = new Date('2024-05-01T08:00:00Z');

/** Name, namespace and UID of the CloneSet built by {@link cloneSet}. */
export const CS_NAME = 'foo';
export const CS_NAMESPACE = 'default';
export const CS_UID = 'uid-foo';

/** Optional extras for {@link pod}; any field left out keeps createTestPod's shape. */
export interface PodExtras {
  name?: string;
  /** Sets label `apps.kruise.io/cloneset-instance-id`. */
  instanceId?: string;
  nodeName?: string;
  /** Overrides the phase (`Running` when ready, none otherwise). */
  phase?: string;
  /** RFC 3339 `Ready.lastTransitionTime` (only when ready). */
  readySince?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  readinessGates?: string[];
  /** Adds a controller owner reference to the CloneSet of {@link cloneSet} (or the given UID). */
  ownerUid?: string;
}

/**
 * `P(rev, state, ready, sd)` of docs/behaviour/scenarios.md#scenarios (OpenKruise `createTestPod`): labels
 * `controller-revision-hash: rev` and `lifecycle.apps.kruise.io/state: state`; `ready` ⇒ phase `Running` and
 * `Ready=True` (no `InPlaceUpdateReady` condition); not ready ⇒ empty status; `sd` ⇒ label
 * `apps.kruise.io/specified-delete: "true"`.
 * @param state lifecycle label value; `''` leaves the label out
 */
export function pod(
  rev: string,
  state: LifecycleStateValue,
  ready: boolean,
  sd = false,
  extras: PodExtras = {},
): Pod {
  const labels: Record<string, string> = { [LABEL_CONTROLLER_REVISION_HASH]: rev };
  if (state !== '') labels[LABEL_LIFECYCLE_STATE] = state;
  if (sd) labels[LABEL_SPECIFIED_DELETE] = 'true';
  if (extras.instanceId) labels[LABEL_INSTANCE_ID] = extras.instanceId;
  Object.assign(labels, extras.labels ?? {});
  const p: Pod = {
    metadata: { namespace: CS_NAMESPACE, labels },
    spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
    status: {},
  };
  if (extras.name) {
    p.metadata.name = extras.name;
    p.metadata.uid = `uid-${extras.name}`;
  }
  if (extras.annotations) p.metadata.annotations = { ...extras.annotations };
  if (extras.finalizers) p.metadata.finalizers = [...extras.finalizers];
  if (extras.creationTimestamp) p.metadata.creationTimestamp = extras.creationTimestamp;
  if (extras.deletionTimestamp) p.metadata.deletionTimestamp = extras.deletionTimestamp;
  if (extras.nodeName) p.spec.nodeName = extras.nodeName;
  if (extras.readinessGates)
    p.spec.readinessGates = extras.readinessGates.map((conditionType) => ({ conditionType }));
  if (extras.ownerUid !== undefined) {
    p.metadata.ownerReferences = [
      {
        apiVersion: OWNER_API_VERSION,
        kind: 'CloneSet',
        name: CS_NAME,
        uid: extras.ownerUid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
  }
  if (ready) {
    p.status = {
      phase: 'Running',
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          ...(extras.readySince ? { lastTransitionTime: extras.readySince } : {}),
        },
      ],
    };
  }
  if (extras.phase) p.status = { ...p.status, phase: extras.phase };
  return p;
}

/** Alias of {@link pod}, short like OpenKruise's `createTestPod` in table tests. */
export const P = pod;

/**
 * Gives every pod a unique name `<prefix>-<i>` (list index), UID `uid-<name>` and instance id `id<i>` where
 * missing. Returns new pod objects; inputs are not modified.
 */
export function named(pods: Pod[], prefix = 'pod'): Pod[] {
  return pods.map((p, i) => {
    const name = p.metadata.name ?? `${prefix}-${i}`;
    const labels = { ...(p.metadata.labels ?? {}) };
    if (!labels[LABEL_INSTANCE_ID]) labels[LABEL_INSTANCE_ID] = `id${i}`;
    return {
      ...p,
      metadata: { ...p.metadata, name, uid: p.metadata.uid ?? `uid-${name}`, labels },
    };
  });
}

/** `n` copies of `P(rev, state, ready, sd)`. */
export function pods(n: number, rev: string, state: LifecycleStateValue, ready: boolean, sd = false): Pod[] {
  return Array.from({ length: n }, () => pod(rev, state, ready, sd));
}

/** The pod template used by {@link cloneSet}: label `app: foo`, one `nginx` container. */
export function template(): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'foo' } },
    spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
  };
}

/**
 * `CS(R, partition, maxUnavailable, maxSurge)` of docs/behaviour/scenarios.md#scenarios (OpenKruise
 * `createTestCloneSet`): a v1alpha1 CloneSet `default/foo` (UID {@link CS_UID}) with a rolling-update block
 * (type `ReCreate`), selector `app=foo`, no scaleStrategy. Defaults other than the type are not applied.
 */
export function cloneSet(
  replicas: number,
  partition: IntOrString = 0,
  maxUnavailable: IntOrString = 1,
  maxSurge: IntOrString = 0,
): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: CS_NAME, namespace: CS_NAMESPACE, uid: CS_UID, generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'foo' } },
      template: template(),
      updateStrategy: { type: 'ReCreate', partition, maxUnavailable, maxSurge },
      revisionHistoryLimit: 10,
    },
  };
}

/** Alias of {@link cloneSet} matching the spec's notation. */
export const CS = cloneSet;

/**
 * A ControllerRevision `name` whose data is `{"spec":{"template":{…template, "$patch":"replace"}}}`
 * (docs/behaviour/cloneset.md#revisions).
 * @param number the `revision` sequence number
 */
export function revision(name: string, tpl: PodTemplateSpec = template(), number = 1): ControllerRevision {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: CS_NAMESPACE,
      labels: { 'controller.kubernetes.io/hash': name.split('-').pop() ?? name },
    },
    revision: number,
    data: { spec: { template: { $patch: 'replace', ...(tpl as unknown as JsonObject) } } },
  };
}

/** An owned PVC `<vct>-foo-<instanceId>` labelled with the instance id (docs/behaviour/cloneset.md#pvcs). */
export function pvc(
  instanceId: string,
  vct = 'datadir',
  extras: { deletionTimestamp?: string } = {},
): PersistentVolumeClaim {
  return {
    metadata: {
      name: `${vct}-${CS_NAME}-${instanceId}`,
      namespace: CS_NAMESPACE,
      uid: `uid-pvc-${vct}-${instanceId}`,
      labels: { app: 'foo', [LABEL_INSTANCE_ID]: instanceId },
      ownerReferences: [
        {
          apiVersion: OWNER_API_VERSION,
          kind: 'CloneSet',
          name: CS_NAME,
          uid: CS_UID,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      ...(extras.deletionTimestamp ? { deletionTimestamp: extras.deletionTimestamp } : {}),
    },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
  };
}

/**
 * A deterministic `newInstanceId` source returning `ids` in order, then `gen<n>` names (never random).
 */
export function idSource(ids: string[] = []): () => string {
  let i = 0;
  return () => (i < ids.length ? ids[i++] : `gen${i++}`);
}

/** Gates of the diff scenarios 1–27 (docs/behaviour/scenarios.md#scenarios): `PreparingUpdateAsUpdate` and `CloneSetPartitionRollback` on. */
export const SCENARIO_GATES: Partial<PlannerOptions> = {
  preparingUpdateAsUpdate: true,
  cloneSetPartitionRollback: true,
};

/** Options of {@link phaseContext}. */
export interface ContextOptions {
  /** Current revision name (default {@link OLD_REV}). */
  current?: string;
  /** Update revision name (default {@link NEW_REV}). */
  update?: string;
  pvcs?: PersistentVolumeClaim[];
  /** Gates; missing fields take {@link SCENARIO_GATES}, then the production defaults. */
  options?: Partial<PlannerOptions>;
  now?: Date;
  newInstanceId?: () => string;
  /** Templates stored in the current / update revisions (default {@link template}). */
  currentTemplate?: PodTemplateSpec;
  updateTemplate?: PodTemplateSpec;
}

/**
 * A {@link PhaseContext} for `cs` and `pods` as the scale and update phases see it: strategy numbers resolved
 * with `resolveStrategy`, revisions `old_rev` (current, revision 1) and `new_rev` (update, revision 2) unless
 * overridden.
 */
export function phaseContext(cs: CloneSet, podList: Pod[], o: ContextOptions = {}): PhaseContext {
  const options: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, ...SCENARIO_GATES, ...(o.options ?? {}) };
  const currentName = o.current ?? OLD_REV;
  const updateName = o.update ?? NEW_REV;
  const updateRevision = revision(updateName, o.updateTemplate ?? template(), 2);
  const currentRevision =
    currentName === updateName ? updateRevision : revision(currentName, o.currentTemplate ?? template(), 1);
  return {
    cloneSet: cs,
    strategy: resolveStrategy(cs, options),
    currentRevision,
    updateRevision,
    revisions: currentRevision === updateRevision ? [updateRevision] : [currentRevision, updateRevision],
    pods: podList,
    pvcs: o.pvcs ?? [],
    now: o.now ?? NOW,
    options,
    newInstanceId: o.newInstanceId ?? idSource(),
  };
}

/**
 * A whole diff record (docs/behaviour/cloneset.md#diff): the given counts, every other field 0. Tests compare
 * the record whole with `toEqual(diffRecord({...}))`, so a field that should be 0 is checked too.
 */
export function diffRecord(nonZero: Partial<DiffRecord>): DiffRecord {
  return { ...emptyDiff(), ...nonZero };
}
