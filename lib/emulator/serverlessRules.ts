/**
 * The deployed EventBridge rules, read from `serverless.yml`, so the local bus routes by the same patterns
 * (docs/architecture.md#embedded-default). osls (Serverless Framework v3 syntax) declares them as
 * `functions.<fn>.events[].eventBridge: { eventBus, pattern, retryPolicy, deadLetterQueueArn, ... }`.
 */
import { parse, type ScalarTag, type CollectionTag } from 'yaml';
import { z } from 'zod';
import type { BusRule, EventBridgeEnvelope } from './bus.js';
import { errorMessage, fieldErrorsFromZod, type FieldError } from '../core/errors.js';
import { InvalidServerlessConfigError, InvalidPatternError } from './errors.js';
import { compilePattern, type EventPattern } from './pattern.js';

/** One `eventBridge` event of one function, as deployed. */
export interface ServerlessEventBridgeRule {
  /** The key under `functions`. */
  functionName: string;
  /** The event's `name`, else `<functionName>-eventBridge-<n>` (n counts from 1 over the function's events). */
  name: string;
  /** As written: a bus name, an ARN, a `${…}` variable or a CloudFormation intrinsic (`{ "Fn::GetAtt": … }`). */
  eventBus?: unknown;
  pattern: EventPattern;
  retryPolicy?: { maximumRetryAttempts?: number; maximumEventAge?: number };
  deadLetterQueueArn?: unknown;
  /**
   * The function's own `maximumRetryAttempts` (Lambda's async retries of a failed invocation, 0–2; Lambda's default
   * is 2). This, not the rule's `retryPolicy` (which covers failures to *deliver* to Lambda), decides how often a
   * handler that throws is retried before the failure goes to the dead-letter destination.
   */
  functionRetryAttempts: number;
}

/** Lambda's default number of async retries (https://docs.aws.amazon.com/lambda/latest/dg/invocation-async.html). */
const LAMBDA_DEFAULT_ASYNC_RETRIES = 2;

const eventBridgeSchema = z.looseObject({
  name: z.string().optional(),
  eventBus: z.unknown().optional(),
  pattern: z.record(z.string(), z.unknown()).optional(),
  enabled: z.boolean().optional(),
  retryPolicy: z
    .strictObject({
      maximumRetryAttempts: z.int().min(0).max(185).optional(),
      maximumEventAge: z.int().min(60).max(86400).optional(),
    })
    .optional(),
  deadLetterQueueArn: z.unknown().optional(),
});

const configSchema = z.looseObject({
  functions: z
    .record(
      z.string(),
      z
        .looseObject({
          events: z.array(z.record(z.string(), z.unknown())).optional(),
          maximumRetryAttempts: z.int().min(0).max(2).optional(),
          // a number, or a `${…}` variable the emulator cannot resolve (then osls's default is assumed)
          timeout: z.unknown().optional(),
        })
        .nullable(),
    )
    .optional(),
});

/** CloudFormation short-form intrinsics (`!Ref`, `!GetAtt`, ...), parsed into their long form. */
const INTRINSICS = [
  'Ref',
  'GetAtt',
  'Sub',
  'Join',
  'ImportValue',
  'Select',
  'Split',
  'If',
  'FindInMap',
  'Base64',
  // condition functions (serverless.yml's Conditions and the alarms' optional actions)
  'Equals',
  'Not',
  'And',
  'Or',
  'Condition',
];
const cfnTags: Array<ScalarTag | CollectionTag> = INTRINSICS.flatMap((fn) => {
  const key = fn === 'Ref' ? 'Ref' : `Fn::${fn}`;
  const tag = `!${fn}`;
  const wrap = (value: unknown) => ({
    [key]: fn === 'GetAtt' && typeof value === 'string' ? value.split('.') : value,
  });
  return [
    { tag, resolve: (value: string) => wrap(value) },
    { tag, collection: 'seq', resolve: (seq) => wrap(seq.toJSON()) },
    { tag, collection: 'map', resolve: (map) => wrap(map.toJSON()) },
  ];
});

