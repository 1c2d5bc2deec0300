/**
 * The packaged artifacts (`.serverless/`: the zips and `cloudformation-template-update-stack.json`) from
 * `osls package`: reused when newer than every source they are built from, else built again (offline, as
 * scripts/package-check.sh does), with a progress line while osls works silently.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { withLock } from '../../core/dirLock.js';

/** The template file `osls package` writes. */
export const TEMPLATE_FILE = 'cloudformation-template-update-stack.json';

/** What the zips are built from, relative to the repository root. */
const SOURCES = ['functions', 'lib', 'infra/serverless', 'serverless.yml', 'package-lock.json'];
/** Never in a bundle (test/unit/architecture/imports.test.ts): editing them needs no new zips. */
const NOT_BUNDLED = ['lib/emulator', 'lib/local', 'lib/cli'];

function newestMtime(root: string, rel: string): number {
  if (NOT_BUNDLED.includes(rel)) return 0;
  const p = path.join(root, rel);
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs
    .readdirSync(p)
    .reduce((m, name) => Math.max(m, newestMtime(root, path.join(rel, name))), st.mtimeMs);
}

/**
 * Why the artifacts in `dir` must be built again, or undefined when they are fresh.
 * @param root repository root
 */
export function staleReason(root: string, dir: string): string | undefined {
  const template = path.join(dir, TEMPLATE_FILE);
  if (!fs.existsSync(template)) return `${path.relative(root, template)} is missing`;
  const built = Math.min(
    fs.statSync(template).mtimeMs,
    ...fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.zip'))
      .map((f) => fs.statSync(path.join(dir, f)).mtimeMs),
  );
  const changed = SOURCES.find((s) => newestMtime(root, s) > built);
  return changed ? `${changed} changed since the zips were built` : undefined;
}

/**
 * Make sure `<root>/.serverless` holds fresh artifacts, running `osls package --stage <stage>` when not, one process at
 * a time (the lock directory `<root>/.serverless.lock`, taken over from a dead owner).
 * @returns the artifact directory
 * @throws Error when osls is not installed or fails (its output is in the message)
 */
export async function ensureArtifacts(
  root: string,
  log: (line: string) => void,
  stage = 'dev',
): Promise<string> {
  // two test files (or a test and `npm run demo:aws`) may ask at once: one packages, the other then finds it fresh
  return withLock(path.join(root, '.serverless.lock'), log, () => packageIfStale(root, log, stage));
}

/** {@link ensureArtifacts} under its lock. */
async function packageIfStale(root: string, log: (line: string) => void, stage: string): Promise<string> {
  const dir = path.join(root, '.serverless');
  const reason = staleReason(root, dir);
  if (!reason) {
    log(`reusing the packaged zips in ${path.relative(root, dir) || dir} (newer than their sources)`);
    return dir;
  }
  const osls = path.join(root, 'node_modules', '.bin', 'osls');
  if (!fs.existsSync(osls)) throw new Error(`${osls} is missing: run npm ci first`);
  log(`packaging: ${reason}; running osls package --stage ${stage} (about 1-2 min, offline)`);
  const t0 = Date.now();
  // no AWS access is needed to package; dummy credentials make sure a real profile is never used
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'offline-package',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
  for (const v of ['AWS_PROFILE', 'AWS_DEFAULT_PROFILE', 'AWS_SESSION_TOKEN', 'NODE_OPTIONS']) delete env[v];
  const child = spawn(osls, ['package', '--stage', stage], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const ticker = setInterval(() => log(`packaging … ${((Date.now() - t0) / 1000).toFixed(0)} s`), 15_000);
  const code = await new Promise<number | null>((r) => child.on('close', r));
  clearInterval(ticker);
  if (code !== 0) throw new Error(`osls package failed (exit ${code}):\n${output.slice(-4000)}`);
  log(`packaged in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return dir;
}
