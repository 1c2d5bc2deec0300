/** A reconcile-request publisher for unit tests that keeps what it was given. */
import type { EventPublisher, ReconcileRequest } from '../../../lib/requests/index.js';

/**
 * An {@link EventPublisher} that publishes nothing and records every request it is given, in order, in `published`
 * (one flat list over all calls); each call answers as one successful PutEvents call.
 */
export function recordingPublisher(): EventPublisher & { published: ReconcileRequest[] } {
  const published: ReconcileRequest[] = [];
  return {
    published,
    publish(requests) {
      published.push(...requests);
      return Promise.resolve({ published: requests.length, calls: 1, retried: 0 });
    },
  };
}
