/**
 * One connection per registered cluster for a process's life (a Lambda container's in AWS): the KubeConfig, its
 * keep-alive pool (./request.ts) and the {@link KubeClient} are kept while the cluster's registry record is
 * unchanged, so warm invocations reuse their TLS connections; the EKS token in the KubeConfig is replaced in place
 * before it gets too old for an invocation (./config.ts `TOKEN_MIN_VALIDITY_MS`) and after a 401. A changed record
 * (endpoint, CA, auth) gets a new connection and the old pool is closed.
 */
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { createKubeClient, type KubeClientOptions } from './client.js';
import {
  defaultEksTokenProvider,
  kubeConfigFromCluster,
  setBearerToken,
  type ClusterRecord,
  type EksTokenProvider,
} from './config.js';
import { disableHttp2Watches } from './http2Session.js';
import { closeConnections, limitConnectionPool } from './request.js';
import type { KubeClient } from './types.js';

/** The kept connection of one cluster. */
export interface ClusterConnection {
  kc: KubeConfig;
  kube: KubeClient;
}

/** The connections of a process, one per cluster name. */
export interface ClusterConnections {
  /**
   * The connection of `record.name`: the same one as long as `record` is unchanged (its token refreshed in place
   * when {@link EksTokenProvider} hands out a new one); a new one, and the previous pool closed, when it changed.
   * Call it once per invocation: the token it leaves in the KubeConfig is good for the longest invocation.
   * @throws whatever the token provider throws (no AWS credentials, AssumeRole denied)
   */
  connect(record: ClusterRecord): Promise<ClusterConnection>;
  /** Closes every pool and forgets every connection (tests, shutdown). */
  close(): void;
}

interface Entry {
  /** The record the connection was built from, as JSON. */
  record: string;
  connection: ClusterConnection;
  /** The bearer token in `connection.kc`. */
  token: string | undefined;
}

/**
 * Builds the connection cache.
 * @param opts.tokenProvider default {@link defaultEksTokenProvider}
 * @param opts.client options of every {@link KubeClient} it builds (`refreshCredentials` is its own: a fresh token)
 * @param opts.http2Watches `false`: every connection's watches stay on HTTP/1.1 (./http2Session.ts
 *   `disableHttp2Watches`); default HTTP/2 where the API server offers it
 * @param opts.poolSockets connections each cluster's request pool opens at most (./request.ts
 *   `limitConnectionPool`); default no limit
 */
export function createClusterConnections(
  opts: {
    tokenProvider?: EksTokenProvider;
    client?: Omit<KubeClientOptions, 'refreshCredentials'>;
    http2Watches?: boolean;
    poolSockets?: number;
  } = {},
): ClusterConnections {
  const tokenProvider = opts.tokenProvider ?? defaultEksTokenProvider;
  const entries = new Map<string, Entry>();

  /** Puts `token` into the entry's KubeConfig unless it is there already. */
  const install = (entry: Entry, token: string) => {
    if (entry.token === token) return;
    setBearerToken(entry.connection.kc, token);
    entry.token = token;
  };

  const build = async (record: ClusterRecord, key: string): Promise<Entry> => {
    let token = record.auth.type === 'token' ? record.auth.token : undefined;
    const kc = await kubeConfigFromCluster(record, async (auth) => {
      const t = await tokenProvider(auth);
      token = t.token;
      return t;
    });
    if (opts.http2Watches === false) disableHttp2Watches(kc);
    if (opts.poolSockets !== undefined) limitConnectionPool(kc, opts.poolSockets);
    const { auth } = record;
    // a refused token (401): sign a fresh one into the same KubeConfig; the request is then sent once more
    const refreshCredentials =
      auth.type === 'eks'
        ? async () => install(entry, (await tokenProvider(auth, { fresh: true })).token)
        : undefined;
    const kube = createKubeClient(kc, {
      ...opts.client,
      ...(refreshCredentials ? { refreshCredentials } : {}),
    });
    const entry: Entry = { record: key, token, connection: { kc, kube } };
    return entry;
  };

  return {
    async connect(record) {
      const key = JSON.stringify(record);
      const kept = entries.get(record.name);
      if (kept && kept.record === key) {
        if (record.auth.type === 'eks') install(kept, (await tokenProvider(record.auth)).token);
        return kept.connection;
      }
      const entry = await build(record, key);
      if (kept) closeConnections(kept.connection.kc);
      entries.set(record.name, entry);
      return entry.connection;
    },
    close() {
      for (const entry of entries.values()) closeConnections(entry.connection.kc);
      entries.clear();
    },
  };
}
