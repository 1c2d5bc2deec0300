/**
 * `npm run cluster:up | cluster:down | cluster:status | cluster:build` (run with tsx), and `test-setup`
 * for test/integration/globalSetup.ts.
 * Exit code 1 with the error message (which names the failed component and its log tail) on failure.
 */
import { Command } from 'commander';
import { ensureBinaries } from './build.js';
import { clusterDown, clusterUp, runningCluster } from './cluster.js';
import { provideTestCluster } from './testcluster.js';
import { binDir } from './versions.js';
import { errorMessage } from '../../lib/core/errors.js';

/** Prefix of the one stdout line `test-setup` prints (parsed by test/integration/support/cli.ts). */
const RESULT_PREFIX = 'KRUISELESS_TEST_CLUSTER ';

const program = new Command('cluster').description('Kruiseless local Kubernetes control plane');
program
  .command('up')
  .description(
    'build if needed, then start etcd, kube-apiserver, kcm, the volume provisioner, scheduler and kwok (no-op when running)',
  )
  .action(async () => {
    await clusterUp();
  });
program
  .command('down')
  .description('stop the processes cluster:up started')
  .action(async () => {
    await clusterDown();
  });
program
  .command('status')
  .description('print the running cluster, exit 1 when none')
  .action(async () => {
    const info = await runningCluster();
    console.log(info ? JSON.stringify(info, null, 2) : 'not running');
    process.exitCode = info ? 0 : 1;
  });
program
  .command('build')
  .description(`build the binaries into the cache folder (${binDir()})`)
  .action(async () => {
    await ensureBinaries();
  });

program
  .command('test-setup')
  .description('for jest globalSetup: provide a cluster, print its kubeconfig as one JSON line on stdout')
  .action(async () => {
    const info = await provideTestCluster((line) => void process.stderr.write(`${line}\n`));
    process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(info)}\n`);
  });

program.parseAsync().catch((e: unknown) => {
  console.error(errorMessage(e));
  process.exit(1);
});
