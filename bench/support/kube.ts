/**
 * What the bench does to a cluster besides watching: plain JSON requests with the kubeconfig's credentials over one
 * kept-alive connection pool, fake kwok nodes, namespaces, and `/metrics`.
 */
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { KubeConfig } from '@kubernetes/client-node';
import { daemonNodeLabel } from '../scenarios/workload.js';
import { apiCounters, type ApiCounters } from './apiCost.js';

/** A cluster the bench talks to. */
export interface BenchCluster {
  name: string;
  kc: KubeConfig;
  request: (method: string, path: string, body?: unknown, contentType?: string) => Promise<unknown>;
}

const agent = new https.Agent({ keepAlive: true, maxSockets: 32 });

/** The bench's own requests' `User-Agent`, how bench/support/audit.ts tells them from the controllers'. */
export const BENCH_USER_AGENT = 'kruiseless-bench';

/**
 * Connect to the cluster of a kubeconfig file.
 * `request` returns the parsed JSON answer, or the text of a non-JSON one (`/metrics`, `/readyz`).
 * @throws Error from {@link BenchCluster.request} when the API server answers ≥ 300 (status and body in the message)
 */
export function benchCluster(name: string, kubeconfig: string): BenchCluster {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const server = new URL(kc.getCurrentCluster()?.server ?? '');
  const request = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
    const opts: https.RequestOptions = {
      hostname: server.hostname,
      port: server.port,
      path,
      method,
      agent,
      headers: {
        Accept: path.startsWith('/api') ? 'application/json' : 'text/plain',
        'Content-Type': contentType,
        // names the bench in the API server's audit log (infra/local/cluster.ts `auditArgs`)
        'User-Agent': BENCH_USER_AGENT,
      },
    };
    await kc.applyToHTTPSOptions(opts);
    opts.agent = agent;
    const text = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = https.request(opts, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      if (body !== undefined) req.write(JSON.stringify(body));
      req.end();
    });
    if (text.status >= 300) throw new Error(`${method} ${path}: ${text.status} ${text.body.slice(0, 300)}`);
    const json = /^\s*[[{]/.test(text.body);
    return json ? (JSON.parse(text.body) as unknown) : text.body; // /metrics, /readyz: text
  };
  return { name, kc, request };
}

/** Scrape the API server's request counters. */
export async function scrapeApi(c: BenchCluster): Promise<ApiCounters> {
  return apiCounters((await c.request('GET', '/metrics')) as string);
}

/**
 * Scrape until two scrapes 1 s apart show the same request counters (the controllers, the scheduler and kwok are
 * done with the last change), at most `timeoutMs`.
 * @returns the last scrape
 */
export async function quietScrape(c: BenchCluster, timeoutMs = 15_000): Promise<ApiCounters> {
  const deadline = performance.now() + timeoutMs;
  let last = await scrapeApi(c);
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    const next = await scrapeApi(c);
    const same = Object.keys(next.requests).every((k) => next.requests[k] === last.requests[k]);
    last = next;
    if (same) break;
  }
  return last;
}

/** A kwok fake node (annotation kwok.x-k8s.io/node=fake), 110 pods, like infra/local's, with `labels` added. */
function fakeNode(name: string, labels: Readonly<Record<string, string>> = {}): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        ...labels,
        type: 'kwok',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
      },
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    status: {
      allocatable: { cpu: '32', memory: '256Gi', pods: '110' },
      capacity: { cpu: '32', memory: '256Gi', pods: '110' },
    },
  };
}

/** Nodes needed for `pods` pods at 110 a node, with room for a rollout and the other scenarios. */
export function nodesFor(pods: number): number {
  return Math.ceil((pods * 1.3 + 200) / 110);
}

/**
 * Make sure at least `count` kwok nodes exist (infra/local starts 2; the bench adds kwok-bench-<i>), then wait
 * until every one is Ready.
 */
