/**
 * Lambda configuration from environment variables (set by serverless.yml), validated once per container.
 */
import { DEFAULT_WRITE_CONCURRENCY } from '../core/bounded.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../kube/request.js';
import { KruiselessError, errorMessage } from '../core/errors.js';
import * as z from 'zod';
import { CONTROLLER_KINDS } from '../controllers/kinds.js';
import type { ControllerKind } from '../controllers/controller.js';
import { checkBackoff, DEFAULT_BACKOFF, type BackoffSettings } from '../reconcile/backoff.js';

const EnvSchema = z.object({
  TABLE_NAME: z.string().min(3),
  EVENT_BUS_NAME: z.string().min(1),
  EVENT_BUS_ARN: z.string().startsWith('arn:'),
  SCHEDULER_ROLE_ARN: z.string().startsWith('arn:'),
  SCHEDULER_GROUP_NAME: z.string().min(1).default('default'),
  REQUEUE_DLQ_ARN: z.string().startsWith('arn:').optional(),
  ADMISSION_SECRET_PARAM: z.string().min(1).optional(),
  /** OpenKruise's `--feature-gates` value, read by every registered controller's settings parser. */
  KRUISELESS_FEATURE_GATES: z.string().default(''),
  /** Writes in flight at most within a create batch or a run of pod patches (lib/controllers/cloneset/execute.ts). */
  KRUISELESS_WRITE_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(DEFAULT_WRITE_CONCURRENCY),
  /**
   * The watch function's reserved concurrency (serverless.yml parameter `watchConcurrency`): a fleet split into
   * slices needs two runs per slice (lib/source/watchSlices.ts); the scheduled run logs when it has fewer.
   */
  KRUISELESS_WATCH_CONCURRENCY: z.coerce.number().int().min(1).optional(),
  /**
   * Connections one watch run opens at most for its clusters (lib/runtime/handlers/watch.ts
   * `LAMBDA_CONNECTION_BUDGET`, 800, when unset). Not in serverless.yml: the emulated AWS's test of watch slices sets
   * it low, to split a small fleet.
   */
  KRUISELESS_WATCH_CONNECTION_BUDGET: z.coerce.number().int().min(1).optional(),
  /** Delay after an object's first failed write, seconds (docs/reliability.md#backoff). */
  KRUISELESS_BACKOFF_BASE_SECONDS: z.coerce.number().positive().default(DEFAULT_BACKOFF.baseSeconds),
  /** Longest delay between attempts of an object whose writes keep failing, seconds. */
  KRUISELESS_BACKOFF_MAX_SECONDS: z.coerce.number().positive().default(DEFAULT_BACKOFF.maxSeconds),
  /** Deadline of one API-server request attempt, seconds (lib/kube/request.ts `DEFAULT_REQUEST_TIMEOUT_MS`). */
  KRUISELESS_REQUEST_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(60)
    .default(DEFAULT_REQUEST_TIMEOUT_MS / 1000),
  /**
   * `true`: EKS tokens may go to any https endpoint a registry record names, not only EKS's own
   * (lib/state/clusters.ts `ClusterRecordPolicy`; the emulated AWS's proxy). A real deployment leaves it false.
   */
  KRUISELESS_ALLOW_NON_EKS_ENDPOINTS: z.enum(['true', 'false']).default('false'),
  /**
   * `false`: watches go over HTTP/1.1, one connection each, even where the API server offers HTTP/2 (for a proxy in
   * front of it that takes `h2` by ALPN yet cannot carry it; lib/kube/http2Session.ts). Default: HTTP/2, one
   * connection for all of a cluster's watches.
   */
  KRUISELESS_WATCH_HTTP2: z.enum(['true', 'false']).default('true'),
});

/**
 * The controllers' flags in the environment (each registration's `settings.flags`: `true` or `false`, default
 * `false`), e.g. OpenKruise's `--cloneset-scaling-exclude-preparing-delete` as
 * `KRUISELESS_SCALING_EXCLUDE_PREPARING_DELETE`.
 */
