/**
 * Recording the Events of a pass on the reconciled object, for any kind (docs/reliability.md#event-folding): once
 * per invocation per `type|reason|message`, then as the correlator decides (lib/kube/eventCorrelation.ts) — dropped
 * by the spam filter, written as is (folded into an identical Event), or counted into the aggregate Event of its
 * type and reason; a repeat of an Event written before is one PATCH of the count the state remembers
 * (lib/kube/eventFolding.ts). As client-go's `EventRecorder` behind every OpenKruise controller's `recorder.Event`.
 */
import type { Clock } from '../../core/clock.js';
import {
  correlateEvent,
  correlationMemory,
  emptyCorrelation,
  type EventCorrelationState,
} from '../../kube/eventCorrelation.js';
import type { KubeClient, KubeEvent, KubeObject, Resource } from '../../kube/types.js';

/** What recording needs: the object and its resource, the client, the time, and the invocation's memory. */
export interface ObjectEventRecording<T extends KubeObject = KubeObject> {
  kube: Pick<KubeClient, 'recordEvent'>;
  resource: Resource<T>;
  /** The involved object (the workload). */
  object: T;
  clock: Clock;
  /** `type|reason|message` of the Events this invocation recorded; absent: no de-duplication. */
  recordedEvents?: Set<string>;
  /** The invocation's correlation state, replaced after each Event; absent: a fresh state for this call. */
  eventCorrelation?: { state: EventCorrelationState };
}

/**
 * Record `events` in order on `ctx.object`. Best effort, as {@link KubeClient.recordEvent}: never throws.
 */
export async function recordObjectEvents<T extends KubeObject>(
  ctx: ObjectEventRecording<T>,
  events: readonly KubeEvent[],
): Promise<void> {
  const correlation = ctx.eventCorrelation ?? { state: emptyCorrelation() };
  // the Events written before, kept in the same state: a repeat is one PATCH of the known count
  const memory = correlationMemory(correlation);
  for (const ev of events) {
    const key = `${ev.type}|${ev.reason}|${ev.message}`;
    if (ctx.recordedEvents?.has(key)) continue;
    ctx.recordedEvents?.add(key);
    const { decision, state } = correlateEvent(correlation.state, ev, ctx.clock());
    correlation.state = state;
    if (decision.action === 'record') await ctx.kube.recordEvent(ctx.resource, ctx.object, ev, { memory });
    else if (decision.action === 'aggregate')
      await ctx.kube.recordEvent(ctx.resource, ctx.object, decision.event, { aggregate: true, memory });
  }
}