export async function ensureNodes(c: BenchCluster, count: number): Promise<number> {
  const list = (await c.request('GET', '/api/v1/nodes')) as { items: { metadata: { name: string } }[] };
  const names = new Set(list.items.map((n) => n.metadata.name));
  for (let i = 0; names.size < count; i++) {
    const name = `kwok-bench-${i}`;
    if (names.has(name)) continue;
    await c.request('POST', '/api/v1/nodes', fakeNode(name));
    names.add(name);
  }
  for (let tries = 0; tries < 120; tries++) {
    const nodes = (await c.request('GET', '/api/v1/nodes')) as {
      items: { status?: { conditions?: { type: string; status: string }[] } }[];
    };
    const ready = nodes.items.filter((n) =>
      n.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'),
    ).length;
    if (ready >= count) return ready;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${c.name}: fewer than ${count} Ready nodes after 60 s`);
}

/** Name of the `i`-th (from 0) kwok node of the Advanced DaemonSet part. */
export const daemonNodeName = (i: number): string => `kwok-ds-${i}`;

/**
 * The labels the `i`-th DaemonSet node carries for `sizes`: workload.ts `daemonNodeLabel(n)` = `"true"` for every
 * `n` of `sizes` above `i`, so the first `n` nodes carry the label of `n`. Pure.
 */
export function daemonNodeLabels(i: number, sizes: readonly number[]): Record<string, string> {
  return Object.fromEntries(sizes.filter((n) => n > i).map((n) => [daemonNodeLabel(n), 'true']));
}

/** Run `fn` over `items`, at most `width` at a time. */
async function pooled<T>(items: readonly T[], width: number, fn: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/**
 * Make sure the Advanced DaemonSet part's kwok nodes exist: kwok-ds-0 … kwok-ds-<max(sizes) − 1>, each with its
 * {@link daemonNodeLabels} (created, or labelled by a merge patch when a node of an earlier run lacks one; labels of
 * other sizes are left), then wait until the `max(sizes)` of them are Ready, at most 10 minutes.
 * @returns how many DaemonSet nodes are Ready
 * @throws Error when a request fails or the nodes are not Ready in time
 */
export async function ensureDaemonNodes(c: BenchCluster, sizes: readonly number[]): Promise<number> {
  const max = Math.max(...sizes);
  const list = (await c.request('GET', '/api/v1/nodes')) as {
    items: { metadata: { name: string; labels?: Record<string, string> } }[];
  };
  const existing = new Map(list.items.map((n) => [n.metadata.name, n.metadata.labels ?? {}]));
  await pooled(
    Array.from({ length: max }, (_, i) => i),
    16,
    async (i) => {
      const name = daemonNodeName(i);
      const labels = daemonNodeLabels(i, sizes);
      const have = existing.get(name);
      if (!have) await c.request('POST', '/api/v1/nodes', fakeNode(name, labels));
      else if (Object.keys(labels).some((k) => have[k] !== labels[k]))
        await c.request(
          'PATCH',
          `/api/v1/nodes/${name}`,
          { metadata: { labels } },
          'application/merge-patch+json',
        );
    },
  );
  const selector = encodeURIComponent(`${daemonNodeLabel(max)}=true`);
  for (let tries = 0; tries < 1200; tries++) {
    const nodes = (await c.request('GET', `/api/v1/nodes?labelSelector=${selector}`)) as {
      items: { status?: { conditions?: { type: string; status: string }[] } }[];
    };
    const ready = nodes.items.filter((n) =>
      n.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'),
    ).length;
    if (ready >= max) return ready;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${c.name}: fewer than ${max} Ready DaemonSet nodes after 10 min`);
}

/** Create a namespace (fails when it exists). */
export async function createNamespace(c: BenchCluster, name: string): Promise<void> {
  await c.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/**
 * Delete a namespace and wait until it is gone (its pods deleted by the namespace controller and kwok), at most
 * `timeoutMs`; a namespace still terminating then is left to finish in the background.
 */
export async function deleteNamespace(c: BenchCluster, name: string, timeoutMs = 120_000): Promise<void> {
  await c.request('DELETE', `/api/v1/namespaces/${name}`).catch(() => undefined);
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    try {
      await c.request('GET', `/api/v1/namespaces/${name}`);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
