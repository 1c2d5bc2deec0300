/**
 * The local control plane's volume provisioner: `hostpath-provisioner` (provisioner/main.go), a program of the
 * ProvisionController of sigs.k8s.io/sig-storage-lib-external-provisioner, built from its own Go module into a cache
 * folder of its own (`<cache>/hostpath-provisioner-<library version>/`), so that the Kubernetes binaries' stamp and
 * folder (build.ts) stay as they are. Rebuilt only when provisioner/go.mod, go.sum, main.go or the Go version change.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countDeps, goEnv, run, type Log } from './build.js';
import { withLock } from '../../lib/core/dirLock.js';
import { fmtSecs, goCompileProgress } from './progress.js';
import { LOCAL_DIR } from './versions.js';

/** sigs.k8s.io/sig-storage-lib-external-provisioner version (must agree with provisioner/go.mod; part of the stamp). */
export const PROVISIONER_LIB_VERSION = 'v11.0.1';
/** The `provisioner` field of the StorageClasses the cluster installs (infra/local/storage-classes.yaml). */
export const PROVISIONER_NAME = 'kruiseless.io/hostpath';
/** The provisioner's Go module (provisioner/ next to this file). */
export const PROVISIONER_MODULE_DIR = path.join(LOCAL_DIR, 'provisioner');

const STAMP = '.stamp';

/** `$KRUISELESS_CACHE/hostpath-provisioner-<library version>` (default under `~/.cache/kruiseless`). */
export function provisionerDir(): string {
  const base = process.env.KRUISELESS_CACHE ?? path.join(os.homedir(), '.cache', 'kruiseless');
  return path.join(base, `hostpath-provisioner-${PROVISIONER_LIB_VERSION}`);
}

/** Absolute path of the built provisioner. */
export function provisionerBinary(): string {
  return path.join(provisionerDir(), 'hostpath-provisioner');
}

async function computeStamp(): Promise<string> {
  const h = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go'])
    h.update(fs.readFileSync(path.join(PROVISIONER_MODULE_DIR, f)));
  const [goVersion] = await run('go', ['version'], { env: goEnv() });
  h.update([PROVISIONER_LIB_VERSION, goVersion].join('\n'));
  return h.digest('hex');
}

/** True when the cached binary was built from the current sources and Go version. */
export async function provisionerUpToDate(): Promise<boolean> {
  const stampFile = path.join(provisionerDir(), STAMP);
  if (!fs.existsSync(stampFile) || !fs.existsSync(provisionerBinary())) return false;
  return fs.readFileSync(stampFile, 'utf8').trim() === (await computeStamp());
}

/**
 * Builds `hostpath-provisioner` into {@link provisionerDir} unless it is up to date: one step with a progress line
 * every 15 s (percent of packages, elapsed, ETA) and a closing line. Cold, after the Kubernetes build (which has
 * compiled client-go already): well under a minute; up to date: well under a second.
 * @returns true when it was built
 * @throws Error with go's output tail when the build fails (no Go, module proxy unreachable, compile error)
 */
export async function ensureProvisioner(log: Log = console.log): Promise<boolean> {
  if (await provisionerUpToDate()) return false;
  const dir = provisionerDir();
  fs.mkdirSync(dir, { recursive: true });
  return withLock(path.join(dir, '.build.lock'), log, async () => {
    if (await provisionerUpToDate()) return false;
    const stamp = await computeStamp();
    fs.rmSync(path.join(dir, STAMP), { force: true });
    const started = Date.now();
    const total = await countDeps('.', PROVISIONER_MODULE_DIR);
    const label = `[build] hostpath-provisioner (sig-storage-lib-external-provisioner ${PROVISIONER_LIB_VERSION})`;
    log(`${label} -> ${dir}: up to ${total} packages`);
    await run(
      'go',
      ['build', '-v', '-trimpath', '-buildvcs=false', '-ldflags=-s -w', '-o', provisionerBinary(), '.'],
      { cwd: PROVISIONER_MODULE_DIR, env: goEnv(), onLine: goCompileProgress({ label, total, log }) },
    );
    fs.writeFileSync(path.join(dir, STAMP), `${stamp}\n`);
    log(`${label} built in ${fmtSecs(Date.now() - started)}`);
    return true;
  });
}
