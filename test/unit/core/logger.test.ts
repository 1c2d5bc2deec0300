/** withKeys: each reconcile's own keys on every line, the shared logger untouched. */
import { describe, expect, it } from '@jest/globals';
import { withKeys, type Logger } from '../../../lib/core/logger.js';

/** A Logger port that keeps what it is given (level, message, extra objects merged left to right). */
function keeping(): Logger & { lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const at =
    (level: string) =>
    (message: string, ...extra: Record<string, unknown>[]) =>
      void lines.push(extra.reduce((line, e) => ({ ...line, ...e }), { level, message }));
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('withKeys', () => {
  it('two loggers over one base each put their own keys on every level; call keys win', () => {
    const base = keeping();
    const a = withKeys(base, { cloneSet: 'c/ns/a', correlation_id: '1' });
    const b = withKeys(base, { cloneSet: 'c/ns/b', correlation_id: '2' });
    a.debug('x');
    b.info('y', { n: 1 });
    a.warn('z', { cloneSet: 'c/ns/own' });
    b.error('w');
    base.info('shared');
    expect(base.lines).toEqual([
      { level: 'debug', message: 'x', cloneSet: 'c/ns/a', correlation_id: '1' },
      { level: 'info', message: 'y', cloneSet: 'c/ns/b', correlation_id: '2', n: 1 },
      { level: 'warn', message: 'z', cloneSet: 'c/ns/own', correlation_id: '1' },
      { level: 'error', message: 'w', cloneSet: 'c/ns/b', correlation_id: '2' },
      { level: 'info', message: 'shared' },
    ]);
  });
});
