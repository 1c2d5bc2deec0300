/**
 * Cached build of OpenKruise's kruise-manager (`npm run reference:build`): the module is downloaded with
 * `go mod download -json`, copied to a writable folder (so that its own `replace` directives apply) and built
 * there with `go build`, into `<cache>/openkruise-<version>/` (see settings.ts). A stamp makes it a no-op once
 * built. Uses the control plane's process runner and lock (infra/local).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run, type Log } from '../local/build.js';
import { withLock } from '../local/lock.js';
import {
  DEFAULT_OPENKRUISE_VERSION,
  FALLBACK_OPENKRUISE_VERSION,
  NOT_IN_SUMDB,
  OPENKRUISE_MODULE,
  openKruisePaths,
  requestedVersion,
  type OpenKruisePaths,
} from './settings.js';

/** Flags of `go build` besides -o and -p (part of the stamp). -buildvcs=false: the copy is no git checkout. */
const GO_BUILD_FLAGS = ['-buildvcs=false', '-ldflags=-s -w'];

/** What ensureOpenKruise hands back. */
export interface OpenKruiseBuild {
  /** the version built (the fallback when the requested one could not be downloaded) */
  version: string;
  paths: OpenKruisePaths;
  /** true when this call built it, false when the cache already held it */
  built: boolean;
}

/** Contents of the stamp file. */
interface Stamp {
  version: string;
  /** h1: hash of the module zip, from `go mod download -json` */
  sum: string;
  go: string;
  flags: string[];
}

/**
 * Parallelism of the build (`go build -p` and GOMAXPROCS of the compilers): env KRUISELESS_BUILD_JOBS, default half
 * the cores (at least 1), so that a build leaves room for the rest of the machine.
 */
export function buildJobs(): number {
  const env = Number(process.env.KRUISELESS_BUILD_JOBS);
  if (Number.isInteger(env) && env > 0) return env;
  return Math.max(1, Math.floor(os.availableParallelism() / 2));
}

/** Environment of every go command: module mode inside the copy, the machine's toolchain, no workspace. */
function goEnv(version: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GOWORK: 'off',
    GOTOOLCHAIN: 'local',
    GOFLAGS: '-mod=mod',
    GOMAXPROCS: String(buildJobs()),
  };
  if (NOT_IN_SUMDB.has(version)) {
    env.GONOSUMDB = [process.env.GONOSUMDB, OPENKRUISE_MODULE].filter((s) => s).join(',');
  }
  return env;
}

async function goVersion(): Promise<string> {
  const [line] = await run('go', ['version'], { env: { ...process.env, GOTOOLCHAIN: 'local' } });
  return line.trim();
}

function readStamp(file: string): Stamp | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

/**
 * Why the cache does not hold a usable build of `version`, or undefined when it does (a manager and module copy of
 * `version` built by this machine's Go with these flags). Reads the cache and runs `go version`; builds nothing.
 * @returns one sentence, e.g. "OpenKruise v1.9.0 is not built (no <dir>/.stamp)"
 */
export async function openKruiseNotBuiltReason(version: string): Promise<string | undefined> {
  const p = openKruisePaths(version);
  const stamp = readStamp(p.stamp);
  if (!stamp) return `OpenKruise ${version} is not built (no ${p.stamp})`;
  if (stamp.version !== version) return `${p.stamp} is of ${stamp.version}, not ${version}`;
  const missing = [p.manager, p.crdBases, p.webhookManifests].filter((f) => !fs.existsSync(f));
  if (missing.length) return `OpenKruise ${version}: ${missing.join(', ')} missing`;
  const go = await goVersion();
  if (stamp.go !== go) return `OpenKruise ${version} was built by ${stamp.go}, this machine has ${go}`;
  if (stamp.flags.join(' ') !== GO_BUILD_FLAGS.join(' ')) {
    return `OpenKruise ${version} was built with flags ${stamp.flags.join(' ')}, expected ${GO_BUILD_FLAGS.join(' ')}`;
  }
  return undefined;
}

/** True when the cache holds a usable build of `version` (see openKruiseNotBuiltReason). */
export async function openKruiseUpToDate(version: string): Promise<boolean> {
  return (await openKruiseNotBuiltReason(version)) === undefined;
}

/** Duration as `1m05s` / `42s`. */
export function fmtSecs(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/**
 * `go mod download -json <module>@<version>`.
 * @returns the read-only module folder and its h1: sum
 * @throws Error with go's message when the proxy refuses the version or the checksum cannot be verified
 */
async function downloadModule(version: string): Promise<{ dir: string; sum: string }> {
  const lines: string[] = [];
  const spec = `${OPENKRUISE_MODULE}@${version}`;
  let failure: unknown;
  try {
    await run('go', ['mod', 'download', '-json', spec], {
      cwd: os.tmpdir(),
      env: goEnv(version),
      onLine: (l) => lines.push(l),
    });
  } catch (e) {
    failure = e;
  }
  const text = lines.join('\n');
  let parsed: { Dir?: string; Sum?: string; Error?: string } = {};
  try {
    parsed = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as typeof parsed;
  } catch {
    // no JSON: go failed before printing it; reported below
  }
  if (failure || parsed.Error || !parsed.Dir || !parsed.Sum) {
    const why = parsed.Error ?? (failure instanceof Error ? failure.message : text);
    throw new Error(`go mod download ${spec} failed: ${why}`);
  }
  return { dir: parsed.Dir, sum: parsed.Sum };
}

/** Copies the read-only module folder to `dst` and makes the copy writable (files u+w, folders u+rwx). */
function writableCopy(from: string, dst: string): void {
  fs.rmSync(dst, { recursive: true, force: true });
  fs.cpSync(from, dst, { recursive: true });
  const walk = (p: string): void => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    fs.chmodSync(p, st.mode | (st.isDirectory() ? 0o700 : 0o200));
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
  };
  walk(dst);
}