/**
 * `serverless.yml` as data, CloudFormation's short-form tags (`!Ref X`, `!GetAtt X.Arn`, `!Sub …`, `!If […]`, …)
 * read as their long form (`{ Ref: 'X' }`, `{ 'Fn::GetAtt': ['X', 'Arn'] }`, …); `${…}` variables stay text.
 * @throws YAMLParseError when the text is not YAML
 */
export function parseServerlessYml(yamlText: string): unknown {
  return parse(yamlText, { customTags: cfnTags });
}

/**
 * serverless.yml parsed and checked against the osls shape both loaders read.
 * @throws InvalidServerlessConfigError when the text is not YAML or has not that shape
 */
function readServerlessConfig(yamlText: string): z.infer<typeof configSchema> {
  let doc: unknown;
  try {
    doc = parseServerlessYml(yamlText);
  } catch (error) {
    throw new InvalidServerlessConfigError([{ path: '', message: `not YAML: ${errorMessage(error)}` }]);
  }
  const config = configSchema.safeParse(doc ?? {});
  if (!config.success) throw new InvalidServerlessConfigError(fieldErrorsFromZod(config.error, ''));
  return config.data;
}

/**
 * The enabled `eventBridge` events of every function that carry a `pattern`. Events with only a `schedule`
 * (scheduled rules) and events with `enabled: false` are skipped: they route nothing on a bus.
 * @param yamlText the text of `serverless.yml`
 * @returns rules in file order
 * @throws InvalidServerlessConfigError when the YAML does not parse, does not have the osls shape, or a pattern is
 *   invalid (the message names each path, e.g. `functions.reconcile.events[0].eventBridge.pattern.source`)
 */
export function loadRulesFromServerless(yamlText: string): ServerlessEventBridgeRule[] {
  const config = readServerlessConfig(yamlText);
  const rules: ServerlessEventBridgeRule[] = [];
  const errors: FieldError[] = [];
  for (const [functionName, fn] of Object.entries(config.functions ?? {})) {
    (fn?.events ?? []).forEach((event, i) => {
      if (!('eventBridge' in event)) return;
      const at = `functions.${functionName}.events[${i}].eventBridge`;
      const parsed = eventBridgeSchema.safeParse(event.eventBridge);
      if (!parsed.success) return void errors.push(...fieldErrorsFromZod(parsed.error, at));
      const { name, eventBus, pattern, enabled, retryPolicy, deadLetterQueueArn } = parsed.data;
      if (pattern === undefined || enabled === false) return;
      try {
        compilePattern(pattern as EventPattern);
      } catch (error) {
        if (!(error instanceof InvalidPatternError)) throw error;
        return void errors.push({
          path: `${at}.pattern${error.path ? `.${error.path}` : ''}`,
          message: error.reason,
        });
      }
      rules.push({
        functionName,
        name: name ?? `${functionName}-eventBridge-${i + 1}`,
        pattern: pattern as EventPattern,
        functionRetryAttempts: fn?.maximumRetryAttempts ?? LAMBDA_DEFAULT_ASYNC_RETRIES,
        ...(eventBus !== undefined ? { eventBus } : {}),
        ...(retryPolicy !== undefined ? { retryPolicy } : {}),
        ...(deadLetterQueueArn !== undefined ? { deadLetterQueueArn } : {}),
      });
    });
  }
  if (errors.length > 0) throw new InvalidServerlessConfigError(errors);
  return rules;
}

/** One `schedule` event of one function (a scheduled EventBridge rule), as deployed. */
export interface ServerlessSchedule {
  /** The key under `functions`. */
  functionName: string;
  /** As written, e.g. `rate(5 minutes)`. */
  expression: string;
  /** Its period, ms ({@link scheduleRateMs}). */
  everyMs: number;
  /** The function's `timeout`, seconds (osls's default, 6, when not given as a number). */
  timeoutSeconds: number;
}

