/**
 * `npm run demo`: the seed's story end to end on the local control plane, through the same pipeline as in AWS
 * (watch pump → bus → reconcile handler → DynamoDB state → API server). Prints a live progress line and a
 * `kubectl get clone` table at each step (lib/local/seedStory.ts); returns whether every step happened.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import { clusterUp } from '../../infra/local/cluster.js';
import { CLONESET_KIND } from '../controllers/cloneset/api/kinds.js';
import { EVENT_VERSION } from '../requests/index.js';
import { difference, snapshot, total } from '../runtime/counting.js';
import { startEmbedded, type Embedded } from './embedded.js';
import { runSeedStory, sleep } from './seedStory.js';

const NAMESPACE = 'kruiseless-demo';
const NAME = 'cs-no-pvc-sample';

/**
 * Run the demo.
 * @returns true when every step happened
 */
export async function runDemo(): Promise<boolean> {
  const t0 = Date.now();
  console.log(
    'Kruiseless demo: the seed CloneSet through watch pump → bus → reconcile → DynamoDB → API server\n',
  );
  console.log('1. local control plane');
  const { info } = await clusterUp((l) => console.log(`    ${l}`));
  const kc = new KubeConfig();
  kc.loadFromFile(info.kubeconfig);

  console.log('2. kruiseless local (embedded default: dynalite + in-process bus + the Lambda handlers)');
  const embedded: Embedded = await startEmbedded({
    kubeconfig: info.kubeconfig,
    logger: new Logger({
      serviceName: 'kruiseless',
      logLevel: (process.env.KRUISELESS_LOG_LEVEL ?? 'SILENT') as LogLevel,
    }),
  });
  try {
    const story = await runSeedStory(kc, info.kubeconfig, NAMESPACE);
    const steps = story.steps;
    if (story.revisions.length === 0) return false;

    await embedded.drain();
    await sleep(1500);
    await embedded.drain();
    const c0 = snapshot(embedded.counts);
    await embedded.bus.publish([
      {
        version: EVENT_VERSION,
        cluster: 'local',
        kind: CLONESET_KIND,
        namespace: NAMESPACE,
        name: NAME,
        reason: 'Resync',
      },
    ]);
    await embedded.drain();
    const noop = difference(c0, embedded.counts);
    console.log(
      `\n5. one no-op reconcile: ${total(noop.kube)} API calls ${JSON.stringify(noop.kube)}, ` +
        `${total(noop.dynamo)} DynamoDB operations ${JSON.stringify(noop.dynamo)}`,
    );
    const ok = steps.every((s) => s.ok);
    console.log(
      `\n${ok ? 'demo passed' : 'demo FAILED'}: ${steps.filter((s) => s.ok).length}/${steps.length} steps in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    console.log(
      '(the control plane keeps running: `npm run kubectl -- get clone -A`, `npm run cluster:down`)',
    );
    console.log(
      `(the CloneSet stays in namespace ${NAMESPACE}: \`npm run kruiseless -- plan ${NAME} -n ${NAMESPACE} --kubeconfig ${info.kubeconfig}\`, then \`why <pod>\` or \`rollout status ${NAME}\` with the same flags)`,
    );
    return ok;
  } finally {
    await embedded.stop();
  }
}