/**
 * Builds kruise-manager of `version` (default: env KRUISELESS_OPENKRUISE_VERSION or v1.9.0) into the cache unless
 * it is there already. When DEFAULT_OPENKRUISE_VERSION cannot be downloaded or built, logs why
 * (`[reference] OpenKruise v1.9.0 could not be built: <go's message>`) and builds FALLBACK_OPENKRUISE_VERSION
 * instead; a version asked for explicitly other than the default has no fallback.
 * Cold: about 7 min of one core; cached: well under a second. Progress lines every 15 s (percent of packages
 * compiled, ETA), one summary line at the end.
 * @throws Error with go's output tail when the download or the build fails (for the default: of the fallback too,
 *   naming both)
 */
export async function ensureOpenKruise(opts: { version?: string; log?: Log } = {}): Promise<OpenKruiseBuild> {
  const log = opts.log ?? console.log;
  const version = opts.version ?? requestedVersion();
  try {
    return await ensureVersion(version, log);
  } catch (e) {
    if (version !== DEFAULT_OPENKRUISE_VERSION) throw e;
    const why = e instanceof Error ? e.message : String(e);
    log(`[reference] OpenKruise ${version} could not be built: ${why}`);
    log(`[reference] falling back to OpenKruise ${FALLBACK_OPENKRUISE_VERSION}`);
    try {
      return await ensureVersion(FALLBACK_OPENKRUISE_VERSION, log);
    } catch (e2) {
      const why2 = e2 instanceof Error ? e2.message : String(e2);
      throw new Error(
        `OpenKruise ${version} could not be built (${why}), nor the fallback ${FALLBACK_OPENKRUISE_VERSION}: ${why2}`,
        { cause: e2 },
      );
    }
  }
}

/** ensureOpenKruise for exactly `version` (no fallback), under the version's build lock. */
async function ensureVersion(version: string, log: Log): Promise<OpenKruiseBuild> {
  const paths = openKruisePaths(version);
  if (await openKruiseUpToDate(version)) return { version, paths, built: false };
  fs.mkdirSync(paths.dir, { recursive: true });
  return withLock(path.join(paths.dir, '.build.lock'), log, async () => {
    if (await openKruiseUpToDate(version)) return { version, paths, built: false };
    await buildLocked(version, paths, log);
    return { version, paths, built: true };
  });
}

async function buildLocked(version: string, paths: OpenKruisePaths, log: Log): Promise<void> {
  const t0 = Date.now();
  fs.rmSync(paths.stamp, { force: true });
  const env = goEnv(version);
  log(`[reference] OpenKruise ${version} -> ${paths.dir} (cold: ~7 min of one core)`);
  const mod = await downloadModule(version);
  writableCopy(mod.dir, paths.src);
  const tCopy = Date.now();
  log(`[reference] module ${mod.sum} copied in ${fmtSecs(tCopy - t0)}; downloading its dependencies`);
  await run('go', ['mod', 'download'], { cwd: paths.src, env });
  let total = 0;
  await run('go', ['list', '-deps', '.'], { cwd: paths.src, env, onLine: (l) => void (l && total++) });
  const tDeps = Date.now();
  log(`[reference] dependencies ready in ${fmtSecs(tDeps - tCopy)}; compiling up to ${total} packages`);
  let compiled = 0;
  let lastReport = Date.now();
  const jobs = buildJobs();
  await run('go', ['build', '-v', `-p=${jobs}`, ...GO_BUILD_FLAGS, '-o', paths.manager, '.'], {
    cwd: paths.src,
    env,
    onLine: (line) => {
      if (!line || line.startsWith('go: ')) return;
      compiled++;
      if (Date.now() - lastReport < 15000) return;
      lastReport = Date.now();
      const done = Math.min(compiled / Math.max(total, 1), 1);
      const spent = Date.now() - tDeps;
      const eta = done > 0.02 ? ` ETA ${fmtSecs((spent / done) * (1 - done))}` : '';
      log(
        `[reference] go build ${Math.round(done * 100)}% (${compiled}/${total} packages) ${fmtSecs(spent)}${eta}`,
      );
    },
  });
  const stamp: Stamp = { version, sum: mod.sum, go: await goVersion(), flags: GO_BUILD_FLAGS };
  fs.writeFileSync(paths.stamp, `${JSON.stringify(stamp, null, 2)}\n`);
  const mb = Math.round(fs.statSync(paths.manager).size / 1e6);
  log(
    `[reference] built kruise-manager ${version} (${mb} MB) in ${fmtSecs(Date.now() - t0)}: download+copy ` +
      `${fmtSecs(tCopy - t0)}, dependencies ${fmtSecs(tDeps - tCopy)}, compile ${fmtSecs(Date.now() - tDeps)} (-p=${jobs})`,
  );
}
