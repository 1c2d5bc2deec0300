/**
 * The dashboard and the error-rate alarm of serverless.yml read series the functions publish. CloudWatch matches a
 * metric by its whole dimension set — a SEARCH schema `{namespace,a,b}` finds only metrics with exactly dimensions a
 * and b, a metric row or an alarm's `Dimensions` only that set — so a widget naming a set no point carries stays
 * empty, silently: the resync widget searched `{reason,service}` while every point also carries `controller`, and
 * the alarm and three widgets read `controller=cloneset` only, blind to every other kind. Here the sets the EMF sink
 * prints for each metric (driven as the handlers drive the recorder) are compared with every reference to them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { METRIC, type MetricName } from '../../../lib/core/metrics.js';
import { emfSink } from '../../../lib/runtime/emf.js';
import {
  InvocationMetrics,
  recordApiRequest,
  recordReconcile,
  withMetrics,
} from '../../../lib/runtime/metrics.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Metric name → the dimension sets (names, sorted, joined by `,`) the EMF sink publishes it under. */
async function publishedSets(): Promise<Map<string, Set<string>>> {
  const lines: string[] = [];
  const sink = emfSink({
    namespace: 'Kruiseless-test',
    serviceName: 'kruiseless',
    write: (l) => lines.push(l),
  });
  // a reconcile invocation as lib/runtime/handlers/reconcile.ts records it, every outcome
  for (const end of [
    { failed: false, deferred: false, seconds: 0.2 },
    { failed: true, deferred: false, seconds: 0.2, leaseFailure: 'acquire' as const },
    { failed: false, deferred: true, seconds: 0.1 },
    { failed: false, deferred: false, seconds: 0.1, requeuedAfterSeconds: 5 },
  ]) {
    const m = new InvocationMetrics('advancedcronjob');
    await withMetrics(m, sink, async () => {
      recordReconcile(m, end);
      recordApiRequest({ method: 'GET', resource: 'pods', code: '200' });
    });
  }
  // the watch and resync handlers' own points (lib/runtime/handlers/watch.ts, resync.ts), with their dimensions
  const other = new InvocationMetrics('cloneset');
  other.add(METRIC.eventsCoalesced, 3);
  other.add(METRIC.watchClustersDeferred, 1);
  other.add(METRIC.resyncClustersMissed, 0, { reason: 'failed' });
  sink.flush(other);
  const sets = new Map<string, Set<string>>();
  for (const line of lines) {
    const doc = JSON.parse(line) as {
      _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
    };
    for (const d of doc._aws.CloudWatchMetrics)
      for (const metric of d.Metrics)
        for (const dims of d.Dimensions) {
          const known = sets.get(metric.Name) ?? new Set<string>();
          known.add([...dims].sort().join(','));
          sets.set(metric.Name, known);
        }
  }
  return sets;
}

/** What the template references: `<metric> {<dimension names>}` with where it is. */
function references(): { metric: string; dims: string; where: string }[] {
  const template = parse(readFileSync(path.join(REPO, 'serverless.yml'), 'utf8'), { logLevel: 'error' }) as {
    resources: { Resources: Record<string, { Properties: Record<string, unknown> }> };
  };
  const resources = template.resources.Resources;
  const refs: { metric: string; dims: string; where: string }[] = [];
  const alarm = resources.ReconcileErrorRateAlarm.Properties.Metrics as {
    Id: string;
    MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string }[] } };
  }[];
  for (const m of alarm)
    if (m.MetricStat)
      refs.push({
        metric: m.MetricStat.Metric.MetricName,
        dims: m.MetricStat.Metric.Dimensions.map((d) => d.Name)
          .sort()
          .join(','),
        where: `alarm ${m.Id}`,
      });
  const [body] = resources.Dashboard.Properties.DashboardBody as [string];
  const dashboard = JSON.parse(body.replace(/\$\{[^}]+\}/g, (v) => (v === '${Namespace}' ? 'NS' : 'x'))) as {
    widgets: { properties: { title: string; metrics?: unknown[][] } }[];
  };
  for (const w of dashboard.widgets)
    for (const row of w.properties.metrics ?? []) {
      const first = row[0];
      if (typeof first === 'object' && first !== null && 'expression' in first) {
        const schema = /SEARCH\('\{"NS",([^}]*)\} MetricName="([a-z_]+)"/.exec(String(first.expression));
        if (schema)
          refs.push({
            metric: schema[2],
            dims: schema[1].split(',').sort().join(','),
            where: w.properties.title,
          });
      } else if (first === 'NS') {
        const names = row
          .slice(2)
          .filter((_, i) => i % 2 === 0 && typeof row[i + 2] === 'string') as string[];
        refs.push({ metric: String(row[1]), dims: names.sort().join(','), where: w.properties.title });
      }
    }
  return refs;
}

describe('the dashboard and the alarm read what the functions publish', () => {
  it('every SEARCH schema, metric row and alarm metric names a dimension set its metric is published under', async () => {
    const sets = await publishedSets();
    const refs = references();
    expect(refs.length).toBeGreaterThanOrEqual(10);
    const unmatched = refs
      .filter((r) => !sets.get(r.metric)?.has(r.dims))
      .map(
        (r) =>
          `${r.where}: ${r.metric} {${r.dims}} (published: ${[...(sets.get(r.metric) ?? [])].join(' | ')})`,
      );
    expect(unmatched).toEqual([]);
  });

  it('the alarm counts every controller’s reconciles, not one kind’s', async () => {
    const sets = await publishedSets();
    for (const name of [METRIC.reconcileErrors, METRIC.reconcileTime] as MetricName[])
      expect([...(sets.get(name) ?? [])].sort()).toEqual(['controller,service', 'service']);
    expect(
      references()
        .filter((r) => r.where.startsWith('alarm'))
        .map((r) => r.dims),
    ).toEqual(['service', 'service']);
  });
});
