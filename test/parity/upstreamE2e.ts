/**
 * Runs OpenKruise's own e2e suite binary (infra/reference/build.ts `ensureOpenKruiseE2e`) against one cluster:
 * the results come from the JSON report ginkgo writes (upstreamE2eReport.ts); the text output goes to a log file
 * and only feeds the progress lines (one per finished spec, with an ETA). While it runs, terminating ImagePullJobs
 * are released from OpenKruise's deletion-protection finalizer, which no kruise-daemon clears here
 * (./imagePullJobRelease.ts), so a spec is not failed by its namespace clean-up.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { KubeConfig } from '@kubernetes/client-node';
import { IMAGE_PULL_JOB_PROTECTION, keepReleasingImagePullJobs } from './imagePullJobRelease.js';
import { parseGinkgoReport, type SpecResult } from './upstreamE2eReport.js';

/** Options of {@link runUpstreamE2e}. */
export interface UpstreamE2eRunOptions {
  /** the compiled suite (`kruise-e2e.test`) */
  binary: string;
  /** kubeconfig of the cluster whose controller is tested */
  kubeconfig: string;
  /**
   * `-ginkgo.focus-file`, one flag each: the kind's spec files (its ParityKind's `upstreamE2e.focusFiles`); not
   * empty. With more than one, each spec's name starts with its file (`parseGinkgoReport`'s `byFile`).
   */
  focusFiles: string[];
  /** `-ginkgo.focus`: regex of spec names (default: every spec of the file) */
  focus?: string;
  /** `-ginkgo.skip`: regex of spec names left out (e.g. those known to wait out a kubelet-only timeout) */
  skip?: string;
  /** where ginkgo writes its JSON report (replaced) */
  reportFile: string;
  /** the suite's text output (replaced) */
  logFile: string;
  /** one line per finished spec, and one when the suite starts */
  progress: (line: string) => void;
  /** label of the progress lines, e.g. `openkruise` */
  label: string;
}

/** Spec end markers of ginkgo's verbose output: `•` (passed or failed), `S [SKIPPED]`, `P [PENDING]`. */
const SPEC_END = /^(•|S \[SKIPPED\]|P \[PENDING\])/;
const SPEC_COUNT = /^Will run (\d+) of (\d+) specs/;
const SEPARATOR = /^-{20,}$/;

/**
 * Runs the suite once (`-ginkgo.v`, no colour, 2 h ginkgo timeout, working directory the binary's folder) and
 * reads its JSON report.
 * @returns the specs that ran, in run order
 * @throws Error when the suite ran no spec or wrote no report (the log file is named)
 */
export async function runUpstreamE2e(opts: UpstreamE2eRunOptions): Promise<SpecResult[]> {
  mkdirSync(path.dirname(opts.reportFile), { recursive: true });
  mkdirSync(path.dirname(opts.logFile), { recursive: true });
  rmSync(opts.reportFile, { force: true });
  const args = [
    ...opts.focusFiles.map((f) => `-ginkgo.focus-file=${f}`),
    ...(opts.focus ? [`-ginkgo.focus=${opts.focus}`] : []),
    ...(opts.skip ? [`-ginkgo.skip=${opts.skip}`] : []),
    '-ginkgo.v',
    '-ginkgo.no-color',
    '-ginkgo.timeout=2h',
    `-ginkgo.json-report=${opts.reportFile}`,
    '-e2e-verify-service-account=false',
  ];
  const log = createWriteStream(opts.logFile);
  // the specs' namespace clean-up would wait out its 5 min on a terminating ImagePullJob (./imagePullJobRelease.ts)
  const kc = new KubeConfig();
  kc.loadFromFile(opts.kubeconfig);
  const release = keepReleasingImagePullJobs(kc);
  const child = spawn(opts.binary, args, {
    cwd: path.dirname(opts.binary),
    env: { ...process.env, KUBECONFIG: opts.kubeconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.pipe(log, { end: false });
  const started = Date.now();
  let total = 0;
  let done = 0;
  let failed = 0;
  let current = '';
  let afterSeparator = false;
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    log.write(`${line}\n`);
    const count = SPEC_COUNT.exec(line);
    if (count) {
      total = Number(count[1]);
      opts.progress(`[upstream-e2e] ${opts.label}: ${total} specs to run (log: ${opts.logFile})`);
    } else if (SEPARATOR.test(line)) {
      afterSeparator = true;
      return;
    } else if (afterSeparator && line.trim() && !line.startsWith('[')) {
      current = line.replace(/ \[[^\]]*\]$/, '');
    } else if (SPEC_END.test(line) && current) {
      done += 1;
      const bad = /\[(FAILED|PANICKED|TIMEDOUT|INTERRUPTED|ABORTED)\]/.test(line);
      if (bad) failed += 1;
      const secs = (Date.now() - started) / 1000;
      const eta = total > done ? ` ETA ${Math.round(((secs / done) * (total - done)) / 60)} min` : '';
      opts.progress(
        `[upstream-e2e] ${opts.label} ${done}/${total} (${failed} failed) ${bad ? 'FAIL' : 'pass'}: ${current}${eta}`,
      );
      current = '';
    }
    afterSeparator = false;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  await release.stop();
  log.write(
    `[upstream-e2e] ImagePullJobs released from ${IMAGE_PULL_JOB_PROTECTION}: ${release.released()}\n`,
  );
  await new Promise<void>((resolve) => log.end(resolve));
  let text: string;
  try {
    text = readFileSync(opts.reportFile, 'utf8');
  } catch {
    throw new Error(`the e2e suite exited ${String(code)} without a report (log: ${opts.logFile})`);
  }
  const specs = parseGinkgoReport(text, true, opts.focusFiles.length > 1);
  if (specs.length === 0) throw new Error(`no spec matched the focus (log: ${opts.logFile})`);
  return specs;
}
