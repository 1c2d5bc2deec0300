/**
 * A small "template → emulated AWS" deployer: each resource of the packaged CloudFormation template is created with
 * the API call its type maps to ({@link CREATORS}), in dependency order, or skipped with a reason ({@link SKIPPED})
 * when nothing runs on it here (IAM is not enforced, logs go to files). Any other type stops the deployment.
 */
import path from 'node:path';
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateEventBusCommand,
  EventBridgeClient,
  PutRuleCommand,
  PutTargetsCommand,
  type Target,
} from '@aws-sdk/client-eventbridge';
import { CreateScheduleGroupCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { KruiselessError } from '../../core/errors.js';
import { DETAIL_TYPE } from '../../requests/schema.js';
import { sqs, type AwsEndpoint } from './awsCall.js';
import type { DeployedStack, FunctionSpec } from './stackModel.js';
import {
  conditionsOf,
  creationOrder,
  parameterDefaults,
  resolve,
  type CfnTemplate,
  type Physical,
  type ResolveContext,
} from './template.js';

/** Thrown for a resource type the emulator neither creates nor may skip. */
export class UnsupportedResourceError extends KruiselessError {
  constructor(id: string, type: string) {
    super(
      `${id}: resource type ${type} is not emulated (lib/emulator/aws/deploy.ts maps ${Object.keys(CREATORS).join(', ')}; skips ${Object.keys(SKIPPED).join(', ')})`,
    );
    this.name = 'UnsupportedResourceError';
  }
}

/** What a creator gets. */
interface DeployContext {
  ep: AwsEndpoint;
  clients: { dynamo: DynamoDBClient; events: EventBridgeClient; scheduler: SchedulerClient };
  /** Where the zips are (`.serverless/`). */
  artifactDir: string;
  stack: DeployedStack;
  narrowPatterns?: Record<string, unknown>;
}

type Props = Record<string, unknown>;
type Creator = (id: string, p: Props, ctx: DeployContext) => Promise<Physical>;

const arn = (ctx: DeployContext, service: string, resource: string): string =>
  `arn:aws:${service}:${ctx.stack.region}:${ctx.stack.accountId}:${resource}`;

async function createQueue(ctx: DeployContext, name: string, attributes: Record<string, string>) {
  const { QueueUrl } = await sqs<{ QueueUrl: string }>(ctx.ep, 'CreateQueue', {
    QueueName: name,
    Attributes: attributes,
  });
  const { Attributes } = await sqs<{ Attributes: { QueueArn: string } }>(ctx.ep, 'GetQueueAttributes', {
    QueueUrl,
    AttributeNames: ['QueueArn'],
  });
  return { url: QueueUrl, arn: Attributes.QueueArn };
}

/**
 * `pattern` with `extra`'s fields added (objects merged one level deep), when it routes reconcile requests; any other
 * rule's pattern (the watch slices', whose detail names clusters, not objects) as it is.
 */
function narrow(pattern: Props, extra: Props | undefined): Props {
  const types = pattern['detail-type'];
  if (!Array.isArray(types) || !types.includes(DETAIL_TYPE)) return pattern;
  const out = { ...pattern };
  for (const [k, v] of Object.entries(extra ?? {}))
    out[k] =
      typeof v === 'object' && v && !Array.isArray(v) && typeof out[k] === 'object'
        ? { ...(out[k] as Props), ...(v as Props) }
        : v;
  return out;
}

const isFunctionArn = (a: unknown): a is string => typeof a === 'string' && a.includes(':lambda:');

/** Resource type → the calls that create it. */
const CREATORS: Record<string, Creator> = {
  async 'AWS::DynamoDB::Table'(_id, p, ctx) {
    const out = await ctx.clients.dynamo.send(
      new CreateTableCommand({
        TableName: p.TableName as string,
        KeySchema: p.KeySchema as never,
        AttributeDefinitions: p.AttributeDefinitions as never,
        BillingMode: p.BillingMode as never,
      }),
    );
    const ttl = p.TimeToLiveSpecification as { AttributeName: string; Enabled: boolean } | undefined;
    if (ttl)
      await ctx.clients.dynamo.send(
        new UpdateTimeToLiveCommand({ TableName: p.TableName as string, TimeToLiveSpecification: ttl }),
      );
    return { ref: p.TableName as string, attrs: { Arn: out.TableDescription?.TableArn ?? '' } };
  },
  async 'AWS::Events::EventBus'(_id, p, ctx) {
    const out = await ctx.clients.events.send(new CreateEventBusCommand({ Name: p.Name as string }));
    return { ref: p.Name as string, attrs: { Arn: out.EventBusArn ?? '', Name: p.Name as string } };
  },
  async 'AWS::SQS::Queue'(id, p, ctx) {
    const name = (p.QueueName as string | undefined) ?? `${ctx.stack.stackName}-${id}`;
    const attributes = Object.fromEntries(
      Object.entries(p)
        .filter(([k]) => k !== 'QueueName')
        .map(([k, v]) => [k, String(v)]),
    );
    const q = await createQueue(ctx, name, attributes);
    return { ref: q.url, attrs: { Arn: q.arn, QueueName: name, QueueUrl: q.url } };
  },
  async 'AWS::Scheduler::ScheduleGroup'(_id, p, ctx) {
    const out = await ctx.clients.scheduler.send(new CreateScheduleGroupCommand({ Name: p.Name as string }));
    ctx.stack.scheduleGroups.push(p.Name as string);
    return { ref: p.Name as string, attrs: { Arn: out.ScheduleGroupArn ?? '' } };
  },
  async 'AWS::Events::Rule'(id, p, ctx) {
    const name = (p.Name as string | undefined) ?? `${ctx.stack.stackName}-${id}`.slice(0, 64);
    const bus = p.EventBusName as string | undefined;
    const rule = await ctx.clients.events.send(
      new PutRuleCommand({
        Name: name,
        ...(bus ? { EventBusName: bus } : {}),
        ...(p.EventPattern
          ? { EventPattern: JSON.stringify(narrow(p.EventPattern as Props, ctx.narrowPatterns)) }
          : {}),
        ...(p.ScheduleExpression ? { ScheduleExpression: p.ScheduleExpression as string } : {}),
        State: (p.State as 'ENABLED' | undefined) ?? 'ENABLED',
      }),
    );
    const ruleArn = rule.RuleArn ?? '';
    const targets: Target[] = [];
    for (const t of (p.Targets as Target[] | undefined) ?? []) {
      const fn = [...ctx.stack.functions.values()].find((f) => f.arn === t.Arn);
      if (!isFunctionArn(t.Arn) || !fn) {
        targets.push(t);
        continue;
      }
      if (p.ScheduleExpression) {
        ctx.stack.schedules.push({
          rule: name,
          ruleArn,
          expression: p.ScheduleExpression as string,
          functionLogicalId: fn.logicalId,
        });
        continue;
      }
      // moto's rules deliver to SQS, not to functions: the function's place is taken by its inbox queue.
      const inbox = await createQueue(ctx, `${name}-${t.Id}`.slice(0, 80), {});
      targets.push({ ...t, Arn: inbox.arn });
      ctx.stack.inboxes.push({ rule: name, functionLogicalId: fn.logicalId, queueUrl: inbox.url });
    }
    if (targets.length > 0)
      await ctx.clients.events.send(
        new PutTargetsCommand({ Rule: name, ...(bus ? { EventBusName: bus } : {}), Targets: targets }),
      );
    return { ref: bus ? `${bus}|${name}` : name, attrs: { Arn: ruleArn } };
  },
  async 'AWS::Lambda::Function'(id, p, ctx) {
    const name = p.FunctionName as string;
    const code = p.Code as { S3Key?: string } | undefined;
    if (!code?.S3Key)
      throw new KruiselessError(`${id}: Code.S3Key is missing (not an osls package template?)`);
    const spec: FunctionSpec = {
      logicalId: id,
      name,
      arn: arn(ctx, 'lambda', `function:${name}`),
      handler: p.Handler as string,
      zip: path.join(ctx.artifactDir, path.basename(code.S3Key)),
      timeoutSeconds: (p.Timeout as number | undefined) ?? 3,
      memoryMb: (p.MemorySize as number | undefined) ?? 128,
      env: Object.fromEntries(
        Object.entries((p.Environment as { Variables?: Props } | undefined)?.Variables ?? {}).map(
          ([k, v]) => [k, String(v)],
        ),
      ),
      roleArn: p.Role as string,
      concurrency: (p.ReservedConcurrentExecutions as number | undefined) ?? 10,
      maxRetries: 2,
    };
    ctx.stack.functions.set(id, spec);
    return { ref: name, attrs: { Arn: spec.arn } };
  },
  async 'AWS::Lambda::EventInvokeConfig'(id, p, ctx) {
    const fn = [...ctx.stack.functions.values()].find((f) => f.name === p.FunctionName);
    if (!fn) throw new KruiselessError(`${id}: no function named ${String(p.FunctionName)}`);
    fn.maxRetries = (p.MaximumRetryAttempts as number | undefined) ?? 2;
    const onFailure = (p.DestinationConfig as { OnFailure?: { Destination?: string } } | undefined)?.OnFailure
      ?.Destination;
    if (onFailure) fn.onFailureArn = onFailure;
    return { ref: id, attrs: {} };
  },
};

/** Resource types created by nothing here, with why, and the ids `Ref`/`Fn::GetAtt` on them answer. */
const SKIPPED: Record<
  string,
  { why: string; physical: (id: string, p: Props, s: DeployedStack) => Physical }
> = {
  'AWS::IAM::Role': {
    why: 'IAM is not enforced (each function still gets credentials of its own role, from STS AssumeRole)',
    physical: (id, p, s) => {
      const name = (p.RoleName as string | undefined) ?? `${s.stackName}-${id}`;
      return { ref: name, attrs: { Arn: `arn:aws:iam::${s.accountId}:role/${name}` } };
    },
  },
  'AWS::Logs::LogGroup': {
    why: 'function output goes to log files',
    physical: (id, p, s) => {
      const name = (p.LogGroupName as string | undefined) ?? id;
      return { ref: name, attrs: { Arn: `arn:aws:logs:${s.region}:${s.accountId}:log-group:${name}:*` } };
    },
  },
  'AWS::S3::Bucket': {
    why: 'the zips are read from .serverless/',
    physical: (id) => ({ ref: id, attrs: {} }),
  },
  'AWS::S3::BucketPolicy': { why: 'no bucket', physical: (id) => ({ ref: id, attrs: {} }) },
  'AWS::SQS::QueuePolicy': { why: 'IAM is not enforced', physical: (id) => ({ ref: id, attrs: {} }) },
  'AWS::Lambda::Permission': { why: 'IAM is not enforced', physical: (id) => ({ ref: id, attrs: {} }) },
  'AWS::Lambda::Version': { why: '$LATEST is invoked', physical: (id) => ({ ref: id, attrs: {} }) },
  'AWS::Lambda::Alias': {
    why: '$LATEST is invoked (provisioned concurrency, the one alias the template may have, is not emulated)',
    physical: (id) => ({ ref: id, attrs: {} }),
  },
  'AWS::Lambda::Url': {
    why: 'the admission Function URL is not served',
    physical: (id) => ({ ref: id, attrs: {} }),
  },
  'AWS::CloudWatch::Alarm': { why: 'no CloudWatch here', physical: (id) => ({ ref: id, attrs: {} }) },
  'AWS::CloudWatch::Dashboard': { why: 'no CloudWatch here', physical: (id) => ({ ref: id, attrs: {} }) },
  'AWS::SNS::Topic': {
    why: 'alarm notifications are not emulated',
    physical: (id, _p, s) => ({
      ref: `arn:aws:sns:${s.region}:${s.accountId}:${id}`,
      attrs: { TopicArn: `arn:aws:sns:${s.region}:${s.accountId}:${id}` },
    }),
  },
};

/** Options of {@link deployTemplate}. */
export interface DeployOptions {
  ep: AwsEndpoint;
  template: CfnTemplate;
  /** Directory of the template and the zips. */
  artifactDir: string;
  stackName: string;
  /** moto's default account unless told otherwise. */
  accountId?: string;
  /**
   * Fields added to the `EventPattern` of every rule routing reconcile requests, e.g. `{ detail: { namespace: ['ns'] }
   * }`: tests sharing one cluster narrow their rule to their namespace, as test/integration/support/pipeline.ts does
   * for the embedded bus.
   */
  narrowPatterns?: Record<string, unknown>;
}

/**
 * Create the template's resources on the emulated endpoint.
 * @returns the emulated stack
 * @throws UnsupportedResourceError before creating anything when a resource type is neither created nor skipped;
 *   IntrinsicError; AWS SDK errors of the emulator
 */
export async function deployTemplate(opts: DeployOptions): Promise<DeployedStack> {
  const { ep, template, artifactDir, stackName } = opts;
  for (const [id, r] of Object.entries(template.Resources))
    if (!CREATORS[r.Type] && !SKIPPED[r.Type]) throw new UnsupportedResourceError(id, r.Type);
  const stack: DeployedStack = {
    stackName,
    region: ep.region,
    accountId: opts.accountId ?? '123456789012',
    physical: new Map(),
    functions: new Map(),
    inboxes: [],
    schedules: [],
    scheduleGroups: [],
    skipped: [],
    outputs: {},
  };
  const config = { endpoint: ep.url, region: ep.region, credentials: ep.credentials };
  const ctx: DeployContext = {
    ep,
    artifactDir,
    stack,
    ...(opts.narrowPatterns ? { narrowPatterns: opts.narrowPatterns } : {}),
    clients: {
      dynamo: new DynamoDBClient(config),
      events: new EventBridgeClient(config),
      scheduler: new SchedulerClient(config),
    },
  };
  const pseudo = {
    'AWS::Region': ep.region,
    'AWS::AccountId': stack.accountId,
    'AWS::Partition': 'aws',
    'AWS::StackName': stackName,
    'AWS::URLSuffix': 'amazonaws.com',
  };
  const base: ResolveContext = { pseudo, physical: stack.physical, parameters: parameterDefaults(template) };
  const rctx: ResolveContext = { ...base, condition: conditionsOf(template, base) };
  for (const id of creationOrder(template)) {
    const r = template.Resources[id];
    if (r.Condition && !rctx.condition?.(r.Condition)) {
      stack.skipped.push({ id, type: r.Type, why: `condition ${r.Condition} is false` });
      continue;
    }
    const skip = SKIPPED[r.Type];
    if (skip) {
      let props: Props;
      try {
        props = resolve(r.Properties ?? {}, rctx) as Props;
      } catch {
        props = {}; // nothing is created from it: its names only, when they resolve
      }
      stack.skipped.push({ id, type: r.Type, why: skip.why });
      stack.physical.set(id, skip.physical(id, props, stack));
    } else {
      const props = resolve(r.Properties ?? {}, rctx) as Props;
      stack.physical.set(id, await CREATORS[r.Type](id, props, ctx));
    }
  }
  for (const [name, out] of Object.entries(template.Outputs ?? {})) {
    try {
      stack.outputs[name] = String(resolve(out.Value, rctx));
    } catch {
      // an output on a skipped resource's attribute (the Function URL): not available here
    }
  }
  for (const c of Object.values(ctx.clients)) c.destroy();
  return stack;
}
