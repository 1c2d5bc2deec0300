/**
 * Recording the Events of a CloneSet pass: the kind-neutral recorder (lib/reconcile/pods/recordEvents.ts: once per
 * invocation per `type|reason|message`, then as the correlator decides) on the CloneSet.
 */
import type { CloneSet } from '../../api/types.js';
import type { Clock } from '../../core/clock.js';
import type { EventCorrelationState } from '../../kube/eventCorrelation.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import { recordObjectEvents } from '../../reconcile/pods/recordEvents.js';
import { CLONESET_RESOURCE } from './api/resource.js';

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
export function recordEvents(ctx: EventRecording, events: readonly KubeEvent[]): Promise<void> {
  return recordObjectEvents({ ...ctx, resource: CLONESET_RESOURCE, object: ctx.cloneSet }, events);
}