function flagSchema(controllers: readonly ControllerKind[]) {
  return z.object(
    Object.fromEntries(
      controllers
        .flatMap((c) => c.settings.flags)
        .map((f) => [f.env, z.enum(['true', 'false']).default('false')]),
    ),
  );
}

/** The validated environment: the fixed variables, and each controller flag's variable as `'true'`/`'false'`. */
export type LambdaConfig = z.infer<typeof EnvSchema> & { readonly [flagVariable: string]: unknown };

/** Thrown when the function's environment is incomplete (a deployment error, not an event error). */
export class ConfigError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Read and validate the Lambda environment.
 * @throws ConfigError naming every missing or malformed variable
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  controllers: readonly ControllerKind[] = CONTROLLER_KINDS,
): LambdaConfig {
  const parsed = EnvSchema.safeParse(env);
  const flags = flagSchema(controllers).safeParse(env);
  const issues = [...(parsed.error?.issues ?? []), ...(flags.error?.issues ?? [])];
  if (!parsed.success || !flags.success || issues.length > 0) {
    const detail = issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid Lambda environment: ${detail}`);
  }
  return { ...parsed.data, ...flags.data };
}

/**
 * The controllers' flags of a validated environment, by flag name (e.g. `cloneset-scaling-exclude-preparing-delete`),
 * for {@link controllerSettings}.
 */
export function flagsOf(
  config: LambdaConfig,
  controllers: readonly ControllerKind[] = CONTROLLER_KINDS,
): Record<string, boolean> {
  return Object.fromEntries(
    controllers.flatMap((c) => c.settings.flags).map((f) => [f.name, config[f.env] === 'true']),
  );
}

/** Each controller's settings by its name, and the gates no registered controller knows. */
export interface ControllerSettings {
  /** Controller name → what its registration's `settings.parse` returned (lib/runtime/types.ts `Runtime.settings`). */
  settings: Readonly<Record<string, unknown>>;
  ignoredGates: string[];
}

/**
 * Every registered controller's settings from OpenKruise's feature gates and controller flags, as a deployment
 * spells them.
 * @param featureGates `--feature-gates` value (`Name=true,Other=false`; empty sets nothing)
 * @param flags controller flags by OpenKruise's name, e.g. `{ 'cloneset-scaling-exclude-preparing-delete': true }`
 * @throws ConfigError for a malformed gate list
 */
export function controllerSettings(
  featureGates: string,
  flags: Readonly<Record<string, boolean>>,
  controllers: readonly ControllerKind[] = CONTROLLER_KINDS,
): ControllerSettings {
  const settings: Record<string, unknown> = {};
  let ignored: string[] | undefined;
  for (const c of controllers) {
    try {
      const parsed = c.settings.parse({ featureGates, flags });
      settings[c.name] = parsed.settings;
      ignored =
        ignored === undefined ? parsed.unknownGates : ignored.filter((g) => parsed.unknownGates.includes(g));
    } catch (e) {
      throw new ConfigError(errorMessage(e));
    }
  }
  return { settings, ignoredGates: ignored ?? [] };
}

/**
 * The retry schedule after failed writes (docs/reliability.md#backoff), as a deployment sets it
 * (`KRUISELESS_BACKOFF_BASE_SECONDS` / `KRUISELESS_BACKOFF_MAX_SECONDS`, `kruiseless local --backoff-base-seconds`
 * / `--backoff-max-seconds`).
 * @param baseSeconds delay after the first failure, > 0
 * @param maxSeconds longest delay, ≥ `baseSeconds`
 * @throws ConfigError naming the bad number
 */
export function backoffSettings(baseSeconds: number, maxSeconds: number): BackoffSettings {
  const settings = { baseSeconds, maxSeconds };
  try {
    checkBackoff(settings);
  } catch (e) {
    if (e instanceof RangeError) throw new ConfigError(e.message);
    throw e;
  }
  return settings;
}
