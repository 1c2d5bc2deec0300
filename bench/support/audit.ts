/**
 * Requests of one bench phase by client, from kube-apiserver's audit log (opt-in: `KRUISELESS_AUDIT_LOG=1` when the
 * control plane starts, infra/local/cluster.ts `auditArgs`). `apiserver_request_total` has no client label
 * (./apiCost.ts), the audit log's `userAgent` has: each event is one finished request (policy at level Metadata,
 * stages `RequestReceived` and `ResponseStarted` omitted). The phase's window is the bench's own: between the last
 * `GET /metrics` before the event that opens it (the bench's `POST` of the workload for the scale-up, its `PATCH` of
 * the image for the rollout) and the last `GET /metrics` before the bench deletes the run's namespace, the scrapes
 * whose difference is the bench's request count (bench/scenarios/rollout.ts). Counted as the bench counts: WATCH and
 * cluster-scope requests left out, non-resource requests too. Pure. Upstream: k8s.io/apiserver/pkg/apis/audit/v1
 * `Event`.
 */
import { BENCH_USER_AGENT } from './kube.js';

/** The fields of an audit event (audit.k8s.io/v1 `Event`) this module reads. */
export interface AuditEvent {
  stage: string;
  verb: string;
  requestURI: string;
  userAgent?: string;
  user?: { username?: string };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
  responseStatus?: { code?: number };
  requestReceivedTimestamp: string;
  stageTimestamp: string;
}

/**
 * The finished requests of an audit log of JSON lines (stage `ResponseComplete` or `Panic`), in log order; lines
 * that are not JSON (a line cut short when the API server stopped) are skipped.
 */
export function parseAuditLog(text: string): AuditEvent[] {
  const out: AuditEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const ev = JSON.parse(line) as AuditEvent;
      if (ev.stage === 'ResponseComplete' || ev.stage === 'Panic') out.push(ev);
    } catch {
      // a partial last line
    }
  }
  return out;
}

/** The audit log's verbs in the request metric's spelling. */
const METRIC_VERB: Record<string, string> = {
  get: 'GET',
  list: 'LIST',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETE',
};

/**
 * Who sent a request, from its `userAgent`: `bench` (bench/support/kube.ts `BENCH_USER_AGENT`), `kwok`,
 * `kube-scheduler`, `kube-controller-manager/<controller>` (the controller's client name client-go appends),
 * `kruise-manager` (OpenKruise's binary is `manager`), `Kruiseless` (lib/kube/request.ts `USER_AGENT`; before it was
 * sent, its requests had none: `no User-Agent`), otherwise the agent's product name (before the first `/`).
 */
export function clientOf(ev: Pick<AuditEvent, 'userAgent'>): string {
  const ua = ev.userAgent ?? '';
  if (ua === '') return 'no User-Agent';
  if (ua === BENCH_USER_AGENT) return 'bench';
  if (ua.startsWith('kruiseless ')) return 'Kruiseless';
  const product = ua.split('/')[0];
  if (product === 'kube-controller-manager') {
    const controller = /kubernetes\/[0-9a-f$A-Za-z]+\/(.+)$/.exec(ua)?.[1];
    return controller ? `${product}/${controller}` : product;
  }
  if (product === 'manager') return 'kruise-manager';
  return product;
}

/**
 * The request metric's key of an event (`PATCH pods/status`), or undefined for what the bench does not count:
 * WATCH, non-resource requests, and cluster-scope ones (neither namespace nor name: LIST or WATCH of all).
 */
export function keyOfEvent(ev: AuditEvent): string | undefined {
  const verb = METRIC_VERB[ev.verb];
  const ref = ev.objectRef;
  if (verb === undefined || ref?.resource === undefined) return undefined;
  if (ref.namespace === undefined && ref.name === undefined) return undefined;
  return `${verb} ${ref.resource}${ref.subresource ? `/${ref.subresource}` : ''}`;
}

/** A bench phase. */
export type Phase = 'scale-up' | 'rollout';

const isBench = (ev: AuditEvent): boolean => ev.userAgent === BENCH_USER_AGENT;
const isScrape = (ev: AuditEvent): boolean => isBench(ev) && ev.requestURI.startsWith('/metrics');
const inNamespace = (ev: AuditEvent, ns: string): boolean => ev.objectRef?.namespace === ns;

