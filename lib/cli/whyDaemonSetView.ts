/**
 * `kruiseless why <pod>` output for a pod of an Advanced DaemonSet (docs/cli.md#why): the pod's node and whether
 * the DaemonSet should run a pod there (lib/controllers/daemonset/plan/nodes.ts `judgeDaemonNode`, the planner's own
 * rule, with the reason when not), its revision against the update revision the next pass computes, whether the
 * rolling update reaches its node (strategy, `paused`, `partition`, `rollingUpdate.selector`:
 * plan/rollingUpdate.ts `nodesAllowedToUpdate`), its lifecycle and in-place state, the expectations, the writes the
 * next pass makes to it (./planDaemonSetView.ts `plannedDaemonSetWrites`) and the Events. Pure: facts in, text out.
 */
import { LABEL_CONTROLLER_REVISION_HASH, LABEL_LIFECYCLE_STATE } from '../api/keys.js';
import type { Node } from '../api/node.js';
import { selectorMatches } from '../api/selector.js';
import type { Pod } from '../api/types.js';
import { withDefaults } from '../controllers/daemonset/api/defaults.js';
import { DaemonSetEventReason } from '../controllers/daemonset/api/keys.js';
import type { DaemonSet } from '../controllers/daemonset/api/types.js';
import { judgeDaemonNode } from '../controllers/daemonset/plan/nodes.js';
import { templateGeneration } from '../controllers/daemonset/plan/newPod.js';
import { podsByNode } from '../controllers/daemonset/plan/podsByNode.js';
import { nodesAllowedToUpdate } from '../controllers/daemonset/plan/rollingUpdate.js';
import { isPodUpdated } from '../controllers/daemonset/plan/status.js';
import type { DaemonSetPassPreview } from '../controllers/daemonset/preview.js';
import type { CoreEvent } from '../kube/event.js';
import { assignedNode } from '../podset/nodePin.js';
import { plannedDaemonSetWrites } from './planDaemonSetView.js';
import { expectationLine, historyLines, inPlaceLine, whyField } from './whyView.js';

/** Everything `why` found about one pod of an Advanced DaemonSet. */
export interface DaemonSetPodFacts {
  namespace: string;
  name: string;
  /** The pod, when it still exists. */
  pod?: Pod;
  daemonSetName: string;
  /** The next pass's reads and plan (./planDaemonSet.ts `previewDaemonSet`); undefined when the DaemonSet is gone. */
  preview?: DaemonSetPassPreview;
  /** Whether the expectations were read from a state table (else the preview's are empty by default). */
  stateRead: boolean;
  /** Events of the DaemonSet that name the pod and Events of the pod itself. */
  events: CoreEvent[];
  /** Where the state came from, or why it was not read. */
  stateNote: string;
}

/** What an Advanced DaemonSet Event says happened to the pod it names (lib/controllers/daemonset/execute.ts). */
export function daemonSetEventMeaning(e: CoreEvent): string | undefined {
  if (e.involvedObject.kind !== 'DaemonSet') return undefined;
  switch (e.reason) {
    case DaemonSetEventReason.SuccessfulCreate:
      return 'created by the DaemonSet';
    case DaemonSetEventReason.FailedCreate:
      return 'create failed';
    case DaemonSetEventReason.SuccessfulDelete:
      return 'deleted by the DaemonSet';
    case DaemonSetEventReason.FailedDelete:
      return 'delete failed';
    case DaemonSetEventReason.FailedDaemonPod:
      return 'Failed on its node: deleted to be created again';
    case DaemonSetEventReason.SuccessfulUpdatePodInPlace:
      return 'updated in place';
    case DaemonSetEventReason.FailedUpdatePodInPlace:
      return 'in-place update failed';
    default:
      return undefined;
  }
}

/** The node line and, when the node exists, the should-run line. */
function nodeLines(
  pod: Pod,
  ds: DaemonSet | undefined,
  nodes: readonly Node[] | undefined,
): [string, string?] {
  const nodeName = assignedNode(pod);
  if (!nodeName) return ['(none: the pod names no node)'];
  if (!ds || !nodes) return [nodeName];
  const node = nodes.find((n) => n.metadata.name === nodeName);
  if (!node) return [`${nodeName} (gone: the pod is deleted)`];
  const v = judgeDaemonNode(node, ds);
  if (v.shouldRun) return [nodeName, 'yes'];
  return [
    nodeName,
    `no: ${v.reason ?? '?'}; ${v.shouldContinueRunning ? 'a pod already there may stay' : 'the pod is deleted'}`,
  ];
}

/** The revision line: the pod's `controller-revision-hash` against the update revision of the next pass. */
function revisionLine(
  pod: Pod,
  updated: boolean,
  hash: string | undefined,
  revision: string | undefined,
): string {
  const rev = pod.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '(none)';
  if (!hash) return rev;
  if (rev === hash) return `${rev} (the update revision${revision ? `, ${revision}` : ''})`;
  return updated
    ? `${rev} (its pod-template-generation is the DaemonSet's: counted updated; the update revision is ${hash})`
    : `${rev} (an old revision; the update revision is ${hash})`;
}

