/** errorMessage: one way to turn a caught value into the text a log line or a wrapping error shows. */
import { describe, expect, it } from '@jest/globals';
import vm from 'node:vm';
import { errorMessage, KruiselessError } from '../../../lib/core/errors.js';

describe('errorMessage', () => {
  it("is an Error's message, of any subclass", () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage(new KruiselessError('fenced'))).toBe('fenced');
  });

  it('reads the message of an error from another realm, which is not instanceof Error', () => {
    const foreign: unknown = vm.runInNewContext('new Error("from a sandbox")');
    expect(foreign instanceof Error).toBe(false);
    expect(errorMessage(foreign)).toBe('from a sandbox');
  });

  it('is String(e) for anything else: a thrown string, a number, an object without a string message', () => {
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage({ message: 7 })).toBe('[object Object]');
  });
});