/** The namespaces the bench created, in order (its run namespaces: `bench-<controller>-<n>-<round>-<t>`). */
export function benchNamespaces(events: readonly AuditEvent[]): string[] {
  return events
    .filter(
      (ev) =>
        isBench(ev) &&
        ev.verb === 'create' &&
        ev.objectRef?.resource === 'namespaces' &&
        ev.objectRef.namespace === undefined,
    )
    .map((ev) => ev.objectRef?.name ?? '')
    .filter((n) => n !== '');
}

/** A phase's requests, by client and key. */
export interface PhaseAttribution {
  namespace: string;
  phase: Phase;
  /** The scrapes that bound the window (their `requestReceivedTimestamp`). */
  from: string;
  to: string;
  /** client → key → requests. */
  byClient: Record<string, Record<string, number>>;
  total: number;
}

/**
 * Attribute the requests of a phase of the bench's run in `namespace` (see the module doc for the window). A
 * request is in the window when it finished (`stageTimestamp`, when the API server counts it) after the opening
 * scrape was received and before the closing one was: the counters each scrape read.
 * @throws Error when the log lacks the phase's opening event or its scrapes (the control plane was not started with
 *   the audit log, or the run did not finish)
 */
export function attributePhase(
  events: readonly AuditEvent[],
  namespace: string,
  phase: Phase,
): PhaseAttribution {
  const opens = (ev: AuditEvent): boolean =>
    isBench(ev) &&
    inNamespace(ev, namespace) &&
    (phase === 'scale-up' ? ev.verb === 'create' : ev.verb === 'patch') &&
    ev.objectRef?.subresource === undefined &&
    ev.objectRef?.resource !== 'pods';
  const closes = (ev: AuditEvent): boolean =>
    isBench(ev) &&
    ev.verb === 'delete' &&
    ev.objectRef?.resource === 'namespaces' &&
    ev.objectRef.name === namespace;
  const sorted = [...events].sort((a, b) =>
    a.requestReceivedTimestamp.localeCompare(b.requestReceivedTimestamp),
  );
  const open = sorted.findIndex(opens);
  if (open < 0) throw new Error(`no ${phase} of the bench in ${namespace} in the audit log`);
  const closeAt =
    phase === 'scale-up'
      ? sorted.findIndex(
          (ev, i) => i > open && isBench(ev) && inNamespace(ev, namespace) && ev.verb === 'patch',
        )
      : sorted.findIndex((ev, i) => i > open && closes(ev));
  const lastScrapeBefore = (end: number): AuditEvent | undefined =>
    sorted.slice(0, end).reverse().find(isScrape);
  const first = lastScrapeBefore(open);
  const last = closeAt < 0 ? undefined : lastScrapeBefore(closeAt);
  if (!first || !last || last === first)
    throw new Error(`the ${phase} in ${namespace} is not bounded by two scrapes in the audit log`);
  const from = first.requestReceivedTimestamp;
  const to = last.requestReceivedTimestamp;
  const byClient: Record<string, Record<string, number>> = {};
  let total = 0;
  for (const ev of events) {
    if (!(ev.stageTimestamp > from && ev.stageTimestamp <= to)) continue;
    const key = keyOfEvent(ev);
    if (key === undefined) continue;
    const client = clientOf(ev);
    const row = (byClient[client] ??= {});
    row[key] = (row[key] ?? 0) + 1;
    total++;
  }
  return { namespace, phase, from, to, byClient, total };
}

/**
 * A Markdown table of an attribution: one row per client and key (clients by their requests, most first, then by
 * name; keys likewise), with each client's subtotal and the total.
 */
export function attributionTable(a: PhaseAttribution, pods: number): string {
  const lines = ['| client | request | count | per pod |', '|---|---|---|---|'];
  const perPod = (n: number): string => (pods > 0 ? (n / pods).toFixed(2) : '');
  const sum = (r: Record<string, number>): number => Object.values(r).reduce((x, y) => x + y, 0);
  const clients = Object.entries(a.byClient).sort(
    ([cx, x], [cy, y]) => sum(y) - sum(x) || cx.localeCompare(cy),
  );
  for (const [client, row] of clients) {
    for (const [key, n] of Object.entries(row).sort(([ka, x], [kb, y]) => y - x || ka.localeCompare(kb)))
      lines.push(`| ${client} | ${key} | ${n} | ${perPod(n)} |`);
    lines.push(`| **${client}** | all | **${sum(row)}** | **${perPod(sum(row))}** |`);
  }
  lines.push(`| **all** | | **${a.total}** | **${perPod(a.total)}** |`);
  return lines.join('\n');
}
