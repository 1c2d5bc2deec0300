/**
 * Progress of the cold Go builds (control plane, kwok, OpenKruise, kubectl-kruise): `go build -v` prints one line per
 * package it compiles, and `go list -deps` says how many there can be, so a line every 15 s gives the percentage,
 * the elapsed time and an ETA.
 */

/** Receives one progress line. */
export type ProgressLog = (line: string) => void;

/** Duration as `1m05s` / `42s`. */
export function fmtSecs(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** What {@link goCompileProgress} reports on. */
export interface CompileProgressOptions {
  /** Line prefix and step, e.g. `[build] step 1/2 k8stools`. */
  label: string;
  /** Packages `go list -deps` names: the most `go build -v` can print. */
  total: number;
  log: ProgressLog;
  /** Minimum interval between lines (ms); default 15,000. */
  everyMs?: number;
  /** Clock (ms), for tests; default Date.now. */
  now?: () => number;
}

/**
 * A `go build -v` output-line handler that logs `<label>: 42% (1234/2900 packages), 2m10s, ETA 3m01s` at most every
 * `everyMs`. Lines starting `go: ` (downloads) are not packages. The ETA appears once 2 % are done; packages found in
 * Go's build cache are never printed, so a warm build ends below 100 %.
 */
export function goCompileProgress(o: CompileProgressOptions): (line: string) => void {
  const now = o.now ?? Date.now;
  const every = o.everyMs ?? 15_000;
  const started = now();
  let compiled = 0;
  let last = started;
  return (line: string) => {
    if (!line || line.startsWith('go: ')) return;
    compiled++;
    const t = now();
    if (t - last < every) return;
    last = t;
    const done = Math.min(compiled / Math.max(o.total, 1), 1);
    const spent = t - started;
    const eta = done >= 0.02 ? `, ETA ${fmtSecs((spent / done) * (1 - done))}` : '';
    o.log(
      `${o.label}: ${Math.round(done * 100)}% (${compiled}/${o.total} packages), ${fmtSecs(spent)}${eta}`,
    );
  };
}
