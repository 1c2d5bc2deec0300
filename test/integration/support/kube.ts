/** @kubernetes/client-node helpers for the integration tests. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { binPath } from '../../../infra/local/versions.js';

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

/**
 * Runs the built kubectl (`binPath('kubectl')`, from the control-plane cache) against `kubeconfig`.
 * @returns its stdout
 * @throws Error naming the command, with kubectl's stderr, on a non-zero exit
 */
export function kubectl(kubeconfig: string, ...args: string[]): string {
  const res = spawnSync(binPath('kubectl'), [`--kubeconfig=${kubeconfig}`, ...args], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${res.stderr}`);
  return res.stdout;
}

/** One cluster, one user, one context: what {@link writeKubeconfig} writes. */
export interface KubeconfigSpec {
  /** API server URL; `http://` needs `insecure-skip-tls-verify` in `cluster` (client-node refuses it otherwise). */
  server: string;
  /** Further fields of the cluster entry, e.g. `certificate-authority-data` or `insecure-skip-tls-verify`. */
  cluster?: Record<string, unknown>;
  /** The user entry, e.g. `{ token }`; empty for no credentials (a proxy that adds its own). */
  user?: Record<string, unknown>;
  /** The context's default namespace. */
  namespace?: string;
}

/**
 * Writes a kubeconfig with a single context to `file` (as JSON, which is YAML).
 * @returns `file`
 */
export function writeKubeconfig(file: string, spec: KubeconfigSpec): string {
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'test', cluster: { server: spec.server, ...spec.cluster } }],
      users: [{ name: 'test', user: spec.user ?? {} }],
      contexts: [
        {
          name: 'test',
          context: {
            cluster: 'test',
            user: 'test',
            ...(spec.namespace ? { namespace: spec.namespace } : {}),
          },
        },
      ],
      'current-context': 'test',
    }),
  );
  return file;
}
