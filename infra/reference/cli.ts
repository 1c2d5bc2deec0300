/**
 * `npm run reference:build | reference:up | reference:down | reference:status` (run with tsx): the OpenKruise
 * reference (see reference.ts). Exit code 1 with the error message on failure; `status` exits 1 when nothing runs.
 * `build` records its outcome in `<cache>/build-status/openkruise.json` (buildStatus.ts).
 */
import { Command } from 'commander';
import { ensureOpenKruise } from './build.js';
import { withBuildStatus } from './buildStatus.js';
import { referenceDown, referenceInfo, referenceUp, referenceUpIfCached } from './reference.js';
import { openKruisePaths, referenceStateDir, requestedVersion } from './settings.js';
import { errorMessage } from '../../lib/core/errors.js';

const program = new Command('reference').description('OpenKruise (the real kruise-manager) as a reference');
program
  .command('build')
  .description('download and build kruise-manager into the cache (no-op when built); records the outcome')
  .option('--version <v>', 'OpenKruise version (default: env KRUISELESS_OPENKRUISE_VERSION or v1.9.0)')
  .action(async (o: { version?: string }) => {
    const version = o.version ?? requestedVersion();
    const b = await withBuildStatus('openkruise', version, () => ensureOpenKruise({ version }));
    if (!b.built) console.log(`[reference] OpenKruise ${b.version} up to date: ${b.paths.manager}`);
  });
program
  .command('up')
  .description('build if needed, start the reference control plane and kruise-manager (reused when running)')
  .option('--version <v>', 'OpenKruise version (default: env KRUISELESS_OPENKRUISE_VERSION or v1.9.0)')
  .option('--feature-gates <gates>', 'kruise-manager --feature-gates (default: env KRUISELESS_FEATURE_GATES)')
  .option(
    '--kcm-controllers <list>',
    'extra kube-controller-manager controllers when the control plane starts (e.g. deployment-controller,replicaset-controller)',
  )
  .option(
    '--if-cached',
    'start only when nothing has to be built; else print "not built, skipping: <reason>", exit 0',
  )
  .option('--restart', 'restart kruise-manager even when the running one has this version and these gates')
  .action(
    async (o: {
      version?: string;
      featureGates?: string;
      kcmControllers?: string;
      ifCached?: boolean;
      restart?: boolean;
    }) => {
      const opts = {
        version: o.version,
        featureGates: o.featureGates,
        kcmControllers: o.kcmControllers,
        restart: o.restart,
      };
      if (o.ifCached) await referenceUpIfCached(opts);
      else await referenceUp(opts);
    },
  );
program
  .command('down')
  .description('delete the kruise-* webhooks, stop kruise-manager and the reference control plane')
  .option('--keep-cluster', "keep the control plane running and put Kruiseless's CloneSet CRD back")
  .action(async (o: { keepCluster?: boolean }) => {
    await referenceDown({ keepCluster: o.keepCluster === true });
  });
program
  .command('status')
  .description('print the running reference (JSON), exit 1 when none')
  .action(async () => {
    const info = await referenceInfo();
    if (info) console.log(JSON.stringify(info, null, 2));
    else {
      console.log(
        `not running (state folder ${referenceStateDir()}, cache ${openKruisePaths(requestedVersion()).dir})`,
      );
    }
    process.exitCode = info ? 0 : 1;
  });

program.parseAsync().catch((e: unknown) => {
  console.error(errorMessage(e));
  process.exit(1);
});
