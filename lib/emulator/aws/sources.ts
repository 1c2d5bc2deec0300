/**
 * What starts the emulated functions, as AWS would: the EventBridge rule's deliveries (read from the inbox queue
 * that stands in for the function, deploy.ts), the schedule rules (a timer per rule; `intervalScale` < 1 runs them
 * faster) and EventBridge Scheduler's one-time schedules (polled; a due `at(...)` schedule puts its event on its
 * target bus and is deleted, as `ActionAfterCompletion: DELETE` says; one kept after it fired, `NONE`, fires again
 * only after an UpdateSchedule moved its `at()`).
 */
import { randomUUID } from 'node:crypto';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import {
  DeleteScheduleCommand,
  GetScheduleCommand,
  ListSchedulesCommand,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { queueUrlOfArn, sqs, type AwsEndpoint } from './awsCall.js';
import type { DeployedStack } from './stackModel.js';
import { scheduleRateMs } from '../serverlessRules.js';

/** Starts one asynchronous invocation of the function with this logical id. */
export type AsyncInvoker = (functionLogicalId: string, event: unknown) => void;

/** Options of {@link startEventSources}. */
export interface EventSourceOptions {
  ep: AwsEndpoint;
  stack: DeployedStack;
  invoke: AsyncInvoker;
  /** Multiplies every schedule rule's rate (default 1). */
  intervalScale?: number;
  /** How often the inbox queues and the schedules are polled, ms (default 250 and 1000). */
  pollMs?: { inbox: number; scheduler: number };
  /** Told about each schedule rule's timer and each schedule fired. */
  log?: (line: string) => void;
  /** Called when a poller fails (it keeps polling). */
  onError?: (e: Error) => void;
}

/** A one-time schedule that fired: its group, name and the event detail it put on the bus. */
export interface FiredSchedule {
  group: string;
  name: string;
  detail: unknown;
}

/** The running sources. */
export interface EventSources {
  /** Schedules fired so far, in order. */
  readonly schedulesFired: () => readonly FiredSchedule[];
  stop(): Promise<void>;
}

/**
 * The period of `rate(N unit)`, ms (the same reading as the embedded default's, lib/emulator/serverlessRules.ts).
 * @throws Error for any other schedule expression (cron is not emulated)
 */
export const rateMs: (expression: string) => number = scheduleRateMs;

/**
 * When `at(yyyy-mm-ddThh:mm:ss)` in `timezone` fires, epoch ms.
 * @returns undefined for other expressions or time zones other than UTC
 */
export function atMs(expression: string, timezone = 'UTC'): number | undefined {
  const m = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/.exec(expression);
  if (!m || timezone !== 'UTC') return undefined;
  return Date.parse(`${m[1]}Z`);
}

/** A loop calling `tick` every `ms` until stopped (a failing tick is reported and the loop goes on). */
function loop(ms: number, tick: () => Promise<void>, onError?: (e: Error) => void) {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      await tick().catch((e: Error) => onError?.(e));
      if (!stopped) await new Promise((r) => setTimeout(r, ms));
    }
  })();
  return async () => {
    stopped = true;
    await done;
  };
}

/** Start polling and the timers. */
export function startEventSources(opts: EventSourceOptions): EventSources {
  const { ep, stack, invoke, intervalScale = 1, log = () => undefined } = opts;
  const poll = opts.pollMs ?? { inbox: 250, scheduler: 1000 };
  const config = { endpoint: ep.url, region: ep.region, credentials: ep.credentials };
  const events = new EventBridgeClient(config);
  const scheduler = new SchedulerClient(config);
  const fired: FiredSchedule[] = [];
  /** The `at()` each kept schedule last fired at, by `<group>/<name>`. */
  const firedExpressions = new Map<string, string>();
  const stops: (() => Promise<void>)[] = [];

  for (const inbox of stack.inboxes)
    stops.push(
      loop(
        poll.inbox,
        async () => {
          const out = await sqs<{ Messages?: { Body: string; ReceiptHandle: string }[] }>(
            ep,
            'ReceiveMessage',
            {
              QueueUrl: inbox.queueUrl,
              MaxNumberOfMessages: 10,
              WaitTimeSeconds: 0,
            },
          );
          for (const m of out.Messages ?? []) {
            invoke(inbox.functionLogicalId, JSON.parse(m.Body));
            await sqs(ep, 'DeleteMessage', { QueueUrl: inbox.queueUrl, ReceiptHandle: m.ReceiptHandle });
          }
        },
        opts.onError,
      ),
    );

  const timers = stack.schedules.map((s) => {
    const every = rateMs(s.expression) * intervalScale;
    log(
      `rule ${s.rule} ${s.expression} → ${s.functionLogicalId} every ${(every / 1000).toFixed(0)} s, first now`,
    );
    const fire = () =>
      invoke(s.functionLogicalId, {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: stack.accountId,
        time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        region: stack.region,
        resources: [s.ruleArn],
        detail: {},
      });
    fire();
    return setInterval(fire, every);
  });

  const fireDue = async (group: string) => {
    const list = await scheduler.send(new ListSchedulesCommand({ GroupName: group }));
    for (const item of list.Schedules ?? []) {
      const s = await scheduler.send(new GetScheduleCommand({ GroupName: group, Name: item.Name }));
      const at = atMs(s.ScheduleExpression ?? '', s.ScheduleExpressionTimezone);
      if (at === undefined || at > Date.now() || !s.Target) continue;
      // a schedule kept after it fired (ActionAfterCompletion NONE: a wake-up) fires again only once moved
      const firedAs = `${group}/${item.Name ?? ''}`;
      if (firedExpressions.get(firedAs) === s.ScheduleExpression) continue;
      firedExpressions.set(firedAs, s.ScheduleExpression ?? '');
      const busArn = s.Target.Arn ?? '';
      const params = s.Target.EventBridgeParameters;
      try {
        const put = await events.send(
          new PutEventsCommand({
            Entries: [
              {
                EventBusName: busArn.split('/').pop(),
                Source: params?.Source,
                DetailType: params?.DetailType,
                Detail: s.Target.Input,
              },
            ],
          }),
        );
        if (put.FailedEntryCount) throw new Error(JSON.stringify(put.Entries));
      } catch (e) {
        const dlq = s.Target.DeadLetterConfig?.Arn;
        if (!dlq) throw e;
        await sqs(ep, 'SendMessage', {
          QueueUrl: await queueUrlOfArn(ep, dlq),
          MessageBody: s.Target.Input ?? '',
        });
      }
      fired.push({ group, name: item.Name ?? '', detail: JSON.parse(s.Target.Input ?? 'null') as unknown });
      log(`schedule ${group}/${item.Name} fired`);
      if ((s.ActionAfterCompletion ?? 'NONE') === 'DELETE')
        await scheduler.send(new DeleteScheduleCommand({ GroupName: group, Name: item.Name }));
    }
  };
  stops.push(
    loop(
      poll.scheduler,
      async () => {
        for (const g of stack.scheduleGroups) await fireDue(g);
      },
      opts.onError,
    ),
  );

  return {
    schedulesFired: () => fired,
    async stop() {
      timers.forEach(clearInterval);
      await Promise.all(stops.map((s) => s()));
      events.destroy();
      scheduler.destroy();
    },
  };
}
