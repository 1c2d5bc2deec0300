/**
 * What the last build of an optional Go component (the OpenKruise reference, kubectl-kruise) came to, kept in a
 * small JSON file per component under `<cache>/build-status/` so that the suites that skip without it and `.ci/run`
 * can say why, and tell an unreachable registry (a hollow run CI tolerates) from a build that is broken (one it
 * must not). Written by the `build` commands of infra/reference/cli.ts and infra/kubectl-kruise/cli.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { cacheRoot } from './settings.js';
import { errorMessage } from '../../lib/core/errors.js';

/** A component whose build `.ci/run` tolerates failing: OpenKruise's kruise-manager, OpenKruise's kubectl plugin. */
export type BuildComponent = 'openkruise' | 'kubectl-kruise';

/**
 * Why a build failed: `registry-unreachable` when the Go module proxy (or checksum database, or a module's origin)
 * or the npm registry could not be reached; `build-failed` for everything else (a version the proxy refuses, a
 * checksum mismatch, a compile error, GOPROXY=off, no Go).
 */
export type FailureCause = 'registry-unreachable' | 'build-failed';

const BuildStatusSchema = z.object({
  component: z.enum(['openkruise', 'kubectl-kruise']),
  /** the version asked for */
  version: z.string(),
  /** `building` until the build ends (a build that never ends, killed or crashed, stays so) */
  outcome: z.enum(['building', 'built', 'failed']),
  /** the version built, when it is not `version` (OpenKruise's fallback) */
  fallback: z.string().optional(),
  /** the failure's message (for a fallback: why `version` was not built), at most {@link MAX_ERROR} characters */
  error: z.string().optional(),
  cause: z.enum(['registry-unreachable', 'build-failed']).optional(),
  /** when the outcome was recorded, RFC 3339 */
  at: z.string(),
});

/** The last build of one component, as recorded. */
export type BuildStatus = z.infer<typeof BuildStatusSchema>;

/** Longest error message kept in a status file (go's output tail can run to 40 lines). */
const MAX_ERROR = 4000;

/**
 * Lines of a build's error that mean the registry was not reached: Go's net errors (`dial tcp …: connection refused`,
 * `lookup proxy.golang.org …: no such host`, `i/o timeout`, …), a 5xx or 429 from the module proxy or checksum
 * database (`reading https://…: 503 Service Unavailable`), git's when a module is fetched from its origin, and
 * npm's (`ENOTFOUND`, `EAI_AGAIN`, `ECONNREFUSED`, …, `request to https://… failed`).
 */
const UNREACHABLE: readonly RegExp[] = [
  /\bdial tcp\b/,
  /\bproxyconnect tcp\b/,
  /\bread tcp\b/,
  /\bno such host\b/,
  /\bserver misbehaving\b/,
  /\bconnection (refused|reset by peer|timed out)\b/,
  /\bi\/o timeout\b/,
  /\b(network|host) is unreachable\b/,
  /\bTLS handshake timeout\b/,
  /\bnet\/http: (request canceled|timeout)|Client\.Timeout exceeded/,
  /\breading https?:\/\/\S+: (5\d\d|429)\b/,
  /\b(Could not resolve host|Failed to connect to)\b/,
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ESOCKETTIMEDOUT)\b/,
  /\bnpm (ERR!|error) network\b/,
  /\brequest to https?:\/\/\S+ failed\b/,
];

/**
 * Sorts a build failure by its message: any line that is a network failure reaching a registry makes it
 * `registry-unreachable`, anything else is `build-failed` (a proxy that answers 404/410, `GOPROXY=off`, a checksum
 * mismatch or a compile error is a real failure, not an outage).
 * @param message the error the build threw (go's output tail included)
 */
export function classifyBuildFailure(message: string): FailureCause {
  return UNREACHABLE.some((re) => re.test(message)) ? 'registry-unreachable' : 'build-failed';
}

/**
 * The line of a build's error that says most, for a one-line report: the first network-failure line when the
 * registry was unreachable, else the first non-empty line that is not only `<command> exited with <code>:`;
 * at most `max` characters (a longer line keeps its start and its end, joined by `…`).
 */
export function failureSummary(message: string, max = 200): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line =
    lines.find((l) => UNREACHABLE.some((re) => re.test(l))) ??
    lines.find((l) => !/ exited with -?\d+:$/.test(l)) ??
    lines[0] ??
    '';
  if (line.length <= max) return line;
  // go names the module first and the network failure last: keep both ends
  const head = Math.floor((max - 1) / 2);
  return `${line.slice(0, head)}…${line.slice(line.length - (max - 1 - head))}`;
}

/** `<cache>/build-status/<component>.json` */
export function buildStatusFile(component: BuildComponent): string {
  return path.join(cacheRoot(), 'build-status', `${component}.json`);
}

/** The recorded status of `component`, or undefined when none was recorded (or the file is not one). */
export function readBuildStatus(component: BuildComponent): BuildStatus | undefined {
  try {
    const parsed = BuildStatusSchema.safeParse(
      JSON.parse(fs.readFileSync(buildStatusFile(component), 'utf8')),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces the status file of `status.component` (written to a temporary file, then renamed). */
export function writeBuildStatus(status: BuildStatus): void {
  const file = buildStatusFile(status.component);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(status, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

/** What a build hands back that its status needs: the version built and, after a fallback, why. */
export interface BuiltVersion {
  version: string;
  /** why the version asked for was not built, when another one was */
  fallbackReason?: string;
}

/**
 * Runs a component's build and records its outcome: `building` before it starts, then `built` (with the fallback
 * and its reason, classified, when another version was built) or `failed` with the error and its cause.
 * @param component what is built
 * @param version the version asked for
 * @param build the build itself
 * @returns what `build` returns
 * @throws what `build` throws, after recording it
 */
export async function withBuildStatus<T extends BuiltVersion>(
  component: BuildComponent,
  version: string,
  build: () => Promise<T>,
): Promise<T> {
  const at = (): string => new Date().toISOString();
  writeBuildStatus({ component, version, outcome: 'building', at: at() });
  try {
    const result = await build();
    const why = result.version === version ? undefined : (result.fallbackReason ?? 'unknown');
    writeBuildStatus({
      component,
      version,
      outcome: 'built',
      ...(why === undefined
        ? {}
        : { fallback: result.version, error: why.slice(0, MAX_ERROR), cause: classifyBuildFailure(why) }),
      at: at(),
    });
    return result;
  } catch (e) {
    const error = errorMessage(e);
    writeBuildStatus({
      component,
      version,
      outcome: 'failed',
      error: error.slice(0, MAX_ERROR),
      cause: classifyBuildFailure(error),
      at: at(),
    });
    throw e;
  }
}
