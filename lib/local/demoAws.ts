/**
 * `npm run demo:aws`: the seed's story (seedStory.ts) run by the packaged `watch` and `reconcile` zips on
 * emulated AWS (lib/emulator/aws/emulatedAws.ts) against the local control plane. Ends with one line a script can read:
 * `demo:aws: 6/6 steps passed in <s> s; invocations reconcile=<n> watch=<m>; dlq=<k>` (or `FAILED`).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { startAwsSession } from './awsSession.js';
import { runSeedStory, SEED_REVISIONS, sleep } from './seedStory.js';

const NAMESPACE = 'kruiseless-demo-aws';

/** Options of {@link runAwsDemo}. */
export interface AwsDemoOptions {
  /** Schedule rules run at this fraction of their rate (default 0.25: the watch every 15 s). */
  intervalScale?: number;
}

/**
 * Run the demo.
 * @returns true when every step passed, the revisions are the expected ones and nothing reached the DLQ
 */
export async function runAwsDemo(opts: AwsDemoOptions = {}): Promise<boolean> {
  const t0 = Date.now();
  const intervalScale = opts.intervalScale ?? 0.25;
  const say = (l: string) => console.log(`    ${l}`);
  console.log(
    'Kruiseless demo on emulated AWS: the packaged zips, the packaged template, moto, the local control plane\n',
  );
  const { info, aws, close } = await startAwsSession({
    intervalScale,
    say,
    heading: (line) => console.log(line),
  });
  try {
    const kc = new KubeConfig();
    kc.loadFromFile(info.kubeconfig);
    const story = await runSeedStory(kc, info.kubeconfig, NAMESPACE, 1, 4);
    const revisionsOk = story.revisions.join() === SEED_REVISIONS.join();
    console.log(`    ${revisionsOk ? '✔' : '✘'} revisions ${story.revisions.join(' → ')}${revisionsOk ? '' : ` (expected ${SEED_REVISIONS.join(' → ')})`}`); // prettier-ignore
    await sleep(2000); // reconciles still running after the last step (status-only passes) finish or retry
    const dlq = await aws.deadLetters();
    const count = (id: string) => aws.functions.get(id)?.stats.invocations ?? 0;
    for (const f of aws.failures) say(`failed attempt: ${f.fn}: ${f.error}`);
    say(`API requests through the EKS endpoint: ${[...aws.proxy.requests].map(([u, n]) => `${u.split('/')[1]} ${n}`).join(', ')}; tokens refused ${aws.proxy.refused()}`); // prettier-ignore
    const ok = story.ok && revisionsOk && dlq === 0;
    const passed = story.steps.filter((s) => s.ok).length;
    console.log(
      `\ndemo:aws: ${passed}/${story.steps.length} steps ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s; ` +
        `invocations reconcile=${count('ReconcileLambdaFunction')} watch=${count('WatchLambdaFunction')}; dlq=${dlq}`,
    );
    return ok;
  } finally {
    await close();
  }
}
