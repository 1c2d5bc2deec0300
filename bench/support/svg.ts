/**
 * A step-line chart as an SVG string (no library on the machine's npm mirror fits a one-chart job better than a
 * few lines of markup): one panel per controller side by side, a shared time axis, one line per series. Used for
 * "pods per revision over time" of the rollout. Pure.
 */

/** One line: a name for the legend, a colour, and points `[seconds, value]` in time order. */
export interface Series {
  name: string;
  color: string;
  points: readonly (readonly [number, number])[];
}

/** One panel (one controller). */
export interface Panel {
  title: string;
  series: readonly Series[];
}

/** Chart settings. */
export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  /** Pixel size of one panel (default 320 × 220). */
  panelWidth?: number;
  panelHeight?: number;
}

const MARGIN = { left: 48, right: 12, top: 28, bottom: 36 };

/** XML text escape for titles and names. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A "nice" axis maximum: 1, 2 or 5 × 10^k at or above `v` (at least 1). */
export function niceMax(v: number): number {
  if (!(v > 1)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const r1 = (x: number): string => (Math.round(x * 10) / 10).toString();

/** Step path (`value` holds until the next point) through `points`, mapped by `x` and `y`. */
function stepPath(
  points: readonly (readonly [number, number])[],
  x: (t: number) => number,
  y: (v: number) => number,
): string {
  let d = '';
  let prevY: number | undefined;
  for (const [t, v] of points) {
    if (prevY === undefined) d += `M${r1(x(t))},${r1(y(v))}`;
    else d += `H${r1(x(t))}V${r1(y(v))}`;
    prevY = v;
  }
  return d;
}

/**
 * Render the panels with common axes (time from 0 to the largest t, values from 0 to the largest value).
 * @returns a complete `<svg>` document
 */
export function stepChart(panels: readonly Panel[], opts: ChartOptions): string {
  const w = opts.panelWidth ?? 320;
  const h = opts.panelHeight ?? 220;
  const all = panels.flatMap((p) => p.series.flatMap((s) => s.points));
  const tMax = niceMax(Math.max(1, ...all.map(([t]) => t)));
  const vMax = niceMax(Math.max(1, ...all.map(([, v]) => v)));
  const legend = [...new Map(panels.flatMap((p) => p.series.map((s) => [s.name, s.color]))).entries()];
  const width = w * panels.length;
  const height = h + 24 + 18 * Math.ceil(legend.length / 3);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="16" text-anchor="middle" font-size="13">${escapeXml(opts.title)}</text>`,
  ];
  panels.forEach((panel, i) => {
    const x0 = i * w + MARGIN.left;
    const x1 = (i + 1) * w - MARGIN.right;
    const y0 = h - MARGIN.bottom + 24;
    const y1 = MARGIN.top + 12;
    const x = (t: number): number => x0 + ((x1 - x0) * t) / tMax;
    const y = (v: number): number => y0 - ((y0 - y1) * v) / vMax;
    out.push(
      `<text x="${r1((x0 + x1) / 2)}" y="${r1(y1 - 6)}" text-anchor="middle" font-weight="bold">${escapeXml(panel.title)}</text>`,
      `<path d="M${x0},${y1}V${y0}H${x1}" fill="none" stroke="#444"/>`,
    );
    for (const f of [0, 0.5, 1]) {
      out.push(
        `<text x="${r1(x(tMax * f))}" y="${r1(y0 + 14)}" text-anchor="middle">${r1(tMax * f)}</text>`,
        `<text x="${x0 - 4}" y="${r1(y(vMax * f) + 4)}" text-anchor="end">${r1(vMax * f)}</text>`,
      );
    }
    out.push(
      `<text x="${r1((x0 + x1) / 2)}" y="${r1(y0 + 28)}" text-anchor="middle">${escapeXml(opts.xLabel)}</text>`,
    );
    if (i === 0)
      out.push(
        `<text transform="translate(12,${r1((y0 + y1) / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(opts.yLabel)}</text>`,
      );
    for (const s of panel.series)
      if (s.points.length > 0)
        out.push(
          `<path d="${stepPath(s.points, x, y)}" fill="none" stroke="${s.color}" stroke-width="1.5"/>`,
        );
  });
  legend.forEach(([name, color], i) => {
    const lx = 12 + (i % 3) * 220;
    const ly = h + 30 + 18 * Math.floor(i / 3);
    out.push(
      `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 18}" y2="${ly - 4}" stroke="${color}" stroke-width="2"/>`,
      `<text x="${lx + 24}" y="${ly}">${escapeXml(name)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
