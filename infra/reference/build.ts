/**
 * Cached build of OpenKruise's kruise-manager (`npm run reference:build`): the module is downloaded with
 * `go mod download -json`, copied to a writable folder (so that its own `replace` directives apply) and built
 * there with `go build`, into `<cache>/openkruise-<version>/` (see settings.ts). A stamp makes it a no-op once
 * built (gomodule.ts).
 */
import type { Log } from '../local/build.js';
import { ensureGoModule, goModuleNotBuiltReason, type GoModuleTarget } from './gomodule.js';
import {
  DEFAULT_OPENKRUISE_VERSION,
  FALLBACK_OPENKRUISE_VERSION,
  NOT_IN_SUMDB,
  OPENKRUISE_MODULE,
  openKruisePaths,
  requestedVersion,
  type OpenKruisePaths,
} from './settings.js';
import { errorMessage } from '../../lib/core/errors.js';

/** The kruise-manager build of `version` as a Go module target (root package, CRDs and webhooks kept in `src`). */
function target(version: string): GoModuleTarget {
  const p = openKruisePaths(version);
  return {
    module: OPENKRUISE_MODULE,
    version,
    notInSumdb: NOT_IN_SUMDB.has(version),
    pkg: '.',
    dir: p.dir,
    src: p.src,
    binary: p.manager,
    stamp: p.stamp,
    alsoNeeded: [p.crdBases, p.webhookManifests],
    prefix: '[reference]',
    title: `OpenKruise ${version}`,
    coldHint: '~7 min of one core',
  };
}

/** OpenKruise's e2e suite of `version` (`go test -c ./test/e2e`) as a test-binary target inside the manager's copy. */
function e2eTarget(version: string): GoModuleTarget {
  const p = openKruisePaths(version);
  return {
    ...target(version),
    pkg: './test/e2e',
    binary: p.e2e,
    stamp: p.e2eStamp,
    alsoNeeded: [],
    prefix: '[upstream-e2e]',
    title: `OpenKruise ${version} e2e suite`,
    coldHint: '~75 s once kruise-manager is built',
    compile: 'test',
    inside: target(version),
  };
}

/**
 * Builds OpenKruise's e2e suite binary of `version` (exactly; no fallback) into the cache unless it is there,
 * building kruise-manager (and its module copy) first when missing. Logs why it builds, progress every 15 s and
 * one summary line.
 * @returns the binary's path, the module copy it was built in (`<cache>/openkruise-<version>/src`, whose files, e.g.
 *   `test/kruise-e2e-config.yaml`, upstream's e2e setup applies) and whether this call built it
 * @throws Error with go's output tail when the download or a build fails
 */
export async function ensureOpenKruiseE2e(
  opts: { version?: string; log?: Log } = {},
): Promise<{ binary: string; moduleDir: string; built: boolean }> {
  const t = e2eTarget(opts.version ?? requestedVersion());
  const built = await ensureGoModule(t, opts.log ?? console.log);
  return { binary: t.binary, moduleDir: t.src, built };
}

/** What ensureOpenKruise hands back. */
export interface OpenKruiseBuild {
  /** the version built (the fallback when the requested one could not be downloaded) */
  version: string;
  paths: OpenKruisePaths;
  /** true when this call built it, false when the cache already held it */
  built: boolean;
  /** why the version asked for was not built, when `version` is the fallback */
  fallbackReason?: string;
}

/**
 * Why the cache does not hold a usable build of `version`, or undefined when it does (a manager and module copy of
 * `version` built by this machine's Go with these flags). Reads the cache and runs `go version`; builds nothing.
 * @returns one sentence, e.g. "OpenKruise v1.9.0 is not built (no <dir>/.stamp)"
 */
export function openKruiseNotBuiltReason(version: string): Promise<string | undefined> {
  return goModuleNotBuiltReason(target(version));
}

/** True when the cache holds a usable build of `version` (see openKruiseNotBuiltReason). */
export async function openKruiseUpToDate(version: string): Promise<boolean> {
  return (await openKruiseNotBuiltReason(version)) === undefined;
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
    const why = errorMessage(e);
    log(`[reference] OpenKruise ${version} could not be built: ${why}`);
    log(`[reference] falling back to OpenKruise ${FALLBACK_OPENKRUISE_VERSION}`);
    try {
      return { ...(await ensureVersion(FALLBACK_OPENKRUISE_VERSION, log)), fallbackReason: why };
    } catch (e2) {
      const why2 = errorMessage(e2);
      throw new Error(
        `OpenKruise ${version} could not be built (${why}), nor the fallback ${FALLBACK_OPENKRUISE_VERSION}: ${why2}`,
        { cause: e2 },
      );
    }
  }
}

/** ensureOpenKruise for exactly `version` (no fallback). */
async function ensureVersion(version: string, log: Log): Promise<OpenKruiseBuild> {
  const built = await ensureGoModule(target(version), log);
  return { version, paths: openKruisePaths(version), built };
}
