/**
 * The soak (issue 18, `npm run soak`): the packaged functions on emulated AWS with serverless.yml's schedules
 * (lib/local/awsSession.ts; moto cannot fire schedules, so the emulator's clock fires each rule at its rate:
 * watch every minute, resync every 5), a few CloneSets on the local control plane, and for N minutes seeded random
 * user edits (./edits.ts) every few seconds. Measured at the EKS endpoint that fronts the API server for the
 * functions (lib/emulator/aws/eksAuthProxy.ts, which only the functions call): each edit's reaction time (the edit
 * sent → the first write by a function in the edited CloneSet's namespace, Events left out), the longest time a
 * watched stream had no open watch, Lambda errors; then the DLQ and whether every CloneSet converged.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import type { CloneSet, Pod } from '../../lib/api/types.js';
import type { ProxiedRequest, ProxyObserver } from '../../lib/emulator/aws/eksAuthProxy.js';
import { startAwsSession } from '../../lib/local/awsSession.js';
import { errorMessage } from '../../lib/core/errors.js';
import { planEdits, resolveEdit, unsettledReason, type EditCall, type SoakEditKind } from './edits.js';
import {
  longestGap,
  percentile,
  progressLine,
  soakExitCode,
  summaryLine,
  type Interval,
  type SoakFigures,
} from './stats.js';

/** Options of {@link runSoak}. */
export interface SoakOptions {
  /** Length of the edit phase, minutes. */
  minutes: number;
  seed: number;
  /** CloneSets, one per namespace `kruiseless-soak-<i>`. */
  clonesets: number;
  /** The wait before each edit is uniform in [minDelayMs, maxDelayMs]. */
  minDelayMs: number;
  maxDelayMs: number;
  /** After the edits stop, how long every CloneSet has to converge, s. */
  convergeSeconds: number;
  /** Schedule rules at this fraction of their rate (1: serverless.yml's). */
  intervalScale: number;
  /**
   * An edit's reaction is measured only when its CloneSet was settled ({@link unsettledReason}) and had no write by
   * a function for this long before it, ms: otherwise the first write after it may be the previous edit's.
   */
  quietMs: number;
}

/** The API group, version and plural of CloneSets for CustomObjectsApi. */
const CLONESETS = { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'clonesets' } as const;
/** Every object the soak creates carries this label; its pods get it from the template. */
const SOAK_LABEL = 'kruiseless.io/soak';
const NAMESPACE_PREFIX = 'kruiseless-soak-';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The soak's CloneSet number `i`: 2 pods, InPlaceIfPossible with a 3 s grace period (a requeue through Scheduler). */
function soakCloneSet(i: number): CloneSet {
  const name = `soak-${i}`;
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, labels: { [SOAK_LABEL]: 'true' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, [SOAK_LABEL]: 'true' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }] },
      },
      updateStrategy: { type: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 3 } },
    },
  };
}

/** A write by a function, as the EKS endpoint saw it. */
interface SeenWrite {
  at: number;
  /** `<METHOD> <path>` */
  what: string;
}

/** One edit made. */
interface EditRecord {
  index: number;
  namespace: string;
  kind: SoakEditKind;
  what: string;
  /** Epoch ms the edit's request was sent. */
  at: number;
  /** Whether its reaction is measured (see {@link SoakOptions.quietMs}). */
  measured: boolean;
  /** Why not, when not. */
  unsettled?: string;
}

/** What the EKS endpoint saw: the functions' writes per soak namespace and their watches per stream. */
class EndpointLog implements ProxyObserver {
  readonly writes = new Map<string, SeenWrite[]>();
  /** The reconcile role's reads per soak namespace, epoch ms: the first after an edit is when its pass began. */
  readonly reads = new Map<string, number[]>();
  readonly watches = new Map<string, { from: number; to?: number }[]>();
  private readonly open = new Map<ProxiedRequest, { from: number; to?: number }>();

  forwarded(r: ProxiedRequest): void {
    const u = new URL(r.url, 'https://endpoint');
    const watch = u.searchParams.get('watch');
    if (r.method === 'GET' && (watch === 'true' || watch === '1')) {
      const w = { from: r.forwardedAt };
      this.open.set(r, w);
      const list = this.watches.get(u.pathname) ?? [];
      list.push(w);
      this.watches.set(u.pathname, list);
      return;
    }
    const ns = /\/namespaces\/([^/]+)\//.exec(u.pathname)?.[1];
    if (r.method === 'GET' && ns?.startsWith(NAMESPACE_PREFIX) && r.user.includes('ReconcileRole')) {
      const reads = this.reads.get(ns) ?? [];
      reads.push(r.forwardedAt);
      this.reads.set(ns, reads);
      return;
    }
    if (
      !WRITE_METHODS.has(r.method) ||
      !ns?.startsWith(NAMESPACE_PREFIX) ||
      /\/events(\/|$)/.test(u.pathname)
    )
      return;
    const list = this.writes.get(ns) ?? [];
    list.push({ at: r.forwardedAt, what: `${r.method} ${u.pathname}` });
    this.writes.set(ns, list);
  }

