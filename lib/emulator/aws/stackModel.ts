/**
 * What the template deployer (deploy.ts) leaves behind for the invoker and the event sources: the functions with
 * their resolved configuration, the rule targets that lead to them and the schedules that start them.
 */
import type { Physical } from './template.js';

/** One `AWS::Lambda::Function` (with its `AWS::Lambda::EventInvokeConfig`), intrinsics resolved. */
export interface FunctionSpec {
  logicalId: string;
  /** `FunctionName` */
  name: string;
  arn: string;
  /** `Handler`, e.g. `functions/reconcile.handler` (file without extension, then the export). */
  handler: string;
  /** The packaged zip (`.serverless/<fn>.zip`, from the `Code.S3Key` file name). */
  zip: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** `Environment.Variables` */
  env: Record<string, string>;
  /** The execution role the function's credentials are issued for. */
  roleArn: string;
  /** `ReservedConcurrentExecutions`: most instances at once (default here: 10). */
  concurrency: number;
  /** Async retries after a failed invocation (`MaximumRetryAttempts`; Lambda's default 2). */
  maxRetries: number;
  /** `DestinationConfig.OnFailure.Destination` (an SQS queue ARN here). */
  onFailureArn?: string;
}

/** An EventBridge rule target that is a function: the rule delivers to `queueUrl`, which the emulator polls. */
export interface FunctionInbox {
  rule: string;
  functionLogicalId: string;
  queueUrl: string;
}

/** A `ScheduleExpression` rule's function target. */
export interface ScheduledTarget {
  rule: string;
  ruleArn: string;
  /** e.g. `rate(1 minute)` */
  expression: string;
  functionLogicalId: string;
}

/** The emulated stack. */
export interface DeployedStack {
  stackName: string;
  region: string;
  accountId: string;
  physical: Map<string, Physical>;
  functions: Map<string, FunctionSpec>;
  inboxes: FunctionInbox[];
  schedules: ScheduledTarget[];
  /** Names of the `AWS::Scheduler::ScheduleGroup`s. */
  scheduleGroups: string[];
  /** Resources not created, with why (IAM, log groups, alarms, …). */
  skipped: { id: string; type: string; why: string }[];
  /** The template's Outputs that resolve (the Function URL, for example, does not). */
  outputs: Record<string, string>;
}
