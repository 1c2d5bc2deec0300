/**
 * OpenKruise's side for the benches that set up their own Kruiseless side (bench/webhook.ts, bench/reactionAws.ts):
 * the reference control plane that runs already (`npm run reference:up`, e.g. left by a parity run) when its API
 * server answers, else one started here and stopped again by {@link BenchReference.stop}.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../lib/core/errors.js';
import { referenceInfoFile, runCommand } from '../../test/parity/sides.js';
import { benchCluster, type BenchCluster } from './kube.js';

/** The reference a bench uses. */
export interface BenchReference {
  cluster: BenchCluster;
  /** Stops the reference when this bench started it (`reference:down`); a failure is printed, not thrown. */
  stop(): Promise<void>;
}

/** True when the API server of `kubeconfig` answers /readyz. */
async function reachable(kubeconfig: string): Promise<boolean> {
  try {
    await benchCluster('probe', kubeconfig).request('GET', '/readyz');
    return true;
  } catch {
    return false;
  }
}

/**
 * The running reference, or one started by `npm run reference:up` (built once) when none answers.
 * @param logDir where `reference-up.log` and `reference-down.log` go
 * @param label the bench's name in a printed stop failure, e.g. `bench:webhook`
 * @throws Error from `reference:up` (its log named), or when its `reference.json` cannot be read after it
 */
export async function reuseOrStartReference(logDir: string, label: string): Promise<BenchReference> {
  const kubeconfig = () =>
    (JSON.parse(readFileSync(referenceInfoFile(), 'utf8')) as { kubeconfig: string }).kubeconfig;
  let up: boolean;
  try {
    up = await reachable(kubeconfig());
  } catch {
    up = false; // no reference.json yet: none ever ran
  }
  if (!up) await runCommand(['infra/reference/cli.ts', 'up'], {}, path.join(logDir, 'reference-up.log'));
  const started = !up;
  return {
    cluster: benchCluster('openkruise', kubeconfig()),
    stop: async () => {
      if (!started) return;
      await runCommand(['infra/reference/cli.ts', 'down'], {}, path.join(logDir, 'reference-down.log')).catch(
        (e: unknown) => console.error(`[${label}] reference down: ${errorMessage(e)}`),
      );
    },
  };
}
