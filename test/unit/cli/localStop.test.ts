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
  it.each([
    ['SIGTERM', 'SIGTERM'], // passed on by npm to the CLI, its direct child
    ['SIGKILL', 'parent exited'], // npm cannot pass anything on: the CLI notices it was re-parented
  ] as const)(
    'stops entirely, logging why, when npm gets %s',
    async (signal, why) => {
      const kubeconfig = path.join(mkdtempSync(path.join(tmpdir(), 'kruiseless-stop-')), 'kubeconfig');
      writeFileSync(kubeconfig, KUBECONFIG);
      const npm = spawn('npm', ['run', '--silent', 'local', '--', '--kubeconfig', kubeconfig], {
        detached: true, // its own process group, so the whole tree can be seen (and cleaned up) by group id
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const pgid = npm.pid as number;
      let out = '';
      npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
      // end of output: every process holding the pipe has exited and everything written has been read
      const ended = new Promise((resolve) => npm.stdout.once('end', resolve));
      try {
        for (let i = 0; i < 120 && !out.includes('kruiseless local running'); i++) await sleep(500);
        expect(out).toContain('kruiseless local running');
        process.kill(pgid, signal); // npm only, not the group
        for (let i = 0; i < 40 && groupAlive(pgid); i++) await sleep(250);
        expect(groupAlive(pgid)).toBe(false);
        await ended;
        expect(out).toMatch(new RegExp(`"message":"kruiseless local stopping".*"why":"${why}"`));
      } finally {
        if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
      }
    },
    90_000,
  );
});
