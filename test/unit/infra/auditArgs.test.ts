/**
 * The local control plane's opt-in audit log (infra/local/cluster.ts `auditArgs`): no flags unless
 * KRUISELESS_AUDIT_LOG asks for them, so a normal start is unchanged; with `1` a Metadata policy, with `bodies` pod
 * writes at level Request too. Upstream: kube-apiserver's `--audit-policy-file` and `--audit-log-*` flags.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { auditArgs, auditLogFile, auditPolicy } from '../../../infra/local/cluster.js';

let saved: string | undefined;
let dir: string;
beforeEach(() => {
  saved = process.env.KRUISELESS_STATE_DIR;
  dir = mkdtempSync(path.join(os.tmpdir(), 'audit-args-'));
  process.env.KRUISELESS_STATE_DIR = dir;
});
afterEach(() => {
  if (saved === undefined) delete process.env.KRUISELESS_STATE_DIR;
  else process.env.KRUISELESS_STATE_DIR = saved;
});

describe('auditArgs', () => {
  it.each([[undefined], [''], ['0'], ['true']])('KRUISELESS_AUDIT_LOG=%s: no flags', (value) => {
    expect(auditArgs(value === undefined ? {} : { KRUISELESS_AUDIT_LOG: value })).toEqual([]);
  });

  it('1: the Metadata policy in run/, the log in logs/, JSON, blocking, not rotated away', () => {
    const policy = path.join(dir, 'run', 'audit-policy.yaml');
    expect(auditArgs({ KRUISELESS_AUDIT_LOG: '1' })).toEqual([
      `--audit-policy-file=${policy}`,
      `--audit-log-path=${path.join(dir, 'logs', 'audit.log')}`,
      '--audit-log-format=json',
      '--audit-log-mode=blocking',
      '--audit-log-maxsize=1000',
      '--audit-log-maxbackup=0',
    ]);
    expect(auditLogFile()).toBe(path.join(dir, 'logs', 'audit.log'));
    expect(readFileSync(policy, 'utf8')).toBe(auditPolicy(false));
    expect(auditPolicy(false)).not.toContain('level: Request');
  });

  it('bodies: pod writes at level Request before the catch-all Metadata rule', () => {
    auditArgs({ KRUISELESS_AUDIT_LOG: 'bodies' });
    const text = readFileSync(path.join(dir, 'run', 'audit-policy.yaml'), 'utf8');
    expect(text).toBe(auditPolicy(true));
    expect(text.indexOf('level: Request')).toBeGreaterThan(text.indexOf("nonResourceURLs: ['*']"));
    expect(text.trimEnd().endsWith('- level: Metadata')).toBe(true);
  });
});
