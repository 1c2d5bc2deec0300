/**
 * `npm run local` stopped by signalling npm (what a process manager or `kill <npm pid>` does): nothing of it may
 * stay running. Real processes: npm, the script, tsx and the CLI, in a process group of their own; the served
 * cluster is a kubeconfig nobody answers on (the watch pump fails its rounds and keeps going, as it would).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
users: [{name: u, user: {token: x}}]
`;

/** True while any process of group `pgid` exists. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run local', () => {
  it('stops entirely when npm gets SIGTERM', async () => {
    const kubeconfig = path.join(mkdtempSync(path.join(tmpdir(), 'kruiseless-stop-')), 'kubeconfig');
    writeFileSync(kubeconfig, KUBECONFIG);
    const npm = spawn('npm', ['run', '--silent', 'local', '--', '--kubeconfig', kubeconfig], {
      detached: true, // its own process group, so the whole tree can be seen (and cleaned up) by group id
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = npm.pid as number;
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      for (let i = 0; i < 120 && !out.includes('kruiseless local running'); i++) await sleep(500);
      expect(out).toContain('kruiseless local running');
      process.kill(pgid, 'SIGTERM'); // npm only, not the group
      for (let i = 0; i < 40 && groupAlive(pgid); i++) await sleep(250);
      expect(groupAlive(pgid)).toBe(false);
      expect(out).toContain('"message":"kruiseless local stopping"');
    } finally {
      if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    }
  }, 90_000);
});
