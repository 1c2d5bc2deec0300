/**
 * The FailedCreate Event message OpenKruise's `createOnePod` records (`failed to create pod: <err>, pod: <the pod as
 * JSON>`), matched on its error text and the pod's name; the rest of the pod dump is the planner's, tested elsewhere.
 */
import { expect } from '@jest/globals';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A matcher for `<prefix>failed to create pod: <apiMessage>, pod: {…"name":"<pod>"…}`.
 * @param prefix what comes before the message in the checked line (`event FailedCreate: ` in a journal)
 */
export function failedCreateMessage(apiMessage: string, pod: string, prefix = ''): unknown {
  return expect.stringMatching(
    new RegExp(
      `^${escapeRegExp(`${prefix}failed to create pod: ${apiMessage}, pod: {`)}.*"name":"${escapeRegExp(pod)}"`,
    ),
  );
}
