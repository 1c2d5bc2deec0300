/**
 * The cluster for the integration tests (used by test/integration/globalSetup.ts through `cli.ts test-setup`,
 * because jest's global setup cannot load this TypeScript module graph itself):
 * - `KUBECONFIG` set and reachable: that cluster, with the CRDs of infra/crds and the namespaces of
 *   infra/namespaces.yaml applied;
 * - otherwise `clusterUp()` (builds first when needed; reuses a cluster from `npm run cluster:up`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiextensionsV1Api, KubeConfig, VersionApi } from '@kubernetes/client-node';
import { applyServerSide, parseManifests } from '../../lib/kube/apply.js';
import type { Log } from './build.js';
import { clusterUp } from './cluster.js';
import { CRD_DIR, REPO_ROOT } from './versions.js';

/** What the tests get: the kubeconfig to use, and whether this call started the control plane. */
export interface TestClusterInfo {
  kubeconfig: string;
  started: boolean;
}

/** Provides the integration-test cluster (see module doc). @throws Error from clusterUp or the API server */
export async function provideTestCluster(log: Log): Promise<TestClusterInfo> {
  const given = process.env.KUBECONFIG;
  if (given && (await reachable(given))) {
    log(`[integration] using the cluster of KUBECONFIG=${given}`);
    await installCrds(given);
    await applyServerSide(
      load(given),
      parseManifests(
        fs.readFileSync(path.join(REPO_ROOT, 'infra', 'namespaces.yaml'), 'utf8'),
        'infra/namespaces.yaml',
      ),
      'kruiseless-test-setup',
    );
    return { kubeconfig: given, started: false };
  }
  log(
    given
      ? `[integration] KUBECONFIG=${given} is not reachable; using the local control plane`
      : '[integration] using the local control plane (as `npm run cluster:up`)',
  );
  const { info, started } = await clusterUp(log);
  return { kubeconfig: info.kubeconfig, started };
}

function load(file: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
}

/** True when the cluster of `kubeconfigFile` answers GET /version within 5 s. */
export async function reachable(kubeconfigFile: string): Promise<boolean> {
  try {
    const api = load(kubeconfigFile).makeApiClient(VersionApi);
    await Promise.race([
      api.getCode(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 5000).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Server-side applies every CRD in infra/crds (as `kruiseless install` does, through client-node's typed models so
 * that keys such as `x-kubernetes-int-or-string` reach the API server) and waits until each is Established (60 s).
 * @throws ManifestError for a CRD file that does not parse; ApiException from the API server; Error when a CRD is not
 *   Established in time
 */
export async function installCrds(kubeconfigFile: string): Promise<void> {
  const kc = load(kubeconfigFile);
  const api = kc.makeApiClient(ApiextensionsV1Api);
  for (const f of fs.readdirSync(CRD_DIR).filter((n) => n.endsWith('.yaml'))) {
    const crds = parseManifests(fs.readFileSync(path.join(CRD_DIR, f), 'utf8'), `infra/crds/${f}`);
    await applyServerSide(kc, crds, 'kruiseless-test-setup');
    for (const crd of crds) {
      const name = crd.metadata?.name ?? '';
      const deadline = Date.now() + 60000;
      for (;;) {
        const cur = await api.readCustomResourceDefinition({ name });
        if (cur.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
        if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after 60s`);
        await sleep(250);
      }
    }
  }
}
