/**
 * `npm run kubectl-kruise:build [-- --version <tag>]` (run with tsx): builds OpenKruise's kubectl plugin into the
 * cache (see build.ts). Exit code 1 with the error message on failure. Records its outcome in
 * `<cache>/build-status/kubectl-kruise.json` (infra/reference/buildStatus.ts).
 */
import { Command } from 'commander';
import { withBuildStatus } from '../reference/buildStatus.js';
import { ensureKubectlKruise, kruiseToolsVersion } from './build.js';
import { errorMessage } from '../../lib/core/errors.js';

const program = new Command('kubectl-kruise').description(
  "OpenKruise's kubectl plugin, built from its Go module",
);
program
  .command('build')
  .description('download and build kubectl-kruise into the cache (no-op when built); records the outcome')
  .option('--version <v>', 'kruise-tools version (default: env KRUISELESS_KRUISE_TOOLS_VERSION or v1.2.2)')
  .action(async (o: { version?: string }) => {
    const version = o.version ?? kruiseToolsVersion();
    await withBuildStatus('kubectl-kruise', version, () => ensureKubectlKruise({ version }));
  });

program.parseAsync().catch((e: unknown) => {
  console.error(errorMessage(e));
  process.exit(1);
});
