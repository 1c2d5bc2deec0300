/**
 * The Lambda {@link MetricsSink}: CloudWatch Embedded Metric Format lines serialised by Powertools Metrics, one line
 * per dimension set of an invocation (README.md#observability). Namespace from `POWERTOOLS_METRICS_NAMESPACE`
 * (serverless.yml sets `Kruiseless`), service dimension from `POWERTOOLS_SERVICE_NAME`.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC_UNIT } from '../core/metrics.js';
import type { InvocationMetrics, MetricPoint, MetricsSink } from './metrics.js';

/** Options of {@link emfSink}. */
export interface EmfSinkOptions {
  /** CloudWatch namespace; default `POWERTOOLS_METRICS_NAMESPACE`, else `Kruiseless`. */
  namespace?: string;
  /** The `service` dimension; default `POWERTOOLS_SERVICE_NAME`, else `kruiseless`. */
  serviceName?: string;
  /** Where each EMF JSON line goes; default standard output (where Lambda's log agent reads EMF). */
  write?: (line: string) => void;
}

/** Namespace when neither the option nor `POWERTOOLS_METRICS_NAMESPACE` names one. */
export const DEFAULT_NAMESPACE = 'Kruiseless';

/**
 * Whether points with these dimensions are also published under `service` alone (a second dimension set of their
 * EMF document): those that carry only the `controller` dimension — reconcile errors and durations, requeues, lease
 * contention, coalesced events. Summed over every controller, they are the series the reconcile error-rate alarm and
 * the dashboard read (serverless.yml); per controller a user running several kinds would need one alarm per kind.
 */
export function alsoServiceWide(dimensions: Readonly<Record<string, string>>): boolean {
  const names = Object.keys(dimensions);
  return names.length === 1 && names[0] === 'controller';
}

/** Points grouped by dimension set (one EMF document each), in first-seen order. */
function byDimensions(points: MetricPoint[]): MetricPoint[][] {
  const groups = new Map<string, MetricPoint[]>();
  for (const p of points) {
    const id = JSON.stringify(Object.entries(p.dimensions).sort(([a], [b]) => a.localeCompare(b)));
    groups.set(id, [...(groups.get(id) ?? []), p]);
  }
  return [...groups.values()];
}

/**
 * A sink writing EMF. Each invocation's properties (object key, correlation ids) go into every line as metadata.
 * Powertools' own warnings (an invalid dimension) go to standard error.
 */
export function emfSink(options: EmfSinkOptions = {}): MetricsSink {
  const metrics = new Metrics({
    namespace: options.namespace ?? process.env.POWERTOOLS_METRICS_NAMESPACE ?? DEFAULT_NAMESPACE,
    serviceName: options.serviceName ?? process.env.POWERTOOLS_SERVICE_NAME ?? 'kruiseless',
  });
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`));
  return {
    flush(invocation: InvocationMetrics) {
      // synchronous from first add to clear: concurrent invocations of one process cannot interleave here
      for (const group of byDimensions(invocation.points())) {
        const dimensions = group[0]?.dimensions ?? {};
        metrics.addDimensions({ ...dimensions });
        if (alsoServiceWide(dimensions)) metrics.addDimensions({});
        for (const p of group) {
          const unit = METRIC_UNIT[p.name] === 'Seconds' ? MetricUnit.Seconds : MetricUnit.Count;
          for (const v of p.values) metrics.addMetric(p.name, unit, v);
        }
        for (const [k, v] of Object.entries(invocation.properties))
          metrics.addMetadata(k, typeof v === 'string' ? v : JSON.stringify(v));
        const line = JSON.stringify(metrics.serializeMetrics());
        metrics.clearMetrics();
        metrics.clearDimensions();
        metrics.clearMetadata();
        write(line);
      }
    },
  };
}
