/**
 * Cached build of OpenKruise's kubectl plugin, kubectl-kruise (`npm run kubectl-kruise:build`), from the Go module
 * github.com/openkruise/kruise-tools into `<cache>/kruise-tools-<version>/kubectl-kruise`, the same way the
 * reference builds kruise-manager (infra/reference/gomodule.ts). Used by test/integration/kubectl-kruise.test.ts
 * to drive Kruiseless-managed CloneSets with the tool OpenKruise users already have.
 */
import path from 'node:path';
import type { Log } from '../local/build.js';
import { ensureGoModule, goModuleNotBuiltReason, type GoModuleTarget } from '../reference/gomodule.js';
import { cacheRoot } from '../reference/settings.js';

/** Go module of kubectl-kruise. */
export const KRUISE_TOOLS_MODULE = 'github.com/openkruise/kruise-tools';
/**
 * The newest kruise-tools tag the Go module proxy serves (v1.2.2; the proxy refuses the version list and the older
 * tags v1.2.1, v1.2.0, v1.1.7 here). Override with env KRUISELESS_KRUISE_TOOLS_VERSION.
 */
export const DEFAULT_KRUISE_TOOLS_VERSION = 'v1.2.2';

/** The kruise-tools version asked for: env KRUISELESS_KRUISE_TOOLS_VERSION, else DEFAULT_KRUISE_TOOLS_VERSION. */
export function kruiseToolsVersion(): string {
  const v = process.env.KRUISELESS_KRUISE_TOOLS_VERSION?.trim();
  return v ? v : DEFAULT_KRUISE_TOOLS_VERSION;
}

/** The plugin's build of `version` (package ./cmd/plugin) as a Go module target in `<cache>/kruise-tools-<version>`. */
export function kubectlKruiseTarget(version: string = kruiseToolsVersion()): GoModuleTarget {
  const dir = path.join(cacheRoot(), `kruise-tools-${version}`);
  return {
    module: KRUISE_TOOLS_MODULE,
    version,
    notInSumdb: false,
    pkg: './cmd/plugin',
    dir,
    src: path.join(dir, 'src'),
    binary: path.join(dir, 'kubectl-kruise'),
    stamp: path.join(dir, '.stamp'),
    alsoNeeded: [],
    prefix: '[kubectl-kruise]',
    title: `kubectl-kruise ${version}`,
    coldHint: '~5 min of one core',
  };
}

/**
 * Why the cache holds no usable kubectl-kruise of `version` (a sentence naming `npm run kubectl-kruise:build`), or
 * undefined when it does. Builds nothing.
 */
export async function kubectlKruiseSkipReason(
  version: string = kruiseToolsVersion(),
): Promise<string | undefined> {
  const why = await goModuleNotBuiltReason(kubectlKruiseTarget(version));
  return why && `${why}; \`npm run kubectl-kruise:build\` builds it`;
}

/**
 * Builds kubectl-kruise of `version` into the cache unless it is there (idempotent), logging progress and one
 * summary line (`[kubectl-kruise] kubectl-kruise v1.2.2 up to date: <path>` when nothing was built).
 * @returns the binary's path
 * @throws Error with go's message when the download or the build fails
 */
export async function ensureKubectlKruise(
  opts: { version?: string; log?: Log } = {},
): Promise<{ binary: string; version: string; built: boolean }> {
  const log = opts.log ?? console.log;
  const t = kubectlKruiseTarget(opts.version ?? kruiseToolsVersion());
  const built = await ensureGoModule(t, log);
  if (!built) log(`${t.prefix} ${t.title} up to date: ${t.binary}`);
  return { binary: t.binary, version: t.version, built };
}