  ended(r: ProxiedRequest, end: { at: number }): void {
    const w = this.open.get(r);
    if (w) w.to = end.at;
    this.open.delete(r);
  }

  /** The last write in `ns` so far, epoch ms (0 for none). */
  lastWrite(ns: string): number {
    const list = this.writes.get(ns);
    return list?.length ? list[list.length - 1].at : 0;
  }

  /** The first write in `ns` at or after `at`. */
  firstWriteAfter(ns: string, at: number): SeenWrite | undefined {
    return this.writes.get(ns)?.find((w) => w.at >= at);
  }

  /** The first read by the reconcile role in `ns` at or after `at`, epoch ms. */
  firstReadAfter(ns: string, at: number): number | undefined {
    return this.reads.get(ns)?.find((t) => t >= at);
  }

  /** Longest time with no open watch per stream over [from, to], ms. */
  gaps(from: number, to: number): Map<string, number> {
    const out = new Map<string, number>();
    for (const [stream, list] of this.watches) {
      const intervals: Interval[] = list.map((w) => ({ from: w.from, to: w.to ?? to }));
      out.set(stream, longestGap(intervals, from, to));
    }
    return out;
  }
}

/** The cluster as the soak reads it: each soak namespace's CloneSet and pods. */
interface Snapshot {
  get(ns: string): { cs?: CloneSet; pods: Pod[] };
}

/**
 * Run the soak (see the file comment).
 * @returns the figures and the exit code ({@link soakExitCode})
 * @throws whatever the session's start throws (moto missing, …), or an API error while creating the CloneSets
 */
