/**
 * The packaged artifacts (lib/emulator/aws/artifacts.ts): two callers at once — the emulated-AWS test files run two
 * at a time — package once, the second finding the zips fresh; fresh zips are reused. `osls` is a stand-in script
 * here that writes the template and one zip and counts its runs.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { ensureArtifacts, TEMPLATE_FILE } from '../../../lib/emulator/aws/artifacts.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A repository root with a source file, and an `osls` that takes 300 ms and appends a line to `runs` per run. */
function fakeRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'kruiseless-artifacts-'));
  roots.push(root);
  mkdirSync(path.join(root, 'functions'));
  writeFileSync(path.join(root, 'functions', 'watch.ts'), 'export {};\n');
  const bin = path.join(root, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, 'osls'),
    [
      '#!/usr/bin/env bash',
      'echo run >> runs',
      'sleep 0.3',
      'mkdir -p .serverless',
      `echo '{}' > .serverless/${TEMPLATE_FILE}`,
      'echo zip > .serverless/watch.zip',
      '',
    ].join('\n'),
  );
  chmodSync(path.join(bin, 'osls'), 0o755);
  return root;
}

const runs = (root: string) => readFileSync(path.join(root, 'runs'), 'utf8').trim().split('\n').length;

describe('ensureArtifacts', () => {
  it('packages once for two callers at once; the second reuses what the first built', async () => {
    const root = fakeRoot();
    const lines: string[] = [];
    const dirs = await Promise.all([
      ensureArtifacts(root, (l) => lines.push(`a ${l}`)),
      ensureArtifacts(root, (l) => lines.push(`b ${l}`)),
    ]);
    expect(dirs).toEqual([path.join(root, '.serverless'), path.join(root, '.serverless')]);
    expect(runs(root)).toBe(1);
    expect(lines.filter((l) => l.includes('reusing the packaged zips'))).toHaveLength(1);
    // and later, while nothing changed: reused
    await ensureArtifacts(root, () => undefined);
    expect(runs(root)).toBe(1);
  });
});
