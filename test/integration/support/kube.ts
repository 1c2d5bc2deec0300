/** @kubernetes/client-node helpers shared by the integration global setup and tests. */
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import {
  ApiException,
  ApiextensionsV1Api,
  KubeConfig,
  VersionApi,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { CRD_DIR } from '../../../infra/local/versions.js';
import { waitFor } from './wait.js';

/** Loads a kubeconfig file (its current context). */
export function loadKubeConfig(file: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
}

/** True when the cluster of `kubeconfigFile` answers GET /version within 5 s. */
export async function reachable(kubeconfigFile: string): Promise<boolean> {
  try {
    const api = loadKubeConfig(kubeconfigFile).makeApiClient(VersionApi);
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
 * Creates or replaces every CRD in infra/crds and waits until each is Established (60 s).
 * @throws ApiException from the API server, or Error on timeout
 */
export async function installCrds(kubeconfigFile: string): Promise<void> {
  const api = loadKubeConfig(kubeconfigFile).makeApiClient(ApiextensionsV1Api);
  for (const f of fs.readdirSync(CRD_DIR).filter((n) => n.endsWith('.yaml'))) {
    for (const doc of parseAllDocuments(fs.readFileSync(path.join(CRD_DIR, f), 'utf8'))) {
      const crd = doc.toJS() as V1CustomResourceDefinition;
      const name = crd.metadata?.name ?? '';
      try {
        const old = await api.readCustomResourceDefinition({ name });
        crd.metadata = { ...crd.metadata, resourceVersion: old.metadata?.resourceVersion };
        await api.replaceCustomResourceDefinition({ name, body: crd });
      } catch (e) {
        if (!(e instanceof ApiException) || e.code !== 404) throw e;
        await api.createCustomResourceDefinition({ body: crd });
      }
      await waitFor(`CRD ${name} Established`, 60000, async () => {
        const cur = await api.readCustomResourceDefinition({ name });
        return (
          cur.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') || undefined
        );
      });
    }
  }
}

/** A raw GET against the API server with extra headers, for what the typed clients cannot ask (e.g. Tables). */
export async function rawGet(
  kc: KubeConfig,
  apiPath: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const server = new URL(kc.getCurrentCluster()?.server ?? '');
  const opts: https.RequestOptions = {
    hostname: server.hostname,
    port: server.port,
    path: apiPath,
    method: 'GET',
    headers,
  };
  await kc.applyToHTTPSOptions(opts);
  return new Promise((resolve, reject) => {
    const req = https.request(opts, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