/** osls's function timeout when `timeout` is not given, seconds. */
const OSLS_DEFAULT_TIMEOUT_SECONDS = 6;

const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/**
 * The period of an EventBridge `rate(N unit)` expression, ms
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-scheduled-rule-pattern.html).
 * @throws Error for any other expression (`cron(…)` is not emulated)
 */
export function scheduleRateMs(expression: string): number {
  const m = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression);
  if (!m) throw new Error(`schedule expression ${expression} is not emulated (only rate(N minute|hour|day))`);
  return Number(m[1]) * UNIT_MS[m[2]];
}

const scheduleSchema = z.union([
  z.string(),
  z.looseObject({ rate: z.union([z.string(), z.array(z.string())]), enabled: z.boolean().optional() }),
]);

/**
 * The enabled `schedule` events of every function: what AWS runs on a timer (serverless.yml: the watch pump every
 * minute, the resync every 5 minutes), so that the embedded default can run the same handlers on the same periods.
 * osls writes one as `schedule: rate(…)` or `schedule: { rate: rate(…) | [rate(…), …], enabled }`.
 * @param yamlText the text of `serverless.yml`
 * @returns one entry per expression, in file order
 * @throws InvalidServerlessConfigError when the YAML does not parse or has not the osls shape, or an expression is
 *   not `rate(N minute|hour|day)` (the path names the event)
 */
export function loadSchedulesFromServerless(yamlText: string): ServerlessSchedule[] {
  const config = readServerlessConfig(yamlText);
  const schedules: ServerlessSchedule[] = [];
  const errors: FieldError[] = [];
  for (const [functionName, fn] of Object.entries(config.functions ?? {})) {
    (fn?.events ?? []).forEach((event, i) => {
      if (!('schedule' in event)) return;
      const at = `functions.${functionName}.events[${i}].schedule`;
      const parsed = scheduleSchema.safeParse(event.schedule);
      if (!parsed.success) return void errors.push(...fieldErrorsFromZod(parsed.error, at));
      const value = parsed.data;
      if (typeof value !== 'string' && value.enabled === false) return;
      const expressions = typeof value === 'string' ? [value] : [value.rate].flat();
      for (const expression of expressions) {
        try {
          schedules.push({
            functionName,
            expression,
            everyMs: scheduleRateMs(expression),
            timeoutSeconds:
              typeof fn?.timeout === 'number' && fn.timeout > 0 ? fn.timeout : OSLS_DEFAULT_TIMEOUT_SECONDS,
          });
        } catch (error) {
          errors.push({ path: at, message: errorMessage(error) });
        }
      }
    });
  }
  if (errors.length > 0) throw new InvalidServerlessConfigError(errors);
  return schedules;
}

/**
 * {@link BusRule}s for a {@link LocalBus} from the deployed rules: each rule delivers to its function's handler
 * and retries a throwing handler as Lambda would: the function's `maximumRetryAttempts` times (not the rule's
 * delivery `retryPolicy`), then dead-letters it.
 * @param targets the handler of each function, by function name
 * @throws Error naming the functions that have a rule but no target (their events would vanish silently)
 */
export function bindServerlessRules(
  rules: readonly ServerlessEventBridgeRule[],
  targets: Readonly<Record<string, (event: EventBridgeEnvelope) => Promise<void>>>,
): BusRule[] {
  const missing = [...new Set(rules.map((r) => r.functionName).filter((fn) => !Object.hasOwn(targets, fn)))];
  if (missing.length > 0) throw new Error(`no local target for function(s) ${missing.join(', ')}`);
  return rules.map((rule) => ({
    name: rule.name,
    eventPattern: rule.pattern,
    target: targets[rule.functionName],
    retryPolicy: { maximumRetryAttempts: rule.functionRetryAttempts },
  }));
}
