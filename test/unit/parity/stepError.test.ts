/**
 * test/parity/stepError.ts: two equal API refusals read the same in the report (the exception's message carries
 * per-call headers), other errors keep their message.
 */
import { describe, expect, it } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { stepErrorText } from '../../../test/parity/stepError.js';

const status = (message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, code: 422 });

describe('stepErrorText', () => {
  it('reads an API refusal as its code and Status message, whatever the headers', () => {
    const message =
      'admission webhook "vadvancedcronjob.kb.io" denied the request: spec.schedule: Invalid value';
    const a = new ApiException(422, 'Unknown API Status Code!', status(message), { 'audit-id': 'a-1' });
    const b = new ApiException(422, 'Unknown API Status Code!', status(message), { 'audit-id': 'b-2' });
    expect(a.message).not.toBe(b.message);
    expect(stepErrorText(a)).toBe(`HTTP 422: ${message}`);
    expect(stepErrorText(b)).toBe(stepErrorText(a));
  });

  it('keeps the message of a body that is not a Status, and of any other error', () => {
    const odd = new ApiException(502, 'Bad Gateway', '<html>', {});
    expect(stepErrorText(odd)).toBe(odd.message);
    expect(stepErrorText(new Error('timed out waiting for pods'))).toBe('timed out waiting for pods');
  });
});
