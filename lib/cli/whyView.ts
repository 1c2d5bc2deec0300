/**
 * `kruiseless why <pod>` output (docs/cli.md#why): what the CloneSet controller did to a pod and why, from the
 * pod's labels and annotations (docs/behaviour/cloneset.md#pod-labels, docs/behaviour/cloneset.md#pod-annotations),
 * the scale-down ledger and expectations (docs/architecture.md#ledger, docs/architecture.md#expectations) and the
 * Events. Pure: facts in, text out.
 */
import {
  ANNOTATION_INPLACE_UPDATE_STATE,
  EventReason,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_INSTANCE_ID,
  LABEL_LIFECYCLE_STATE,
  LABEL_SPECIFIED_DELETE,
} from '../api/keys.js';
import type { CloneSet, Pod } from '../api/types.js';
import { compareResourceVersions } from '../core/resourceVersion.js';
import type { Expectations, ScaleDownIntent } from '../state/index.js';
import type { CoreEvent } from '../kube/event.js';

/** Everything `why` found about one pod. */
export interface PodFacts {
  namespace: string;
  name: string;
  /** The pod, when it still exists. */
  pod?: Pod;
  /** Its CloneSet, when it still exists. */
  cloneSet?: CloneSet;
  cloneSetName: string;
  /** The recorded scale-down, when the state table was read and one is recorded. */
  intent?: ScaleDownIntent;
  /** The stored expectations, when the state table was read. */
  expectations?: Expectations;
  /** Events of the CloneSet that name the pod and Events of the pod itself. */
  events: CoreEvent[];
  /** Where the state came from, or why it was not read. */
  stateNote: string;
}

/** What a CloneSet Event reason says happened to the pod it names (docs/behaviour/cloneset.md#events). */
const MEANING: Record<string, string> = {
  [EventReason.SuccessfulCreate]: 'created by the CloneSet',
  [EventReason.FailedCreate]: 'create failed',
  [EventReason.SuccessfulDelete]: 'deleted by the CloneSet',
  [EventReason.FailedDelete]: 'delete failed',
  [EventReason.SuccessfulUpdatePodInPlace]: 'updated in place',
  [EventReason.FailedUpdatePodInPlace]: 'in-place update failed',
  [EventReason.SuccessfulUpdatePodReCreate]:
    'marked for recreate update (deleted, then created again at the update revision)',
  [EventReason.FailedUpdatePodReCreate]: 'recreate update failed',
};

/** The time of an Event (last occurrence first, then first, then eventTime), or ''. */
export function eventTime(e: CoreEvent): string {
  return e.lastTimestamp ?? e.firstTimestamp ?? e.eventTime ?? '';
}

