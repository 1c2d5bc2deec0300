/**
 * Lambda configuration from environment variables (set by serverless.yml), validated once per container.
 */
import { KruiselessError } from '../core/errors.js';
import { z } from 'zod';

const EnvSchema = z.object({
  TABLE_NAME: z.string().min(3),
  EVENT_BUS_NAME: z.string().min(1),
  EVENT_BUS_ARN: z.string().startsWith('arn:'),
  SCHEDULER_ROLE_ARN: z.string().startsWith('arn:'),
  SCHEDULER_GROUP_NAME: z.string().min(1).default('default'),
  REQUEUE_DLQ_ARN: z.string().startsWith('arn:').optional(),
  ADMISSION_SECRET_PARAM: z.string().min(1).optional(),
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
