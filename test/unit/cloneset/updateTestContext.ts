/**
 * PhaseContext builder for the update-phase tests (docs/behaviour/cloneset.md#update-phase): revisions
 * `old_rev` (image foo1) and `new_rev` (image foo2) of a one-container (`c1`) template, pods shaped like
 * OpenKruise's cloneset_update_test.go.
 */
import { CONDITION_INPLACE_UPDATE_READY, LABEL_CONTROLLER_REVISION_HASH } from '../../../lib/api/keys.js';
import type { CloneSet, ControllerRevision, Pod, PodTemplateSpec } from '../../../lib/api/types.js';
import { resolveStrategy } from '../../../lib/cloneset/strategy.js';
import {
  DEFAULT_PLANNER_OPTIONS,
  type PhaseContext,
  type PlannerOptions,
} from '../../../lib/cloneset/types.js';
import { cloneSet, NEW_REV, NOW, OLD_REV, revision } from '../support/fixtures.js';

/** Template with one container `c1` running `image`, plus optional extra labels/env. */
export function tpl(image: string, labels: Record<string, string> = {}): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'foo', ...labels } },
    spec: { containers: [{ name: 'c1', image }] },
  };
}

export const REV_OLD = revision(OLD_REV, tpl('foo1'), 1);
export const REV_NEW = revision(NEW_REV, tpl('foo2'), 2);

/** A pod on `rev` running `image` (c1), with the InPlaceUpdateReady gate, Ready, IPUR True by default. */
export function ipPod(
  name: string,
  rev: string,
  opts: {
    image?: string;
    state?: string;
    ready?: boolean;
    ipur?: boolean;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    nodeName?: string;
    imageID?: string;
  } = {},
): Pod {
  const labels: Record<string, string> = {
    app: 'foo',
    [LABEL_CONTROLLER_REVISION_HASH]: rev,
    ...opts.labels,
  };
  if (opts.state) labels['lifecycle.apps.kruise.io/state'] = opts.state;
  const conditions = [];
  if (opts.ready ?? true) conditions.push({ type: 'Ready', status: 'True' });
  if (opts.ipur ?? true) conditions.push({ type: CONDITION_INPLACE_UPDATE_READY, status: 'True' });
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels,
      ...(opts.annotations ? { annotations: opts.annotations } : {}),
      ...(opts.finalizers ? { finalizers: opts.finalizers } : {}),
    },
    spec: {
      containers: [{ name: 'c1', image: opts.image ?? (rev === NEW_REV ? 'foo2' : 'foo1') }],
      readinessGates: [{ conditionType: CONDITION_INPLACE_UPDATE_READY }],
      ...(opts.nodeName ? { nodeName: opts.nodeName } : {}),
    },
    status: {
      phase: 'Running',
      conditions,
      containerStatuses: [
        { name: 'c1', image: 'foo1', imageID: opts.imageID ?? 'image-id-xyz', ready: true, restartCount: 0 },
      ],
    },
  };
}

/** A PhaseContext for `cs` and `pods`; current = old_rev, update = new_rev unless given. */
export function phaseContext(
  cs: CloneSet,
  pods: Pod[],
  o: {
    current?: ControllerRevision;
    update?: ControllerRevision;
    revisions?: ControllerRevision[];
    options?: Partial<PlannerOptions>;
    now?: Date;
  } = {},
): PhaseContext {
  const options = { ...DEFAULT_PLANNER_OPTIONS, ...(o.options ?? {}) };
  const current = o.current ?? REV_OLD;
  const update = o.update ?? REV_NEW;
  return {
    cloneSet: cs,
    strategy: resolveStrategy(cs, options),
    currentRevision: current,
    updateRevision: update,
    revisions: o.revisions ?? [current, update].filter((r, i, a) => a.indexOf(r) === i),
    pods,
    pvcs: [],
    now: o.now ?? NOW,
    options,
    newInstanceId: () => 'unused',
  };
}

/** `CS(R, partition, maxUnavailable, maxSurge)` with the given update type and extras. */
export function updateCloneSet(
  type: 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly' | 'OnDelete',
  replicas = 1,
  extra: Partial<CloneSet['spec']> = {},
): CloneSet {
  const cs = cloneSet(replicas, 0, 1, 0);
  cs.spec.template = tpl('foo2');
  cs.spec.updateStrategy = { ...cs.spec.updateStrategy, type };
  Object.assign(cs.spec, extra);
  return cs;
}

export { NEW_REV, NOW, OLD_REV };
