/**
 * `npm run demo:aws [-- --interval-scale <f>]`: runs lib/emulator/aws/demo.ts; exit code 0 when it passed.
 */
import { Command } from 'commander';
import { runAwsDemo } from './demo.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const program = new Command('demo:aws')
  .description(
    'the seed story through the packaged watch and reconcile zips on moto and the local control plane',
  )
  .option('--interval-scale <f>', 'run the schedule rules at this fraction of their rate', '0.25')
  .action(async (opts: { intervalScale: string }) => {
    process.exitCode = (await runAwsDemo({ intervalScale: Number(opts.intervalScale) })) ? 0 : 1;
  });
await program.parseAsync();
