/**
 * The `kruiseless` command line: `kruiseless local` runs the embedded default until interrupted; `kruiseless demo`
 * runs the seed story (`npm run demo`).
 */
import path from 'node:path';
import { Command } from 'commander';
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import { clusterUp } from '../../infra/local/cluster.js';
import { runDemo } from './demo.js';
import { startEmbedded } from './embedded.js';

const program = new Command('kruiseless').description('OpenKruise CloneSet without an in-cluster controller');

program
  .command('local')
  .description('run the watch pump and reconcilers in-process (dynalite + in-process bus) against a cluster')
  .option(
    '--kubeconfig <file>',
    'kubeconfig of the cluster to serve (default: the local control plane, started if needed)',
  )
  .option('--cluster-name <name>', 'cluster name used in keys and logs', 'local')
  .option('--log-level <level>', 'DEBUG | INFO | WARN | ERROR', 'INFO')
  .action(async (opts: { kubeconfig?: string; clusterName: string; logLevel: string }) => {
    const kubeconfig = opts.kubeconfig ? path.resolve(opts.kubeconfig) : (await clusterUp()).info.kubeconfig;
    const logger = new Logger({ serviceName: 'kruiseless', logLevel: opts.logLevel as LogLevel });
    const embedded = await startEmbedded({ kubeconfig, clusterName: opts.clusterName, logger });
    logger.info('kruiseless local running; Ctrl-C to stop', { kubeconfig, cluster: opts.clusterName });
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await embedded.stop();
  });

program
  .command('demo')
  .description(
    "the seed CloneSet's story on the local control plane; exit code 0 only if every step happened",
  )
  .action(async () => {
    process.exitCode = (await runDemo()) ? 0 : 1;
  });

await program.parseAsync(process.argv);
