/**
 * A failed step as the parity report shows it. An API refusal (client-node's `ApiException`: `code` and the body
 * the API server sent) is `HTTP <code>: <Status message>` — what a user sees from kubectl — so two equal refusals
 * compare equal; the exception's own message carries the response headers (audit id, date, flow-schema uid), which
 * differ on every call. Anything else is its message.
 */
import { errorMessage } from '../../lib/core/errors.js';

/** The report's text for an error thrown by a step (see the file comment). */
export function stepErrorText(e: unknown): string {
  const api = e as { code?: unknown; body?: unknown } | null;
  if (api && typeof api === 'object' && typeof api.code === 'number' && typeof api.body === 'string') {
    try {
      const status = JSON.parse(api.body) as { message?: unknown };
      if (typeof status.message === 'string') return `HTTP ${api.code}: ${status.message}`;
    } catch {
      // not a Status body: the message below
    }
  }
  return errorMessage(e);
}
