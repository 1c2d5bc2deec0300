/**
 * Builders and read-outs shared by the multi-step World scenarios and the e2e scenarios 61–81
 * (docs/behaviour/scenarios.md#scenarios): the cases' skeleton CloneSet (`default/sample`, selector
 * `app: sample`, image `example/app:v1`), per-revision counts, and a driver that runs reconcile + kubelet
 * rounds while checking an invariant.
 */
import {
  ANNOTATION_INPLACE_UPDATE_STATE,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_INSTANCE_ID,
  LABEL_LIFECYCLE_STATE,
} from '../../../lib/api/keys.js';
import type { CloneSet, CloneSetSpec, JsonObject, Pod } from '../../../lib/api/types.js';
import { metaTime } from '../../../lib/api/time.js';
import type { Plan } from '../../../lib/controllers/cloneset/plan/types.js';
import type { World } from '../support/world.js';

/** The image of version `v` in the cases (`example/app:<v>`). */
export const img = (v: string): string => `example/app:${v}`;

/**
 * The cases' skeleton CloneSet (docs/behaviour/scenarios.md cases "Conventions"): `default/sample`, 3
 * replicas, selector and template label `app: sample`, one container `main` with image `example/app:v1`;
 * `spec` fields are merged over it.
 */
export function sample(spec: Partial<CloneSetSpec> = {}): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'sample', namespace: 'default', uid: 'uid-sample', generation: 1 },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'sample' } },
      template: {
        metadata: { labels: { app: 'sample' } },
        spec: { containers: [{ name: 'main', image: img('v1') }] },
      },
      ...spec,
    },
  };
}

/** Sets the first container's image to `example/app:<v>`. */
export function setImage(cs: CloneSet, v: string): void {
  cs.spec.template.spec.containers[0].image = img(v);
}

/** The pod's `controller-revision-hash` label. */
export const revOf = (p: Pod): string => p.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
/** The pod's lifecycle state label. */
export const stateOf = (p: Pod): string => p.metadata.labels?.[LABEL_LIFECYCLE_STATE] ?? '';
/** The pod's instance id label. */
export const idOf = (p: Pod): string => p.metadata.labels?.[LABEL_INSTANCE_ID] ?? '';
/** The pod's first container image. */
export const imageOf = (p: Pod): string => p.spec.containers[0].image ?? '';
/** The pod's `InPlaceUpdateReady` condition status, or undefined. */
export const ipur = (p: Pod): string | undefined =>
  p.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.status;
/** The parsed `apps.kruise.io/inplace-update-state` annotation, or undefined. */
export function inPlaceState(p: Pod): JsonObject | undefined {
  const raw = p.metadata.annotations?.[ANNOTATION_INPLACE_UPDATE_STATE];
  return raw ? (JSON.parse(raw) as JsonObject) : undefined;
}

/** Active pod names. */
export const names = (w: World): string[] => w.activePods().map((p) => p.metadata.name ?? '');
/** `{ name: uid }` of the active pods. */
export function uids(w: World): Record<string, string> {
  return Object.fromEntries(w.activePods().map((p) => [p.metadata.name ?? '', p.metadata.uid ?? '']));
}

/** Number of active pods on `revision`. */
export const countRev = (w: World, revision: string): number =>
  w.activePods().filter((p) => revOf(p) === revision).length;

/** The CloneSet's update revision from the last written status. */
export const updateRev = (w: World): string => w.cloneSet.status?.updateRevision ?? '';
/** The CloneSet's current revision from the last written status. */
export const currentRev = (w: World): string => w.cloneSet.status?.currentRevision ?? '';

/** Ready pods by the kubelet's `Ready` condition. */
export const readyPods = (w: World): Pod[] =>
  w.activePods().filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));

/**
 * Pods available at `w.now` as the cases define it (Running, Ready ≥ minReadySeconds, lifecycle Normal or
 * absent, InPlaceUpdateReady True if present) — computed independently of the planner.
 */
export function availablePods(w: World): Pod[] {
  const minReady = w.cloneSet.spec.minReadySeconds ?? 0;
  return w.activePods().filter((p) => {
    if (p.status?.phase !== 'Running') return false;
    const ready = p.status.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') return false;
    const since = Date.parse(ready.lastTransitionTime ?? '');
    if (minReady > 0 && !(w.now.getTime() - since >= minReady * 1000)) return false;
    const s = stateOf(p);
    if (s !== '' && s !== 'Normal') return false;
    const c = ipur(p);
    return c === undefined || c === 'True';
  });
}

/** One round: reconcile, then one kubelet pass; returns the plan. */
export function round(w: World): Plan {
  const plan = w.reconcile();
  w.kubelet();
  return plan;
}

/**
 * Runs rounds (each `tick` seconds apart) until two consecutive plans do nothing, calling `check` after every
 * reconcile and every kubelet pass.
 * @returns the number of rounds
 */
export function drive(w: World, check: () => void, tick = 1, max = 200): number {
  let quiet = 0;
  for (let i = 0; i < max; i++) {
    const plan = w.reconcile();
    check();
    w.kubelet();
    check();
    w.tick(tick);
    quiet = plan.actions.length === 0 && !plan.revisions.create && !plan.revisions.update ? quiet + 1 : 0;
    if (quiet >= 2 && (plan.requeueAfterSeconds === undefined || quiet > 20)) return i + 1;
  }
  throw new Error(`did not settle in ${max} rounds`);
}

/** Kinds of the plan's actions, e.g. `CreatePod`, `PatchPod:RecreateUpdate`. */
export function kinds(plan: Plan): string[] {
  return plan.actions.map((a) => ('reason' in a ? `${a.type}:${a.reason}` : a.type));
}

/** The Progressing condition of the CloneSet's status, as `status/reason`. */
export function progressing(w: World): string | undefined {
  const c = w.cloneSet.status?.conditions?.find((x) => x.type === 'Progressing');
  return c ? `${c.status}/${c.reason}` : undefined;
}

/**
 * Makes the fake kubelet report a pod as crash-looping: Running, `Ready=False`, container not ready, and
 * leaves it alone from now on (it joins `w.stuck`).
 */
export function crashLoop(w: World, name: string): void {
  const p = w.pod(name);
  w.stuck.add(name);
  const t = metaTime(w.now);
  p.status = {
    ...p.status,
    phase: 'Running',
    conditions: (p.status?.conditions ?? []).map((c) =>
      c.type === 'Ready' || c.type === 'ContainersReady'
        ? { ...c, status: 'False', lastTransitionTime: t }
        : c,
    ),
    containerStatuses: (p.status?.containerStatuses ?? []).map((s) => ({ ...s, ready: false })),
  };
}

/** Name of the pod an action writes (undefined for PVC actions). */
export function actionPod(a: Plan['actions'][number]): string | undefined {
  if (a.type === 'CreatePod') return a.pod.metadata.name;
  return 'pod' in a ? a.pod.name : undefined;
}