/**
 * Whether the rolling update reaches the pod: OnDelete — only when deleted; at the update revision — nothing to do;
 * paused — not now; else whether its node is among those `partition` and `rollingUpdate.selector` leave to update
 * (`maxUnavailable` / `maxSurge` then pace them).
 */
function updateLine(
  p: DaemonSetPassPreview,
  ds: DaemonSet,
  pod: Pod,
  hash: string,
  updated: boolean,
): string {
  const strategy = ds.spec.updateStrategy;
  if (strategy?.type === 'OnDelete') return 'OnDelete: the pod is updated only when it is deleted';
  if (updated) return 'at the update revision: nothing to update';
  const ru = strategy?.rollingUpdate;
  if (ru?.paused) return 'rollingUpdate.paused: the rolling update waits';
  const nodeName = assignedNode(pod);
  const allowed = nodesAllowedToUpdate(ds, p.nodes, podsByNode(p.pods), hash, templateGeneration(ds));
  const partition = ru?.partition !== undefined ? `partition ${ru.partition}` : '';
  const node = p.nodes.find((n) => n.metadata.name === nodeName);
  const selected = ru?.selector ? selectorMatches(ru.selector, node?.metadata.labels ?? {}) : undefined;
  const selector = ru?.selector ? `rollingUpdate.selector ${JSON.stringify(ru.selector)}` : '';
  if (allowed.includes(nodeName)) {
    const by = [
      partition && `${partition}: ${allowed.length} nodes may update`,
      selected && `its node matches ${selector}`,
    ].filter(Boolean);
    return `the rolling update reaches node ${nodeName}${by.length > 0 ? ` (${by.join('; ')})` : ''}: replaced as maxUnavailable / maxSurge allow`;
  }
  if (selected === false) return `node ${nodeName} does not match ${selector}: left at its revision`;
  return `kept at its revision by ${partition || 'the partition'} (${allowed.length} nodes may update)`;
}

/** The next pass's writes to this pod (`plan ds/<name>`'s lines), or what stops them. */
function nextPassLine(p: DaemonSetPassPreview, name: string): string {
  if (p.waiting) return 'pending expectations: the pass writes nothing and looks again';
  const mine = plannedDaemonSetWrites(p).filter(
    (w) => / pod(\/\w+)? /.test(` ${w.write} `) && w.write.split(' ').pop() === name,
  );
  return mine.length > 0 ? mine.map((w) => `${w.write}: ${w.why}`).join('; ') : 'nothing for this pod';
}

/** The whole `why` report for a pod of an Advanced DaemonSet, ending with a newline. */
export function daemonSetWhyReport(facts: DaemonSetPodFacts): string {
  const lines = [`Pod ${facts.namespace}/${facts.name}`];
  const field = (label: string, value: string) => lines.push(whyField(label, value));
  const { pod, preview } = facts;
  const ds = preview ? withDefaults(preview.ds) : undefined;
  field('DaemonSet', `${facts.daemonSetName} (apps.kruise.io)${ds ? '' : ' (gone)'}`);
  const plan = preview?.plan.type === 'Sync' ? preview.plan : undefined;
  if (pod) {
    const [node, shouldRun] = nodeLines(pod, ds, preview?.nodes);
    field('node', node);
    if (shouldRun) field('should run', shouldRun);
    field('created', pod.metadata.creationTimestamp ?? '?');
    const hash = plan?.hash ?? ds?.status?.updateRevision;
    const updated = hash !== undefined && ds !== undefined && isPodUpdated(pod, hash, templateGeneration(ds));
    field('revision', revisionLine(pod, updated, hash, plan?.currentRevision));
    if (preview && ds && hash) field('update', updateLine(preview, ds, pod, hash, updated));
    field('lifecycle state', pod.metadata.labels?.[LABEL_LIFECYCLE_STATE] ?? '(none: Normal)');
    field('in-place update', inPlaceLine(pod) ?? 'none recorded');
    if (pod.metadata.deletionTimestamp) field('deleting', `since ${pod.metadata.deletionTimestamp}`);
  } else {
    field('pod', 'gone: what is left is the state and the Events');
  }
  field('state', facts.stateNote);
  field('expectations', expectationLine(facts.stateRead ? preview?.observed.pending : undefined, facts.name));
  if (pod && preview) {
    if (preview.plan.type === 'Invalid')
      field('next pass', 'the DaemonSet is invalid: nothing is written until it is fixed');
    else field('next pass', nextPassLine(preview, facts.name));
  }
  lines.push(...historyLines(facts.events, daemonSetEventMeaning));
  return `${lines.join('\n')}\n`;
}
