/**
 * Scenario 5, Lambda packaging: each function's zip from `osls package` (`.serverless/<fn>.zip`, written by
 * `npm run package:check`), and the time to import its bundle (module init) in a fresh Node process, as a ratio to a
 * bare handler module imported the same way. First invocations are not timed here: every handler's first call
 * reaches AWS (DynamoDB, EventBridge) before it returns, which a local run cannot do.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, ratio } from '../support/stats.js';

/** One function's figures. */
export interface BundleResult {
  fn: string;
  zipBytes: number;
  /** Median module init (dynamic import) of the bundle, ms. */
  initMs: number;
  /** initMs ÷ the bare handler's. */
  initRatio: number;
}

/**
 * The zips that `npm run package:check` has not written yet under `serverlessDir` (a fresh clone has none).
 * @returns the function names of FUNCTIONS without a `<fn>.zip`
 */
export function missingZips(serverlessDir: string): string[] {
  return FUNCTIONS.filter((fn) => !existsSync(path.join(serverlessDir, `${fn}.zip`)));
}

/** The functions of serverless.yml. */
export const FUNCTIONS = ['watch', 'resync', 'admission', 'reconcile'] as const;

const ENV = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'kruiseless-bench',
  EVENT_BUS_NAME: 'kruiseless-bench',
  EVENT_BUS_ARN: 'arn:aws:events:us-east-1:000000000000:event-bus/kruiseless-bench',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/scheduler',
  SCHEDULER_GROUP_NAME: 'kruiseless-bench-requeue',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** Import `file` in a fresh Node process `times` times; median of the import's duration, ms. */
function importMs(dir: string, file: string, times: number): number {
  const script = `const t0 = performance.now(); await import('./${file}'); console.log(performance.now() - t0);`;
  const runs: number[] = [];
  for (let i = 0; i < times; i++) {
    const out = execFileSync('node', ['--input-type=module', '-e', script], {
      cwd: dir,
      env: ENV,
      encoding: 'utf8',
    });
    runs.push(Number(out.trim().split('\n').pop()));
  }
  return median(runs);
}

/**
 * Measure every function whose zip exists under `serverlessDir`.
 * @returns the bare handler's init, one entry per zip found, and the functions whose zip is not there
 */
export function runPackaging(
  serverlessDir: string,
  times = 5,
): { bareInitMs: number; bundles: BundleResult[]; missing: string[] } {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'kruiseless-bench-'));
  try {
    writeFileSync(path.join(tmp, 'bare.mjs'), 'export const handler = async () => ({});\n');
    const bareInitMs = importMs(tmp, 'bare.mjs', times);
    const bundles: BundleResult[] = [];
    const missing: string[] = [];
    for (const fn of FUNCTIONS) {
      const zip = path.join(serverlessDir, `${fn}.zip`);
      if (!existsSync(zip)) {
        missing.push(fn);
        continue;
      }
      const dir = path.join(tmp, fn);
      execFileSync('python3', ['-m', 'zipfile', '-e', zip, dir]);
      const initMs = importMs(dir, `functions/${fn}.mjs`, times);
      bundles.push({
        fn,
        zipBytes: statSync(zip).size,
        initMs: Math.round(initMs * 10) / 10,
        initRatio: ratio(initMs, bareInitMs),
      });
    }
    return { bareInitMs: Math.round(bareInitMs * 100) / 100, bundles, missing };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