/** Whether `message` names `pod` as a whole word (so `cs-abc` does not match `cs-abcd`). */
export function namesPod(message: string | undefined, pod: string): boolean {
  if (!message) return false;
  const escaped = pod.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9-])${escaped}($|[^A-Za-z0-9-])`).test(message);
}

/** The revision line: the pod's revision label against the CloneSet's update revision. */
function revisionLine(pod: Pod, cs: CloneSet | undefined): string {
  const rev = pod.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '(none)';
  const update = cs?.status?.updateRevision;
  if (!update) return rev;
  return rev === update || update.endsWith(`-${rev}`)
    ? `${rev} (the update revision)`
    : `${rev} (an old revision; the update revision is ${update}: the pod is due for update unless partition or pause keeps it)`;
}

/** The in-place update annotation, summarised, or undefined when absent. */
export function inPlaceLine(pod: Pod): string | undefined {
  const raw = pod.metadata.annotations?.[ANNOTATION_INPLACE_UPDATE_STATE];
  if (!raw) return undefined;
  try {
    const s = JSON.parse(raw) as {
      revision?: string;
      updateTimestamp?: string;
      lastContainerStatuses?: object;
    };
    const containers = Object.keys(s.lastContainerStatuses ?? {}).join(', ');
    return `to revision ${s.revision ?? '?'} at ${s.updateTimestamp ?? '?'}${containers ? ` (containers ${containers})` : ''}`;
  } catch {
    return `annotation present but not JSON: ${raw}`;
  }
}

/** Pod `name`'s line in the stored expectations (`not read` when they were not). */
export function expectationLine(e: Expectations | undefined, name: string): string {
  if (!e) return 'not read';
  const found = (
    [
      ['create', e.creates],
      ['delete', e.deletes],
      ['update', e.updates],
    ] as const
  ).flatMap(([verb, ops]) =>
    ops
      .filter((o) => o.name === name)
      .map((o) => `${verb} issued at ${new Date(o.at).toISOString()} not yet seen`),
  );
  return found.length > 0 ? found.join('; ') : 'nothing pending for this pod';
}

/** The pod's entry in the recorded scale-down, if any. */
function ledgerLine(facts: PodFacts): string {
  if (!facts.expectations && !facts.intent) return 'not read';
  const chosen = facts.intent?.pods.find((p) => p.name === facts.name);
  if (!facts.intent || !chosen) return 'not chosen by a recorded scale-down';
  return `chosen for deletion by scale-down ${facts.intent.intentId} at ${new Date(facts.intent.createdAt).toISOString()}: ${chosen.reason}`;
}

/**
 * The `History (Events):` lines: the Events by time, each `<time>  <type> <reason> on <kind>/<name> (xN): <message>`
 * and ` → <meaning>` where `meaningOf` gives one.
 */
export function historyLines(
  events: readonly CoreEvent[],
  meaningOf: (e: CoreEvent) => string | undefined,
): string[] {
  // Event times have whole seconds: within one second the API server's write order (resourceVersion) decides
  const sorted = [...events].sort(
    (a, b) =>
      (Date.parse(eventTime(a)) || 0) - (Date.parse(eventTime(b)) || 0) ||
      (compareResourceVersions(a.metadata?.resourceVersion ?? '', b.metadata?.resourceVersion ?? '') ?? 0),
  );
  const lines = [sorted.length > 0 ? 'History (Events):' : 'History (Events): none kept'];
  for (const e of sorted) {
    const meaning = meaningOf(e);
    const count = (e.count ?? 1) > 1 ? ` (x${e.count ?? 1})` : '';
    lines.push(
      `  ${eventTime(e)}  ${e.type ?? ''} ${e.reason ?? ''} on ${e.involvedObject.kind ?? ''}/${e.involvedObject.name ?? ''}${count}: ${e.message ?? ''}${meaning ? ` → ${meaning}` : ''}`,
    );
  }
  return lines;
}

/** One `  <label>:<padding><value>` line of a `why` report (values start in column 21). */
export function whyField(label: string, value: string): string {
  return `  ${`${label}:`.padEnd(18)}${value}`;
}

/** The whole `why` report, ending with a newline. */
export function whyReport(facts: PodFacts): string {
  const lines = [`Pod ${facts.namespace}/${facts.name}`];
  const field = (label: string, value: string) => lines.push(whyField(label, value));
  const pod = facts.pod;
  field('CloneSet', `${facts.cloneSetName}${facts.cloneSet ? '' : ' (gone)'}`);
  if (pod) {
    const labels = pod.metadata.labels ?? {};
    field(
      'created',
      `${pod.metadata.creationTimestamp ?? '?'}, instance id ${labels[LABEL_INSTANCE_ID] ?? '(none)'}`,
    );
    field('revision', revisionLine(pod, facts.cloneSet));
    field('lifecycle state', labels[LABEL_LIFECYCLE_STATE] ?? '(none: Normal)');
    const specified = labels[LABEL_SPECIFIED_DELETE];
    field('specified-delete', specified !== undefined ? `${specified}: the CloneSet deletes this pod` : 'no');
    const inPlace = inPlaceLine(pod);
    field('in-place update', inPlace ?? 'none recorded');
    if (pod.metadata.deletionTimestamp) field('deleting', `since ${pod.metadata.deletionTimestamp}`);
  } else {
    field('pod', 'gone: what is left is the state and the Events');
  }
  field('state', facts.stateNote);
  field('scale-down', ledgerLine(facts));
  field('expectations', expectationLine(facts.expectations, facts.name));
  lines.push(
    ...historyLines(facts.events, (e) =>
      e.involvedObject.kind === 'CloneSet' ? MEANING[e.reason ?? ''] : undefined,
    ),
  );
  return `${lines.join('\n')}\n`;
}
