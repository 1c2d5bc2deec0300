/**
 * Builds the control-plane binaries into the cache folder (versions.ts `binDir()`), only when the
 * pinned versions change: a stamp file holds a hash of go.mod, go.sum, main.go, the versions and the
 * Go toolchain version. Run directly with `npm run cluster:build`.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withLock } from '../../lib/core/dirLock.js';
import { ensureProvisioner } from './provisioner.js';
import { fmtSecs, goCompileProgress } from './progress.js';
import {
  COLD_BUILD_ESTIMATE,
  binDir,
  binPath,
  ETCD_VERSION,
  KUBERNETES_VERSION,
  KWOK_VERSION,
  LOCAL_DIR,
  MULTICALL_NAMES,
} from './versions.js';

export type Log = (line: string) => void;

const STAMP = '.stamp';
/** Flags of the tools build besides -ldflags (part of the stamp). -buildvcs=false: no git lookups in a checkout. */
const GO_BUILD_FLAGS = ['-trimpath', '-buildvcs=false'];

/** -ldflags for the multi-call binary: stripped, and `--version`/`/version` report the real version. */
function ldflags(): string {
  const [major, minor] = KUBERNETES_VERSION.replace(/^v/, '').split('.');
  const x = (pkg: string, key: string, value: string): string => `-X ${pkg}.${key}=${value}`;
  const vars: string[] = [];
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    vars.push(
      x(pkg, 'gitVersion', KUBERNETES_VERSION),
      x(pkg, 'gitMajor', major),
      x(pkg, 'gitMinor', minor),
      x(pkg, 'gitTreeState', 'clean'),
    );
  }
  return ['-s', '-w', ...vars].join(' ');
}

/** Environment for every go command: module mode in the tools module, static binaries, local toolchain. */
export function goEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GOWORK: 'off', CGO_ENABLED: '0', GOTOOLCHAIN: 'local' };
}

