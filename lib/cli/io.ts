/**
 * How every `kruiseless` command talks to the terminal (docs/cli.md): where output goes, which environment it
 * reads, and how a failure becomes one `error: …` line on stderr and a non-zero exit code, as kubectl does.
 */
import { KubeApiError, REASON_NETWORK_ERROR } from '../kube/errors.js';
import { errorMessage, KruiselessError } from '../core/errors.js';

/** The terminal of one command run: output streams, environment, exit code. */
export interface CliIO {
  /** Writes to stdout (text as given, newlines included). */
  out: (text: string) => void;
  /** Writes to stderr. */
  err: (text: string) => void;
  /** Environment (KUBECONFIG, HOME, KRUISELESS_*). */
  env: Readonly<Record<string, string | undefined>>;
  /** Sets the process exit code (the last call wins). */
  exit(code: number): void;
}

/** A failure meant for the user: its message is printed after `error: ` and the command exits with `exitCode`. */
export class CliError extends KruiselessError {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/**
 * What `read` makes of a `--feature-gates` list (`Name=true,…`, OpenKruise's syntax, as the deployment's
 * serverless.yml parameter), its failure as the user's error: `plan`, `why` and `install` take the list alike.
 * @throws CliError `--feature-gates: <why>` when `read` throws (a malformed list)
 */
export function readFeatureGates<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw new CliError(`--feature-gates: ${errorMessage(e)}`);
  }
}

/** `clonesets.apps.kruise.io`-style resource names of the kinds the CLI reads, for kubectl-like messages. */
export const RESOURCE = {
  cloneset: 'clonesets.apps.kruise.io',
  statefulset: 'statefulsets.apps.kruise.io',
  daemonset: 'daemonsets.apps.kruise.io',
  pod: 'pods',
} as const;

/** kubectl's not-found line: `Error from server (NotFound): <resource> "<name>" not found`. */
export function notFound(resource: string, name: string): CliError {
  return new CliError(`Error from server (NotFound): ${resource} "${name}" not found`);
}

/** The line printed for an unexpected error: API errors as kubectl prints them, anything else by its message. */
export function errorLine(e: unknown): string {
  if (e instanceof CliError)
    return e.message.startsWith('Error from server') ? e.message : `error: ${e.message}`;
  if (e instanceof KubeApiError) {
    if (e.reason === REASON_NETWORK_ERROR)
      return `error: cannot reach the API server (${e.operation}): ${e.apiMessage}`;
    return `Error from server (${e.reason}): ${e.apiMessage}`;
  }
  return `error: ${errorMessage(e)}`;
}

/**
 * Runs a command body and sets the exit code it returns (0 when it returns nothing): a thrown error becomes its
 * {@link errorLine} on stderr and exit code 1 (or the {@link CliError}'s own).
 */
export async function runCommand(io: CliIO, body: () => Promise<number | void>): Promise<void> {
  try {
    io.exit((await body()) ?? 0);
  } catch (e) {
    io.err(`${errorLine(e)}\n`);
    io.exit(e instanceof CliError ? e.exitCode : 1);
  }
}
