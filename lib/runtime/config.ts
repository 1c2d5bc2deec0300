/**
 * Lambda configuration from environment variables (set by serverless.yml), validated once per container.
 */
import { DEFAULT_WRITE_CONCURRENCY } from '../core/bounded.js';
import { KruiselessError } from '../core/errors.js';
import * as z from 'zod';
import { InvalidFeatureGatesError, parseFeatureGates, type PlannerOptions } from '../cloneset/index.js';
import { checkBackoff, DEFAULT_BACKOFF, type BackoffSettings } from '../reconcile/backoff.js';

const EnvSchema = z.object({
  TABLE_NAME: z.string().min(3),
  EVENT_BUS_NAME: z.string().min(1),
  EVENT_BUS_ARN: z.string().startsWith('arn:'),
  SCHEDULER_ROLE_ARN: z.string().startsWith('arn:'),
  SCHEDULER_GROUP_NAME: z.string().min(1).default('default'),
  REQUEUE_DLQ_ARN: z.string().startsWith('arn:').optional(),
  ADMISSION_SECRET_PARAM: z.string().min(1).optional(),
  /** OpenKruise's `--feature-gates` value, e.g. `CloneSetShortHash=true` (lib/cloneset/featureGates.ts). */
  KRUISELESS_FEATURE_GATES: z.string().default(''),
  /** OpenKruise's `--cloneset-scaling-exclude-preparing-delete` flag. */
  KRUISELESS_SCALING_EXCLUDE_PREPARING_DELETE: z.enum(['true', 'false']).default('false'),
  /** Writes in flight at most within a create batch or a run of pod patches (lib/reconcile/execute.ts). */
  KRUISELESS_WRITE_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(DEFAULT_WRITE_CONCURRENCY),
  /** Delay after a CloneSet's first failed write, seconds (docs/reliability.md#backoff). */
  KRUISELESS_BACKOFF_BASE_SECONDS: z.coerce.number().positive().default(DEFAULT_BACKOFF.baseSeconds),
  /** Longest delay between attempts of a CloneSet whose writes keep failing, seconds. */
  KRUISELESS_BACKOFF_MAX_SECONDS: z.coerce.number().positive().default(DEFAULT_BACKOFF.maxSeconds),
});

/** The validated environment. */
export type LambdaConfig = z.infer<typeof EnvSchema>;

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
export function loadConfig(env: NodeJS.ProcessEnv = process.env): LambdaConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid Lambda environment: ${detail}`);
  }
  return parsed.data;
}

/** The planner options a deployment sets, and the gates it names that do not concern CloneSet. */
export interface ControllerSettings {
  plannerOptions: Partial<PlannerOptions>;
  ignoredGates: string[];
}

/**
 * Planner options from OpenKruise's feature gates and controller flag, as a deployment spells them.
 * @param featureGates `--feature-gates` value (`Name=true,Other=false`; empty sets nothing)
 * @param scalingExcludePreparingDelete `--cloneset-scaling-exclude-preparing-delete`
 * @throws ConfigError for a malformed gate list
 */
export function controllerSettings(
  featureGates: string,
  scalingExcludePreparingDelete: boolean,
): ControllerSettings {
  try {
    const { options, ignored } = parseFeatureGates(featureGates);
    return {
      plannerOptions: {
        ...options,
        ...(scalingExcludePreparingDelete ? { scalingExcludePreparingDelete } : {}),
      },
      ignoredGates: ignored,
    };
  } catch (e) {
    if (e instanceof InvalidFeatureGatesError) throw new ConfigError(e.message);
    throw e;
  }
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
