/**
 * Cached build of one binary of a Go module from the module proxy, shared by the OpenKruise reference
 * (build.ts: kruise-manager) and the kubectl-kruise plugin (infra/kubectl-kruise): the module is downloaded with
 * `go mod download -json`, copied to a writable folder (so that its own `replace` directives apply) and built there
 * with `go build`. A stamp makes it a no-op once built; a lock keeps two builds of one folder apart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { goModDownload, run, type Log } from '../local/build.js';
import { withLock } from '../../lib/core/dirLock.js';
import { fmtSecs, goCompileProgress } from '../local/progress.js';

export { fmtSecs };

/** Flags of `go build` besides -o and -p (part of the stamp). -buildvcs=false: the copy is no git checkout. */
export const GO_BUILD_FLAGS = ['-buildvcs=false', '-ldflags=-s -w'];

/** One binary of one module version, and where it is cached. */
export interface GoModuleTarget {
  /** module path, e.g. `github.com/openkruise/kruise-tools` */
  module: string;
  /** tag served by the module proxy, e.g. `v1.2.2` */
  version: string;
  /** true when the checksum database does not know the version (then downloaded with GONOSUMDB=<module>) */
  notInSumdb: boolean;
  /** package to build, relative to the module root, e.g. `.` or `./cmd/plugin` */
  pkg: string;
  /** cache folder of this version */
  dir: string;
  /** writable copy of the module */
  src: string;
  /** the built binary */
  binary: string;
  /** build stamp (JSON) */
  stamp: string;
  /** files besides the binary that must exist for the build to count (e.g. manifests inside `src`) */
  alsoNeeded: string[];
  /** prefix of every progress line, e.g. `[reference]` */
  prefix: string;
  /** how the version is named in sentences, e.g. `OpenKruise v1.9.0` */
  title: string;
  /** cold build time shown in the first line, e.g. `~7 min of one core` */
  coldHint: string;
  /**
   * `test`: the binary is the package's test binary (`go test -c`), compiled inside the module copy `inside`
   * prepared (built first when missing; never downloaded or copied again). Default `build`: `go build`.
   */
  compile?: 'build' | 'test';
  /** with `compile: 'test'`: the target whose module copy (same module and version, same `src`) is used */
  inside?: GoModuleTarget;
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
function goEnv(t: GoModuleTarget): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GOWORK: 'off',
    GOTOOLCHAIN: 'local',
    GOFLAGS: '-mod=mod',
    GOMAXPROCS: String(buildJobs()),
  };
  if (t.notInSumdb) env.GONOSUMDB = [process.env.GONOSUMDB, t.module].filter((s) => s).join(',');
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
 * Why the cache does not hold a usable build of `t`, or undefined when it does (binary and `alsoNeeded` present,
 * built from `t.version` by this machine's Go with GO_BUILD_FLAGS). Reads the cache and runs `go version`.
 * @returns one sentence, e.g. "OpenKruise v1.9.0 is not built (no <dir>/.stamp)"
 */
export async function goModuleNotBuiltReason(t: GoModuleTarget): Promise<string | undefined> {
  if (t.inside) {
    const outer = await goModuleNotBuiltReason(t.inside);
    if (outer) return outer;
  }
  const stamp = readStamp(t.stamp);
  if (!stamp) return `${t.title} is not built (no ${t.stamp})`;
  if (stamp.version !== t.version) return `${t.stamp} is of ${stamp.version}, not ${t.version}`;
  const missing = [t.binary, ...t.alsoNeeded].filter((f) => !fs.existsSync(f));
  if (missing.length) return `${t.title}: ${missing.join(', ')} missing`;
  const go = await goVersion();
  if (stamp.go !== go) return `${t.title} was built by ${stamp.go}, this machine has ${go}`;
  if (stamp.flags.join(' ') !== GO_BUILD_FLAGS.join(' ')) {
    return `${t.title} was built with flags ${stamp.flags.join(' ')}, expected ${GO_BUILD_FLAGS.join(' ')}`;
  }
  return undefined;
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
 * Builds `t` into its cache folder unless it is there already (checked again under the folder's lock).
 * Progress lines every 15 s (percent of packages compiled, ETA) and one summary line at the end.
 * @returns true when this call built it, false when the cache already held it
 * @throws Error with go's output tail when the download or the build fails
 */
export async function ensureGoModule(t: GoModuleTarget, log: Log): Promise<boolean> {
  if ((await goModuleNotBuiltReason(t)) === undefined) return false;
  if (t.inside) await ensureGoModule(t.inside, log);
  fs.mkdirSync(t.dir, { recursive: true });
  const lock = t.inside ? `${t.stamp}.lock` : path.join(t.dir, '.build.lock');
  return withLock(lock, log, async () => {
    const why = await goModuleNotBuiltReason(t);
    if (why === undefined) return false;
    log(`${t.prefix} building ${path.basename(t.binary)}: ${why}`);
    if (t.inside) await buildTestLocked(t, t.inside, log);
    else await buildLocked(t, log);
    return true;
  });
}

/**
 * `go test -c` of `t.pkg` inside the module copy of `inside`: its dependencies first compiled with `go build -v`
 * (for the progress lines), then the test binary linked.
 */
async function buildTestLocked(t: GoModuleTarget, inside: GoModuleTarget, log: Log): Promise<void> {
  const t0 = Date.now();
  fs.rmSync(t.stamp, { force: true });
  const env = goEnv(t);
  const sum = readStamp(inside.stamp)?.sum ?? '';
  log(`${t.prefix} ${t.title} -> ${t.binary} (inside ${t.src}; cold: ${t.coldHint})`);
  // `go list -deps -test` also names the test variants ("p [p.test]") and the generated main ("p.test")
  const deps: string[] = [];
  await run('go', ['list', '-deps', '-test', t.pkg], {
    cwd: t.src,
    env,
    onLine: (l) => void (l && !l.includes(' ') && !l.endsWith('.test') && deps.push(l)),
  });
  const tDeps = Date.now();
  await compileWithProgress(t, ['build', ...deps], deps.length, log);
  await run('go', ['test', '-c', '-vet=off', `-p=${buildJobs()}`, ...GO_BUILD_FLAGS, '-o', t.binary, t.pkg], {
    cwd: t.src,
    env,
  });
  await finish(t, sum, t0, log, `compile ${fmtSecs(Date.now() - tDeps)}`);
}

/**
 * Runs `go <args…>` with `-v -p=N` and the build flags in `t.src` (args[0] the go command, the rest its flags and
 * packages), logging every 15 s the share of `total` packages compiled and an ETA (infra/local/progress.ts).
 */
async function compileWithProgress(
  t: GoModuleTarget,
  args: string[],
  total: number,
  log: Log,
): Promise<void> {
  const [cmd = 'build', ...rest] = args;
  await run('go', [cmd, '-v', `-p=${buildJobs()}`, ...GO_BUILD_FLAGS, ...rest], {
    cwd: t.src,
    env: goEnv(t),
    onLine: goCompileProgress({ label: `${t.prefix} go ${cmd}`, total, log }),
  });
}

/** Writes the stamp of a finished build and logs its summary line (`detail`: how the time was spent). */
async function finish(t: GoModuleTarget, sum: string, t0: number, log: Log, detail: string): Promise<void> {
  const stamp: Stamp = { version: t.version, sum, go: await goVersion(), flags: GO_BUILD_FLAGS };
  fs.writeFileSync(t.stamp, `${JSON.stringify(stamp, null, 2)}\n`);
  const mb = Math.round(fs.statSync(t.binary).size / 1e6);
  log(
    `${t.prefix} built ${path.basename(t.binary)} ${t.version} (${mb} MB) in ${fmtSecs(Date.now() - t0)}: ${detail} (-p=${buildJobs()})`,
  );
}

async function buildLocked(t: GoModuleTarget, log: Log): Promise<void> {
  const t0 = Date.now();
  fs.rmSync(t.stamp, { force: true });
  const env = goEnv(t);
  log(`${t.prefix} ${t.title} -> ${t.dir} (cold: ${t.coldHint})`);
  const mod = await goModDownload(`${t.module}@${t.version}`, env);
  writableCopy(mod.dir, t.src);
  const tCopy = Date.now();
  log(`${t.prefix} module ${mod.sum} copied in ${fmtSecs(tCopy - t0)}; downloading its dependencies`);
  await run('go', ['mod', 'download'], { cwd: t.src, env });
  let total = 0;
  await run('go', ['list', '-deps', t.pkg], { cwd: t.src, env, onLine: (l) => void (l && total++) });
  const tDeps = Date.now();
  log(`${t.prefix} dependencies ready in ${fmtSecs(tDeps - tCopy)}; compiling up to ${total} packages`);
  await compileWithProgress(t, ['build', '-o', t.binary, t.pkg], total, log);
  await finish(
    t,
    mod.sum,
    t0,
    log,
    `download+copy ${fmtSecs(tCopy - t0)}, dependencies ${fmtSecs(tDeps - tCopy)}, compile ${fmtSecs(Date.now() - tDeps)}`,
  );
}
