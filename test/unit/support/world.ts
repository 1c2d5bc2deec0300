/**
 * A small in-memory cluster for multi-step planner tests: it holds a CloneSet with its pods, PVCs and
 * ControllerRevisions, runs `planCloneSet`, applies the plan's writes the way the API server would, and plays
 * the kubelet (schedule, run, report images, Ready from readiness gates). It lets the e2e-style scenarios of
 * docs/behaviour/scenarios.md#scenarios and the cases in docs/behaviour/scenarios.md cases run as
 * table-driven planner tests; the real API server is exercised by the integration tests. Test-only code:
 * nothing in lib/ imports it.
 */
import { LABEL_INSTANCE_ID } from '../../../lib/api/keys.js';
import type {
  CloneSet,
  ControllerRevision,
  JsonObject,
  JsonValue,
  PersistentVolumeClaim,
  Pod,
  PodCondition,
} from '../../../lib/api/types.js';
import { planCloneSet } from '../../../lib/controllers/cloneset/plan/plan.js';
import type { Plan, PlannerOptions } from '../../../lib/controllers/cloneset/plan/types.js';
import type { Action } from '../../../lib/podset/actions.js';
import { metaTime } from '../../../lib/api/time.js';
import { deepFreeze } from '../../../lib/core/deepFreeze.js';

/** List fields that strategic merge patches merge by a key (as in the Kubernetes Go types). */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  volumes: 'name',
  conditions: 'type',
  ownerReferences: 'uid',
  readinessGates: 'conditionType',
};
/** Primitive lists with patch strategy `merge`. */
const MERGED_PRIMITIVE_LISTS = new Set(['finalizers']);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Apply a strategic-merge patch (the subset the planner writes: maps, `null` deletions, lists merged by key
 * with `$patch: delete`, finalizers with `$deleteFromPrimitiveList`/`$setElementOrder`).
 */
export function strategicMerge(target: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$setElementOrder/')) continue;
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      const drop = new Set((value as JsonValue[]).map((v) => JSON.stringify(v)));
      out[field] = ((out[field] as JsonValue[] | undefined) ?? []).filter(
        (v) => !drop.has(JSON.stringify(v)),
      );
      continue;
    }
    if (value === null) {
      delete out[key];
    } else if (Array.isArray(value) && MERGE_KEYS[key]) {
      const mk = MERGE_KEYS[key];
      const list = [...((out[key] as JsonObject[] | undefined) ?? [])];
      for (const item of value as JsonObject[]) {
        const idx = list.findIndex((e) => e[mk] === item[mk]);
        if (item.$patch === 'delete') {
          if (idx >= 0) list.splice(idx, 1);
        } else if (idx >= 0) {
          list[idx] = strategicMerge(list[idx], item);
        } else {
          list.push(item);
        }
      }
      out[key] = list;
    } else if (Array.isArray(value) && MERGED_PRIMITIVE_LISTS.has(key)) {
      const list = [...((out[key] as JsonValue[] | undefined) ?? [])];
      for (const v of value) if (!list.includes(v)) list.push(v);
      out[key] = list;
    } else if (isObject(value) && isObject(out[key])) {
      out[key] = strategicMerge(out[key], value);
    } else {
      out[key] = structuredClone(value);
    }
  }
  return out;
}

/** Deterministic image id a fake kubelet reports for an image. */
export function imageIdOf(image: string): string {
  return `docker.io/library/${image}@sha256:${Buffer.from(image).toString('hex').slice(0, 16)}`;
}

/** Options of a {@link World}. */
export interface WorldOptions {
  /** Planner gates. */
  gates?: Partial<PlannerOptions>;
  /** First instant of the simulated clock (default 2024-05-01T08:00:00Z). */
  start?: Date;
  /** Node name the fake scheduler binds pods to (default `node-1`). */
  nodeName?: string;
}

/** An in-memory cluster driving the planner. */
export class World {
  cloneSet: CloneSet;
  pods: Pod[] = [];
  pvcs: PersistentVolumeClaim[] = [];
  revisions: ControllerRevision[] = [];
  now: Date;
  /** Every plan produced, in order. */
  plans: Plan[] = [];
  private rv = 1;
  private ids: string[] = [];
  private idCounter = 0;
  private readonly gates: Partial<PlannerOptions>;
  private readonly nodeName: string;
  /** Pods the fake kubelet leaves alone (e.g. an image that never starts). */
  stuck = new Set<string>();

