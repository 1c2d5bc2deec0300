/**
 * `kruiseless why <pod>` output for a pod of an Advanced StatefulSet (docs/cli.md#why): what the controller did to
 * the pod and why, from its name's ordinal against the set's ordinal range (`replicas`, `reserveOrdinals`, and
 * `ordinals.start` under gate `StatefulSetStartOrdinal`, as the planner reads them:
 * lib/controllers/statefulset/plan/ordinals.ts `ordinalRange`), its `controller-revision-hash` label against the set's revisions,
 * the update partition (lib/controllers/statefulset/plan/update.ts `podsToUpdate`), its lifecycle, specified-delete
 * and in-place labels and annotations, the expectations (docs/architecture.md#expectations) and the Events. Pure:
 * facts in, text out.
 */
import { EventReason, LABEL_LIFECYCLE_STATE, LABEL_SPECIFIED_DELETE } from '../api/keys.js';
import type { Pod } from '../api/types.js';
import { LABEL_STATEFULSET_REVISION } from '../controllers/statefulset/api/keys.js';
import type { StatefulSet } from '../controllers/statefulset/api/types.js';
import { ordinalRange, parentAndOrdinal } from '../controllers/statefulset/plan/ordinals.js';
import type { CoreEvent } from '../kube/event.js';
import type { Expectations } from '../state/index.js';
import { expectationLine, historyLines, inPlaceLine, whyField } from './whyView.js';

/** Everything `why` found about one pod of an Advanced StatefulSet. */
export interface StatefulSetPodFacts {
  namespace: string;
  name: string;
  /** The pod, when it still exists. */
  pod?: Pod;
  /** Its StatefulSet, when it still exists. */
  statefulSet?: StatefulSet;
  statefulSetName: string;
  /** The stored expectations, when the state table was read. */
  expectations?: Expectations;
  /** Events of the StatefulSet that name the pod and Events of the pod itself. */
  events: CoreEvent[];
  /** Where the state came from, or why it was not read. */
  stateNote: string;
  /**
   * Gate `StatefulSetStartOrdinal` as the deployment has it (`why --feature-gates`): on, the range starts at
   * `spec.ordinals.start`, as the planner's (`planStatefulSet` → `ordinalRange`); default off, OpenKruise v1.9.0's
   * default for the alpha gate.
   */
  startOrdinalGate?: boolean;
}

/**
 * What an Advanced StatefulSet Event says happened to the pod it names (lib/controllers/statefulset/podEvents.ts,
 * upstream `recordPodEvent`, `recordClaimEvent`); a claim's Event names its pod too.
 */
export function statefulSetEventMeaning(e: CoreEvent): string | undefined {
  if (e.involvedObject.kind !== 'StatefulSet') return undefined;
  const claim = /^(create|resize) Claim /.test(e.message ?? '');
  switch (e.reason) {
    case EventReason.SuccessfulCreate:
      return claim ? 'its volume claim created' : 'created by the StatefulSet';
    case EventReason.FailedCreate:
      return claim ? 'its volume claim could not be created' : 'create failed';
    case EventReason.SuccessfulDelete:
      return 'deleted by the StatefulSet';
    case EventReason.FailedDelete:
      return 'delete failed';
    case 'SuccessfulUpdate':
      return 'its identity labels restored';
    case EventReason.FailedUpdate:
      return 'update failed';
    case EventReason.SuccessfulUpdatePodInPlace:
      return 'updated in place';
    case EventReason.FailedUpdatePodInPlace:
      return 'in-place update failed';
    case 'SuccessfulResize':
      return 'its volume claim grown before its update';
    case 'FailedResize':
      return 'its volume claim could not be grown';
    default:
      return undefined;
  }
}

/**
 * The ordinal line: the name's ordinal against the range the set keeps — from `ordinals.start` when gate
 * `StatefulSetStartOrdinal` is on, else from 0 (a start the gate ignores is named) — as the planner's
 * `ordinalRange` (OpenKruise `getStartOrdinal` in pkg/controller/statefulset/stateful_set_control.go).
 */
