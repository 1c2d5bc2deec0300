/**
 * Samples of one metric in the Prometheus text exposition format (what the API server's `/metrics` returns,
 * https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format). Pure.
 */

/** One sample: its labels and value. */
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** `{a="b",c="d"}` → `{ a: 'b', c: 'd' }` (the API server's label values contain no quotes or commas). */
function labelsOf(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

/**
 * Every sample of `metric` (exact name, with labels) in `text`.
 * @returns in the order they appear; a metric without labels yields nothing
 */
export function samples(text: string, metric: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`)) continue;
    const close = line.lastIndexOf('}');
    out.push({
      labels: labelsOf(line.slice(metric.length + 1, close)),
      value: Number(line.slice(close + 1)),
    });
  }
  return out;
}