  constructor(cloneSet: CloneSet, options: WorldOptions = {}) {
    this.cloneSet = structuredClone(cloneSet);
    this.cloneSet.metadata.uid ??= 'cs-uid';
    this.cloneSet.metadata.namespace ??= 'default';
    this.cloneSet.metadata.generation ??= 1;
    this.now = new Date(options.start ?? new Date('2024-05-01T08:00:00Z'));
    this.gates = options.gates ?? {};
    this.nodeName = options.nodeName ?? 'node-1';
  }

  /** Queue instance ids to hand out before generated ones (`id0`, `id1`, …). */
  useIds(...ids: string[]): this {
    this.ids.push(...ids);
    return this;
  }

  private nextRv(): string {
    return String(++this.rv);
  }

  /** Advance the simulated clock. */
  tick(seconds: number): this {
    this.now = new Date(this.now.getTime() + seconds * 1000);
    return this;
  }

  /** Change the CloneSet spec as a user would (bumps generation). */
  edit(mutate: (cs: CloneSet) => void): this {
    mutate(this.cloneSet);
    this.cloneSet.metadata.generation = (this.cloneSet.metadata.generation ?? 1) + 1;
    return this;
  }

  /** The pod with this name (throws if absent). */
  pod(name: string): Pod {
    const p = this.pods.find((x) => x.metadata.name === name);
    if (!p) throw new Error(`no pod ${name}`);
    return p;
  }

  /** Active pods (not terminating, not finished), sorted by name. */
  activePods(): Pod[] {
    return this.pods
      .filter((p) => !p.metadata.deletionTimestamp)
      .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
  }

  /** Run the planner once and apply its plan; returns the plan. */
  reconcile(): Plan {
    const plan = planCloneSet({
      cloneSet: structuredClone(this.cloneSet),
      // listed pods reach a pass frozen (docs/architecture.md#frozen-lists): a planner that changes one throws here
      pods: deepFreeze(structuredClone(this.pods)),
      pvcs: structuredClone(this.pvcs),
      revisions: structuredClone(this.revisions),
      now: this.now,
      newInstanceId: () => this.ids.shift() ?? `id${this.idCounter++}`,
      options: this.gates,
    });
    this.apply(plan);
    this.plans.push(plan);
    return plan;
  }

  /** Apply a plan's writes: revisions, actions (in order), status, podsToDelete. */
  apply(plan: Plan): void {
    const r = plan.revisions;
    if (r.create) this.revisions.push(structuredClone(r.create));
    if (r.update) {
      const i = this.revisions.findIndex((x) => x.metadata.name === r.update!.metadata.name);
      if (i >= 0) this.revisions[i] = structuredClone(r.update);
    }
    for (const a of plan.actions) this.applyAction(a);
    if (plan.statusChanged) this.cloneSet.status = structuredClone(plan.status);
    this.revisions = this.revisions.filter((x) => !r.deleteNames.includes(x.metadata.name ?? ''));
    if (plan.podsToDelete) {
      this.cloneSet.spec.scaleStrategy = {
        ...this.cloneSet.spec.scaleStrategy,
        podsToDelete: plan.podsToDelete,
      };
    }
  }

