/** @kubernetes/client-node helpers for the integration tests. */
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** Loads a kubeconfig file (its current context): the library's loader. */
export { kubeConfigFromFile as loadKubeConfig } from '../../../lib/kube/config.js';

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