/**
 * Runs a command, calling `onLine` for every stdout/stderr line.
 * @returns the last 40 lines of output
 * @throws Error with the command and the output tail when it exits non-zero or cannot start
 */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; onLine?: (line: string) => void } = {},
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: 'pipe' });
    const tail: string[] = [];
    const feed = (buf: Buffer, carry: { rest: string }): void => {
      const lines = (carry.rest + buf.toString()).split('\n');
      carry.rest = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 40) tail.shift();
        opts.onLine?.(line);
      }
    };
    const out = { rest: '' };
    const err = { rest: '' };
    child.stdout.on('data', (b: Buffer) => feed(b, out));
    child.stderr.on('data', (b: Buffer) => feed(b, err));
    child.on('error', (e) => reject(new Error(`cannot run ${cmd}: ${e.message}`)));
    child.on('close', (code) => {
      for (const rest of [out.rest, err.rest]) if (rest) tail.push(rest);
      if (code === 0) resolve(tail);
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${tail.join('\n')}`));
    });
  });
}

/** Hash of everything that decides what the binaries are; a different hash means rebuild. */
async function computeStamp(): Promise<string> {
  const h = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) h.update(fs.readFileSync(path.join(LOCAL_DIR, f)));
  const [goVersion] = await run('go', ['version'], { env: goEnv() });
  h.update(
    [KUBERNETES_VERSION, ETCD_VERSION, KWOK_VERSION, goVersion, ldflags(), ...GO_BUILD_FLAGS].join('\n'),
  );
  return h.digest('hex');
}

/** True when the cache folder holds binaries built from the current pins. */
export async function binariesUpToDate(): Promise<boolean> {
  const stampFile = path.join(binDir(), STAMP);
  if (!fs.existsSync(stampFile)) return false;
  const names = ['k8stools', 'kwok', ...MULTICALL_NAMES] as const;
  if (!names.every((n) => fs.existsSync(binPath(n)))) return false;
  return fs.readFileSync(stampFile, 'utf8').trim() === (await computeStamp());
}

/** Counts the packages `go list -deps <pkg>` names in `cwd` (the most a `go build -v` of it can compile). */
export async function countDeps(pkg: string, cwd: string): Promise<number> {
  let total = 0;
  await run('go', ['list', '-deps', pkg], { cwd, env: goEnv(), onLine: (l) => void (l && total++) });
  return total;
}

/**
 * `go mod download -json <module>@<version>` (`spec`), outside any module, with `env`.
 * @returns the read-only module folder and its h1: sum
 * @throws Error `go mod download <module>@<version> failed: <go's message>` when the proxy refuses the version or
 *   the checksum cannot be verified
 */
export async function goModDownload(
  spec: string,
  env: NodeJS.ProcessEnv,
): Promise<{ dir: string; sum: string }> {
  const lines: string[] = [];
  let failure: unknown;
  try {
    await run('go', ['mod', 'download', '-json', spec], {
      cwd: os.tmpdir(),
      env,
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

/**
 * Makes sure every binary of the local control plane is built: the Kubernetes ones ({@link ensureKubernetes}) and
 * the volume provisioner (provisioner.ts `ensureProvisioner`, its own cache folder).
 * @param log receives progress lines
 * @returns true when something was built
 * @throws Error with the go command's output tail when a build fails
 */
export async function ensureBinaries(log: Log = console.log): Promise<boolean> {
  const kubernetes = await ensureKubernetes(log);
  const provisioner = await ensureProvisioner(log);
  return kubernetes || provisioner;
}

/**
 * Makes sure etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl (one multi-call
 * binary `k8stools` plus symlinks) and kwok exist in `binDir()` for the pinned versions.
 * Cold: {@link COLD_BUILD_ESTIMATE}; up to date: well under a second. Two steps (k8stools, kwok), each with a
 * progress line every 15 s (percent of packages, elapsed, ETA: infra/local/progress.ts) and a closing line.
 * @param log receives progress lines
 * @returns true when something was built
 * @throws Error with the go command's output tail when a build fails (e.g. no Go, no module proxy)
 */
async function ensureKubernetes(log: Log): Promise<boolean> {
  if (await binariesUpToDate()) return false;
  const dir = binDir();
  fs.mkdirSync(dir, { recursive: true });
  return withLock(path.join(dir, '.build.lock'), log, async () => {
    if (await binariesUpToDate()) return false; // another process built it while we waited
    const stamp = await computeStamp();
    fs.rmSync(path.join(dir, STAMP), { force: true });
    const started = Date.now();
    const secs = (): string => fmtSecs(Date.now() - started);
    log(
      `[build] Kubernetes ${KUBERNETES_VERSION} + etcd ${ETCD_VERSION} + kwok ${KWOK_VERSION} -> ${dir} ` +
        `(cold: ${COLD_BUILD_ESTIMATE}; 2 steps)`,
    );
    const tools = await countDeps('.', LOCAL_DIR);
    log(
      `[build] step 1/2 k8stools (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl): up to ${tools} packages`,
    );
    await run(
      'go',
      [
        'build',
        '-v',
        ...GO_BUILD_FLAGS,
        `-p=${os.availableParallelism()}`,
        '-ldflags',
        ldflags(),
        '-o',
        binPath('k8stools'),
        '.',
      ],
      {
        cwd: LOCAL_DIR,
        env: goEnv(),
        onLine: goCompileProgress({ label: '[build] step 1/2 k8stools', total: tools, log }),
      },
    );
    log(`[build] step 1/2 k8stools linked after ${secs()}`);
    for (const name of MULTICALL_NAMES) {
      fs.rmSync(binPath(name), { force: true });
      fs.symlinkSync('k8stools', binPath(name));
    }
    const kwokDir = (await goModDownload(`sigs.k8s.io/kwok@${KWOK_VERSION}`, goEnv())).dir;
    const kwok = await countDeps('./cmd/kwok', kwokDir);
    log(`[build] step 2/2 kwok ${KWOK_VERSION}: up to ${kwok} packages`);
    const t2 = Date.now();
    await run(
      'go',
      ['install', '-v', '-trimpath', '-ldflags=-s -w', `sigs.k8s.io/kwok/cmd/kwok@${KWOK_VERSION}`],
      {
        cwd: os.tmpdir(),
        env: { ...goEnv(), GOBIN: dir },
        onLine: goCompileProgress({ label: '[build] step 2/2 kwok', total: kwok, log }),
      },
    );
    log(`[build] step 2/2 kwok installed after ${fmtSecs(Date.now() - t2)}`);
    fs.writeFileSync(path.join(dir, STAMP), `${stamp}\n`);
    log(`[build] done in ${secs()}`);
    return true;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureBinaries().then(
    (built) => console.log(built ? `[build] binaries in ${binDir()}` : `[build] up to date: ${binDir()}`),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