function ordinalLine(name: string, sts: StatefulSet | undefined, startOrdinalGate: boolean): string {
  const { ordinal } = parentAndOrdinal(name);
  if (ordinal < 0) return 'none: the name has no ordinal, the set does not keep this pod';
  if (!sts) return String(ordinal);
  const range = ordinalRange(sts, startOrdinalGate);
  const replicas = sts.spec.replicas ?? 1;
  const start = sts.spec.ordinals?.start ?? 0;
  const ignored =
    !startOrdinalGate && start !== 0
      ? `; ordinals.start ${start} ignored: gate StatefulSetStartOrdinal is off (--feature-gates)`
      : '';
  if (range.reserved.has(ordinal))
    return `${ordinal} (reserved by reserveOrdinals: condemned, deleted${ignored})`;
  if (ordinal < range.start)
    return `${ordinal} (below ordinals.start ${range.start}: condemned, deleted by scale-down)`;
  if (ordinal >= range.end)
    return `${ordinal} (outside the range of ${replicas} replicas${range.start > 0 ? ` from ordinal ${range.start}` : ''}: condemned, deleted by scale-down${ignored})`;
  return `${ordinal} (kept by the ${replicas} replicas${range.start > 0 ? ` from ordinal ${range.start}` : ''}${ignored})`;
}

/** The revision line: the pod's `controller-revision-hash` against the set's update and current revisions. */
function revisionLine(pod: Pod, sts: StatefulSet | undefined): string {
  const rev = pod.metadata.labels?.[LABEL_STATEFULSET_REVISION] ?? '(none)';
  const update = sts?.status?.updateRevision;
  if (!update) return rev;
  if (rev === update) return `${rev} (the update revision)`;
  const current = sts.status?.currentRevision;
  return `${rev} (${rev === current ? 'the current revision' : 'an old revision'}; the update revision is ${update})`;
}

/**
 * Whether the rolling update reaches the pod (upstream `sortPodsToUpdate`): OnDelete — only when deleted; paused —
 * not now; ordered — slots (ordinal − start) from the highest down to `partition`, at most `replicas − partition`
 * pods; `unorderedUpdate` — `replicas − partition` pods by priority.
 */
function partitionLine(name: string, sts: StatefulSet, startOrdinalGate: boolean): string {
  const strategy = sts.spec.updateStrategy;
  if (strategy?.type === 'OnDelete') return 'OnDelete: the pod is updated only when it is deleted';
  const ru = strategy?.rollingUpdate;
  const partition = ru?.partition ?? 0;
  const paused = ru?.paused ? ' (the rollout is paused)' : '';
  const replicas = sts.spec.replicas ?? 1;
  if (ru?.unorderedUpdate)
    return `unorderedUpdate: ${Math.max(replicas - partition, 0)} of ${replicas} pods are updated, chosen by priority${paused}`;
  const { ordinal } = parentAndOrdinal(name);
  const slot = ordinal - ordinalRange(sts, startOrdinalGate).start;
  return slot >= partition
    ? `ordinal ${ordinal} ≥ partition ${partition}: in the update partition, updated to the update revision${paused}`
    : `ordinal ${ordinal} < partition ${partition}: kept at the current revision by the partition`;
}

/** The whole `why` report for a pod of an Advanced StatefulSet, ending with a newline. */
export function statefulSetWhyReport(facts: StatefulSetPodFacts): string {
  const lines = [`Pod ${facts.namespace}/${facts.name}`];
  const field = (label: string, value: string) => lines.push(whyField(label, value));
  const { pod, statefulSet: sts } = facts;
  field('StatefulSet', `${facts.statefulSetName} (apps.kruise.io)${sts ? '' : ' (gone)'}`);
  const startOrdinalGate = facts.startOrdinalGate ?? false;
  field('ordinal', ordinalLine(facts.name, sts, startOrdinalGate));
  if (pod) {
    const labels = pod.metadata.labels ?? {};
    field('created', pod.metadata.creationTimestamp ?? '?');
    field('revision', revisionLine(pod, sts));
    if (sts && parentAndOrdinal(facts.name).ordinal >= 0)
      field('partition', partitionLine(facts.name, sts, startOrdinalGate));
    field('lifecycle state', labels[LABEL_LIFECYCLE_STATE] ?? '(none: Normal)');
    const specified = labels[LABEL_SPECIFIED_DELETE];
    field(
      'specified-delete',
      specified !== undefined ? `${specified}: the StatefulSet deletes this pod and creates it again` : 'no',
    );
    field('in-place update', inPlaceLine(pod) ?? 'none recorded');
    if (pod.metadata.deletionTimestamp) field('deleting', `since ${pod.metadata.deletionTimestamp}`);
  } else {
    field('pod', 'gone: what is left is the state and the Events');
  }
  field('state', facts.stateNote);
  field('expectations', expectationLine(facts.expectations, facts.name));
  lines.push(...historyLines(facts.events, statefulSetEventMeaning));
  return `${lines.join('\n')}\n`;
}