export async function runSoak(o: SoakOptions): Promise<{ figures: SoakFigures; exitCode: number }> {
  const say = (l: string) => console.log(`    ${l}`);
  const loadBefore = os.loadavg();
  console.log(
    `Kruiseless soak on emulated AWS: ${o.minutes} min of edits, seed ${o.seed}, ${o.clonesets} CloneSets, ` +
      `an edit every ${o.minDelayMs / 1000}–${o.maxDelayMs / 1000} s; load ${loadBefore.map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cores)\n`,
  );
  const endpoint = new EndpointLog();
  const { info, aws, workDir, close } = await startAwsSession({
    intervalScale: o.intervalScale,
    proxyObserver: endpoint,
    say,
    heading: (line) => console.log(line),
  });
  const journal = path.join(workDir, `soak-${o.seed}.jsonl`);
  mkdirSync(workDir, { recursive: true });
  writeFileSync(journal, '');
  const note = (record: Record<string, unknown>) => appendFileSync(journal, `${JSON.stringify(record)}\n`);
  try {
    const kc = new KubeConfig();
    kc.loadFromFile(info.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const custom = kc.makeApiClient(CustomObjectsApi);
    const namespaces = Array.from({ length: o.clonesets }, (_, i) => `${NAMESPACE_PREFIX}${i}`);

    const snapshot = async (): Promise<Snapshot> => {
      const [css, pods] = await Promise.all([
        custom.listClusterCustomObject({ ...CLONESETS, labelSelector: SOAK_LABEL }) as Promise<{
          items: CloneSet[];
        }>,
        core.listPodForAllNamespaces({ labelSelector: SOAK_LABEL }),
      ]);
      return {
        get: (ns) => ({
          cs: css.items.find((c) => c.metadata.namespace === ns),
          pods: (pods.items as unknown as Pod[]).filter((p) => p.metadata.namespace === ns),
        }),
      };
    };
    const unsettled = (snap: Snapshot, ns: string): string | undefined => {
      const { cs, pods } = snap.get(ns);
      return cs ? unsettledReason(cs, pods) : 'no CloneSet';
    };
    /** Poll until every CloneSet is settled or `ms` passes; returns the reasons of those that are not. */
    const waitSettled = async (ms: number): Promise<Map<string, string>> => {
      const until = Date.now() + ms;
      for (;;) {
        const snap = await snapshot().catch(() => undefined);
        const open = new Map<string, string>();
        for (const ns of namespaces) {
          const why = snap ? unsettled(snap, ns) : 'list failed';
          if (why) open.set(ns, why);
        }
        if (open.size === 0 || Date.now() > until) return open;
        await sleep(1000);
      }
    };

    console.log(`4. ${o.clonesets} CloneSets (soak-<i> in ${NAMESPACE_PREFIX}<i>, 2 × nginx:1.18-alpine)`);
    for (const ns of namespaces) await core.deleteNamespace({ name: ns }).catch(() => undefined);
    for (const ns of namespaces)
      for (let t = Date.now(); Date.now() - t < 180_000; await sleep(1000))
        if (await core.readNamespace({ name: ns }).then(() => false, () => true)) break; // prettier-ignore
    for (const [i, ns] of namespaces.entries()) {
      await core.createNamespace({ body: { metadata: { name: ns } } });
      await custom.createNamespacedCustomObject({ ...CLONESETS, namespace: ns, body: soakCloneSet(i) });
    }
    const notUp = await waitSettled(180_000);
    for (const [ns, why] of notUp) say(`✘ ${ns} did not come up in 180 s: ${why}`);
    if (notUp.size > 0) throw new Error('the CloneSets did not come up; see the function logs');
    say(`✔ all Ready`);

    console.log(`5. edits for ${o.minutes} min`);
    const totalMs = o.minutes * 60_000;
    const plan = planEdits({
      seed: o.seed,
      count: Math.ceil(totalMs / o.minDelayMs) + 1,
      clonesets: o.clonesets,
      minDelayMs: o.minDelayMs,
      maxDelayMs: o.maxDelayMs,
    });
    const edits: EditRecord[] = [];
    let skipped = 0;
    let failed = 0;
    const t0 = Date.now();
    let lastProgress = t0;
    const progress = async () => {
      const measuredNow = reactions(edits, endpoint).map((r) => r.ms);
      const p99 = percentile(measuredNow, 99);
      const line = progressLine(Date.now() - t0, totalMs, Date.now(), `${edits.length} edits, reaction p99 so far ${p99 === undefined ? '-' : (p99 / 1000).toFixed(1)} s, dlq ${await aws.deadLetters().catch(() => NaN)}, lambda errors ${aws.failures.length}`); // prettier-ignore
      console.log(`    ${line}`);
    };
    for (const [index, planned] of plan.entries()) {
      if (Date.now() - t0 + planned.delayMs > totalMs) break;
      await sleep(planned.delayMs);
      const ns = namespaces[planned.cloneset];
      const snap = await snapshot();
      const { cs, pods } = snap.get(ns);
      const call = cs ? resolveEdit(planned, cs, pods) : undefined;
      if (!cs || !call) {
        skipped++;
        continue;
      }
      const why = unsettled(snap, ns);
      const at = Date.now();
      const quiet = at - endpoint.lastWrite(ns) >= o.quietMs;
      try {
        await apply(call, ns, cs.metadata.name ?? '', core, custom);
      } catch (e) {
        failed++;
        note({ index, ns, kind: planned.kind, what: call.what, error: errorMessage(e) });
        continue;
      }
      const record: EditRecord = {
        index,
        namespace: ns,
        kind: planned.kind,
        what: call.what,
        at,
        measured: !why && quiet,
        ...(why
          ? { unsettled: why }
          : quiet
            ? {}
            : { unsettled: 'a function wrote less than quietMs before' }),
      };
      edits.push(record);
      note({ ...record });
      if (Date.now() - lastProgress >= 30_000) {
        lastProgress = Date.now();
        await progress();
      }
    }
    await sleep(Math.max(0, t0 + totalMs - Date.now())); // the edit phase lasts its minutes, quiet at its end
    const editEnd = Date.now();
    await progress();

    console.log(`6. convergence (at most ${o.convergeSeconds} s)`);
    const open = await waitSettled(o.convergeSeconds * 1000);
    const convergedAt = Date.now();
    for (const ns of namespaces) say(open.has(ns) ? `✘ ${ns}: ${open.get(ns)}` : `✔ ${ns} converged`);
    const lastEditAt = edits.length ? edits[edits.length - 1].at : t0;
    say(`settled ${((convergedAt - lastEditAt) / 1000).toFixed(1)} s after the last edit (the check polls every second)`); // prettier-ignore
    await sleep(3000); // a reconcile still running (a status-only pass) finishes or fails into its retries
    await aws.idle('ReconcileLambdaFunction');

    const measured = reactions(edits, endpoint);
    for (const r of measured)
      note({ reaction: r.edit.index, ms: r.ms, deliveryMs: r.deliveryMs, first: r.first.what });
    const unanswered = edits.filter((e) => e.measured && !endpoint.firstWriteAfter(e.namespace, e.at));
    const gaps = endpoint.gaps(t0, convergedAt);
    for (const [stream, list] of endpoint.watches)
      for (const w of list) note({ watch: stream, from: w.from, to: w.to ?? convergedAt });
    const deadLetters = await aws.deadLetters();
    const figures: SoakFigures = {
      minutes: (editEnd - t0) / 60_000,
      edits: edits.length,
      reactionsMs: measured.map((r) => r.ms),
      watchGapMaxMs: Math.max(0, ...gaps.values()),
      deadLetters,
      converged: namespaces.length - open.size,
      clonesets: namespaces.length,
    };

    console.log('7. figures');
    say(`load before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min; ${os.cpus().length} cores)`); // prettier-ignore
    say(`edits: ${edits.length} made (${measured.length} measured: settled and quiet for ${o.quietMs / 1000} s before; ${unanswered.length} of those without a write), ${skipped} skipped (no pod), ${failed} refused`); // prettier-ignore
    const kinds = [...new Set(edits.map((e) => e.kind))].sort();
    for (const kind of kinds) {
      const ms = measured.filter((r) => r.edit.kind === kind).map((r) => r.ms);
      say(`  ${kind}: ${edits.filter((e) => e.kind === kind).length} edits, ${ms.length} measured, p50 ${fmt(percentile(ms, 50))} s, max ${fmt(ms.length ? Math.max(...ms) : undefined)} s`); // prettier-ignore
    }
    const firsts = new Map<string, number>();
    for (const r of measured) {
      const what = r.first.what.replace(/\/namespaces\/[^/]+\//, '/namespaces/*/').replace(/\/(pods|clonesets|controllerrevisions)\/[^/]+/, '/$1/*'); // prettier-ignore
      firsts.set(what, (firsts.get(what) ?? 0) + 1);
    }
    say(`first writes: ${[...firsts].map(([w, n]) => `${w} ${n}`).join(', ')}`);
    const delivery = measured.flatMap((r) => (r.deliveryMs === undefined ? [] : [r.deliveryMs]));
    const pass = measured.flatMap((r) => (r.deliveryMs === undefined ? [] : [r.ms - r.deliveryMs]));
    say(`reaction = delivery (edit → the reconcile role's first read: watch, PutEvents, rule, invoke) + pass (first read → first write), ${delivery.length} split: delivery p50 ${fmt(percentile(delivery, 50))} s p99 ${fmt(percentile(delivery, 99))} s max ${fmt(delivery.length ? Math.max(...delivery) : undefined)} s; pass p50 ${fmt(percentile(pass, 50))} s p99 ${fmt(percentile(pass, 99))} s max ${fmt(pass.length ? Math.max(...pass) : undefined)} s`); // prettier-ignore
    say(`watch gap max per stream: ${[...gaps].map(([s, g]) => `${s} ${fmt(g)} s`).join(', ')}`);
    for (const f of aws.functions.values())
      say(`  ${f.spec.name}: ${f.stats.invocations} invocations, ${f.stats.coldStarts} cold starts, ${f.stats.errors} errors, ${f.stats.timeouts} timeouts`); // prettier-ignore
    say(`requeue schedules fired: ${aws.schedulesFired().length}`);
    const distinct = new Map<string, number>();
    for (const f of aws.failures) distinct.set(`${f.fn}: ${f.error}`, (distinct.get(`${f.fn}: ${f.error}`) ?? 0) + 1); // prettier-ignore
    say(`lambda errors (failed attempts): ${aws.failures.length}${[...distinct].map(([e, n]) => `\n      ${n} × ${e}`).join('')}`); // prettier-ignore
    say(`journal: ${journal}`);
    console.log(`\n${summaryLine(figures)}`);
    return { figures, exitCode: soakExitCode(figures) };
  } finally {
    await close();
  }
}

/** Seconds with one decimal. */
function fmt(ms: number | undefined): string {
  return ms === undefined ? '-' : (ms / 1000).toFixed(1);
}

/** The reaction of every measured edit that has one. */
function reactions(edits: readonly EditRecord[], endpoint: EndpointLog) {
  return edits.flatMap((edit) => {
    if (!edit.measured) return [];
    const first = endpoint.firstWriteAfter(edit.namespace, edit.at);
    if (!first) return [];
    // the pass that wrote began at its first read (a reconcile reads the CloneSet before it writes)
    const read = endpoint.firstReadAfter(edit.namespace, edit.at);
    const deliveryMs = read !== undefined && read <= first.at ? read - edit.at : undefined;
    return [{ edit, first, ms: first.at - edit.at, deliveryMs }];
  });
}

/** Make one edit's API call as the cluster's admin (the user; not through the functions' endpoint). */
async function apply(
  call: EditCall,
  namespace: string,
  name: string,
  core: CoreV1Api,
  custom: CustomObjectsApi,
): Promise<void> {
  const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  switch (call.verb) {
    case 'patchCloneSet':
      await custom.patchNamespacedCustomObject({ ...CLONESETS, namespace, name, body: call.patch }, merge);
      return;
    case 'patchPod':
      await core.patchNamespacedPod({ namespace, name: call.pod, body: call.patch }, merge);
      return;
    case 'deletePod':
      await core.deleteNamespacedPod({ namespace, name: call.pod });
      return;
  }
}
