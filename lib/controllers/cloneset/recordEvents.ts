/**
 * Recording the Events of a pass (docs/reliability.md#event-folding): once per invocation per
 * `type|reason|message`, then as the correlator decides (lib/kube/eventCorrelation.ts) — dropped by the spam
 * filter, written as is (folded into an identical Event), or counted into the aggregate Event of its type and
 * reason.
 */
import type { CloneSet } from '../../api/types.js';
import type { Clock } from '../../core/clock.js';
import { correlateEvent, emptyCorrelation, type EventCorrelationState } from '../../kube/eventCorrelation.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import { recordCloneSetEvent } from './write.js';

/** What recording needs: the CloneSet, the client, the time, and the invocation's memory of its Events. */
export interface EventRecording {
  kube: KubeClient;
  cloneSet: CloneSet;
  clock: Clock;
  /** `type|reason|message` of the Events this invocation recorded; absent: no de-duplication. */
  recordedEvents?: Set<string>;
  /** The invocation's correlation state, replaced after each Event; absent: a fresh state for this call. */
  eventCorrelation?: { state: EventCorrelationState };
}

/** Record `events` in order on `ctx.cloneSet`. Best effort, as {@link KubeClient.recordEvent}: never throws. */
export async function recordEvents(ctx: EventRecording, events: readonly KubeEvent[]): Promise<void> {
  const correlation = ctx.eventCorrelation ?? { state: emptyCorrelation() };
  for (const ev of events) {
    const key = `${ev.type}|${ev.reason}|${ev.message}`;
    if (ctx.recordedEvents?.has(key)) continue;
    ctx.recordedEvents?.add(key);
    const { decision, state } = correlateEvent(correlation.state, ev, ctx.clock());
    correlation.state = state;
    if (decision.action === 'record') await recordCloneSetEvent(ctx.kube, ctx.cloneSet, ev);
    else if (decision.action === 'aggregate')
      await recordCloneSetEvent(ctx.kube, ctx.cloneSet, decision.event, true);
  }
}