  private applyAction(a: Action): void {
    switch (a.type) {
      case 'CreatePod': {
        for (const pvc of a.pvcs) {
          if (!this.pvcs.some((x) => x.metadata.name === pvc.metadata.name)) {
            this.pvcs.push({
              ...structuredClone(pvc),
              metadata: { ...pvc.metadata, uid: `uid-${pvc.metadata.name}` },
            });
          }
        }
        if (this.pods.some((p) => p.metadata.name === a.pod.metadata.name)) {
          throw new Error(`AlreadyExists: pod ${a.pod.metadata.name}`);
        }
        const pod = structuredClone(a.pod);
        pod.metadata.uid = `uid-${pod.metadata.name}`;
        pod.metadata.resourceVersion = this.nextRv();
        pod.metadata.creationTimestamp = metaTime(this.now);
        pod.status = { phase: 'Pending' };
        this.pods.push(pod);
        return;
      }
      case 'DeletePod': {
        this.pods = this.pods.filter((p) => p.metadata.name !== a.pod.name);
        this.pvcs = this.pvcs.filter((p) => !a.pvcNames.includes(p.metadata.name ?? ''));
        return;
      }
      case 'PatchPod':
      case 'PatchPodStatus': {
        const i = this.pods.findIndex((p) => p.metadata.name === a.pod.name);
        if (i < 0) throw new Error(`NotFound: pod ${a.pod.name}`);
        const patched = strategicMerge(this.pods[i] as unknown as JsonObject, a.patch) as unknown as Pod;
        patched.metadata.resourceVersion = this.nextRv();
        this.pods[i] = patched;
        return;
      }
      case 'CreatePVC':
        this.pvcs.push({
          ...structuredClone(a.pvc),
          metadata: { ...a.pvc.metadata, uid: `uid-${a.pvc.metadata.name}` },
        });
        return;
      case 'DeletePVC':
        this.pvcs = this.pvcs.filter((p) => p.metadata.name !== a.name);
        return;
      case 'PatchPVCOwner': {
        const pvc = this.pvcs.find((p) => p.metadata.name === a.name);
        if (pvc) pvc.metadata.ownerReferences = structuredClone(a.ownerReferences);
        return;
      }
      case 'ResizePVC':
        throw new Error('the CloneSet world plans no ResizePVC (an Advanced StatefulSet action)');
    }
  }

  /**
   * One fake-kubelet pass: bind unscheduled pods, start pending ones (Running, container statuses), restart
   * containers whose spec image changed (new imageID, restartCount + 1), and set Ready = every readiness gate
   * True. Pods in {@link stuck} are left alone.
   */
  kubelet(): this {
    const t = metaTime(this.now);
    for (const pod of this.pods) {
      if (pod.metadata.deletionTimestamp || this.stuck.has(pod.metadata.name ?? '')) continue;
      pod.spec.nodeName ||= this.nodeName;
      const status = (pod.status ??= {});
      const old = status.containerStatuses ?? [];
      status.phase = 'Running';
      status.containerStatuses = pod.spec.containers.map((c) => {
        const prev = old.find((s) => s.name === c.name);
        const image = c.image ?? '';
        if (prev && prev.image === image) return prev;
        return {
          name: c.name,
          image,
          imageID: imageIdOf(image),
          containerID: `containerd://${pod.metadata.name}-${c.name}-${(prev?.restartCount ?? -1) + 1}`,
          ready: true,
          restartCount: prev ? prev.restartCount + 1 : 0,
        };
      });
      const conds = (status.conditions ??= []);
      const gates = (pod.spec.readinessGates ?? []).map((g) => g.conditionType);
      const ready = gates.every((g) => conds.some((c) => c.type === g && c.status === 'True'));
      setCondition(conds, 'ContainersReady', 'True', t);
      setCondition(conds, 'Ready', ready ? 'True' : 'False', t);
      pod.metadata.resourceVersion = this.nextRv();
    }
    return this;
  }

  /**
   * Alternate reconcile and kubelet passes until a plan has no actions twice in a row (or `max` rounds).
   * @returns the number of reconciles run
   */
  settle(max = 50): number {
    let quiet = 0;
    for (let i = 0; i < max; i++) {
      const plan = this.reconcile();
      this.kubelet();
      quiet = plan.actions.length === 0 && !plan.revisions.create && !plan.revisions.update ? quiet + 1 : 0;
      if (quiet >= 2) return i + 1;
    }
    throw new Error(`did not settle in ${max} reconciles`);
  }

  /** Mark a pod as deleted by a user (graceful deletion done at once, as the fake kubelet would). */
  deletePod(name: string): this {
    this.pods = this.pods.filter((p) => p.metadata.name !== name);
    return this;
  }

  /** Instance ids of the active pods, sorted. */
  instanceIds(): string[] {
    return this.activePods()
      .map((p) => p.metadata.labels?.[LABEL_INSTANCE_ID] ?? '')
      .sort();
  }
}

function setCondition(conds: PodCondition[], type: string, status: string, t: string): void {
  const c = conds.find((x) => x.type === type);
  if (!c) conds.push({ type, status, lastTransitionTime: t });
  else if (c.status !== status) Object.assign(c, { status, lastTransitionTime: t });
}
