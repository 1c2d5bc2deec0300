/**
 * infra/local/cluster.ts `kwokStagesStale`: a running control plane's kwok read its stages at start, so `clusterUp`
 * restarts it when the digest recorded in `run/cluster.json` is not this checkout's (an e2e run against a control
 * plane left by an earlier checkout emulated that checkout's stages). The restart itself runs in
 * test/integration/local/clusterUpCrds.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { kwokStagesDigest, kwokStagesStale } from '../../../infra/local/cluster.js';

function stagesFile(text: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'kwok-stages-')), 'kwok-stages.yaml');
  writeFileSync(file, text);
  return file;
}

describe('kwokStagesStale', () => {
  it("is false when the recorded digest is the file's", () => {
    const file = stagesFile('kind: Stage\n');
    expect(kwokStagesDigest(file)).toMatch(/^[0-9a-f]{64}$/);
    expect(kwokStagesStale({ kwokStages: kwokStagesDigest(file) }, file)).toBe(false);
  });

  it('is true when the file changed since, or nothing was recorded (a cluster started before the record)', () => {
    const old = stagesFile('kind: Stage\n');
    const changed = stagesFile('kind: Stage\n# one more stage\n');
    expect(kwokStagesStale({ kwokStages: kwokStagesDigest(old) }, changed)).toBe(true);
    expect(kwokStagesStale({}, changed)).toBe(true);
  });

  it("digests this checkout's stages by default", () => {
    expect(kwokStagesDigest()).toBe(kwokStagesDigest(path.join('infra', 'local', 'kwok-stages.yaml')));
  });
});
