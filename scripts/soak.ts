/**
 * `npm run soak [-- --minutes N] [--seed S] [--clonesets K]`: issue 18's soak on emulated AWS with serverless.yml's
 * schedules (scripts/soak/run.ts; docs/reliability.md#soak). Prints a progress line every 30 s and ends with
 * `soak: <m> min, <edits> edits, reaction p50 <x> s p99 <y> s max <z> s, watch gap max <g> s, dlq <d>, converged <k>/<n>`;
 * exits 1 when anything reached the DLQ or a CloneSet did not converge (the p99 target, 5 s, is reported only).
 * Too long for CI; run it by hand.
 */
import { Command } from 'commander';
import { errorMessage } from '../lib/core/errors.js';
import { runSoak } from './soak/run.js';

// Node 20 is supported here until the pinned SDK needs 22 (README); its upgrade notice would drown the output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const opts = new Command('soak')
  .option('--minutes <n>', 'length of the edit phase', '30')
  .option('--seed <s>', 'seed of the edit plan (default: random, printed)')
  .option('--clonesets <k>', 'CloneSets edited, one per namespace', '4')
  .option('--min-delay-s <s>', 'shortest wait between two edits', '2')
  .option('--max-delay-s <s>', 'longest wait between two edits', '8')
  .option('--converge-s <s>', 'how long the CloneSets have to converge after the last edit', '120')
  .option('--quiet-s <s>', 'an edit is measured when its CloneSet saw no write for this long', '2')
  .option('--interval-scale <f>', 'schedule rules at this fraction of their rate (1: serverless.yml)', '1')
  .parse()
  .opts<Record<string, string | undefined>>();

const seed = opts.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(opts.seed);
try {
  const { exitCode } = await runSoak({
    minutes: Number(opts.minutes),
    seed,
    clonesets: Number(opts.clonesets),
    minDelayMs: Number(opts.minDelayS) * 1000,
    maxDelayMs: Number(opts.maxDelayS) * 1000,
    convergeSeconds: Number(opts.convergeS),
    quietMs: Number(opts.quietS) * 1000,
    intervalScale: Number(opts.intervalScale),
  });
  process.exitCode = exitCode;
} catch (e) {
  console.error(`error: ${errorMessage(e)}`);
  process.exitCode = 1;
}
