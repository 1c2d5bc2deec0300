import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { missingZips } from '../../../bench/scenarios/packaging.js';

describe('packaging: which zips are missing', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'kruiseless-packaging-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a fresh clone (no .serverless zips) misses every function', () => {
    expect(missingZips(path.join(dir, 'absent'))).toEqual(['watch', 'resync', 'admission', 'reconcile']);
  });
  test('only the functions without a zip are listed', () => {
    writeFileSync(path.join(dir, 'watch.zip'), '');
    writeFileSync(path.join(dir, 'reconcile.zip'), '');
    expect(missingZips(dir)).toEqual(['resync', 'admission']);
  });
});
