/**
 * `npm run capacity [-- --count-only] [--replicas N] [--api-write-ms MS]`: the counted capacity model (docs/reliability.md#dynamodb-capacity)
 * on dynalite in-process: a CloneSet of N pods (default 1,000) scaled up, rolled out in place, rolled out by
 * recreation and scaled down to zero through the real reconciler and DynamoDB adapter, every request charged as AWS
 * charges it. Prints one line per phase (WCU total and peak per second per item and partition, RCU, largest item,
 * throttles, writes per item) and exits 0 only if nothing was throttled. `--count-only` admits requests over the
 * limits and counts them instead of refusing them (how the figures before the redesign were taken);
 * `--api-write-ms` gives API-server writes a simulated duration (default 0, an instant API server).
 */
import { Command } from 'commander';
import { startDynalite } from '../lib/emulator/dynalite.js';
import { ensureTable } from '../lib/state/index.js';
import { formatFigures, runCapacityModel } from '../test/integration/state/capacityModel.js';

const opts = new Command()
  .option('--count-only', 'count requests over the limits instead of refusing them')
  .option('--replicas <n>', 'pods of the CloneSet', '1000')
  .option('--api-write-ms <ms>', 'simulated duration of an API-server write (default 0: instant)', '0')
  .parse()
  .opts<{ countOnly?: boolean; replicas: string; apiWriteMs: string }>();

const local = await startDynalite();
try {
  const raw = local.client({ region: 'us-east-1', maxAttempts: 1 });
  await ensureTable(raw, 'capacity');
  const figures = await runCapacityModel({
    client: () => local.client({ region: 'us-east-1', maxAttempts: 3 }),
    raw,
    tableName: 'capacity',
    enforce: !opts.countOnly,
    replicas: Number(opts.replicas),
    apiWriteLatencyMs: Number(opts.apiWriteMs),
    onPhase: (f) => console.error(`done: ${formatFigures([f])}`),
  });
  console.log(formatFigures(figures));
  const throttled = figures.reduce((s, f) => s + f.stats.throttled.read + f.stats.throttled.write, 0);
  process.exitCode = throttled === 0 ? 0 : 1;
} finally {
  await local.close();
}
