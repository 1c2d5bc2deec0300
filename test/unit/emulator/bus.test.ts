import { KNOWN_KINDS } from '../../../lib/controllers/index.js';
import { describe, expect, it } from '@jest/globals';
import { parseReconcileEvent, toPutEventsEntry, type ReconcileRequest } from '../../../lib/requests/index.js';
import {
  InvalidPatternError,
  InvalidServerlessConfigError,
  LocalBus,
  bindServerlessRules,
  loadRulesFromServerless,
  type EventBridgeEnvelope,
} from '../../../lib/emulator/index.js';
import { errorMessage } from '../../../lib/core/errors.js';

const RECONCILE_PATTERN = { source: ['kruiseless'], 'detail-type': ['Reconcile Requested'] };

function req(name: string, reason: ReconcileRequest['reason'] = 'OwnedObjectChanged'): ReconcileRequest {
  return { version: 2, cluster: 'prod', kind: 'apps.kruise.io/CloneSet', namespace: 'default', name, reason };
}

/** A target that records what it received. */
function recorder(): { events: EventBridgeEnvelope[]; target: (e: EventBridgeEnvelope) => Promise<void> } {
  const events: EventBridgeEnvelope[] = [];
  return { events, target: async (e) => void events.push(e) };
}

describe('LocalBus', () => {
  it('delivers a published request to every matching rule as an EventBridge envelope', async () => {
    const reconcile = recorder();
    const audit = recorder();
    const other = recorder();
    const bus = new LocalBus({
      clock: () => Date.parse('2026-11-30T12:00:00.123Z'),
      rules: [
        { name: 'reconcile', eventPattern: RECONCILE_PATTERN, target: reconcile.target },
        { name: 'audit', eventPattern: { source: [{ prefix: 'kruise' }] }, target: audit.target },
        { name: 'ec2', eventPattern: { source: ['aws.ec2'] }, target: other.target },
      ],
    });
    expect(await bus.publish([req('web'), req('web', 'Requeue')])).toEqual({
      published: 1,
      calls: 1,
      retried: 0,
    });
    await bus.drain();
    expect(reconcile.events).toEqual([
      {
        version: '0',
        id: expect.any(String),
        'detail-type': 'Reconcile Requested',
        source: 'kruiseless',
        account: '000000000000',
        time: '2026-11-30T12:00:00Z',
        region: 'us-east-1',
        resources: [],
        detail: {
          version: 2,
          cluster: 'prod',
          kind: 'apps.kruise.io/CloneSet',
          namespace: 'default',
          name: 'web',
          reason: 'OwnedObjectChanged',
        },
      },
    ]);
    expect(audit.events).toHaveLength(1);
    expect(other.events).toHaveLength(0);
    expect(parseReconcileEvent(reconcile.events[0], KNOWN_KINDS)).toEqual(req('web'));
  });

  it('routes on detail fields', async () => {
    const requeues = recorder();
    const bus = new LocalBus({
      rules: [
        { name: 'requeues', eventPattern: { detail: { reason: ['Requeue'] } }, target: requeues.target },
      ],
    });
    await bus.publish([req('a'), req('b', 'Requeue')]);
    await bus.drain();
    expect(requeues.events.map((e) => e.detail.name)).toEqual(['b']);
  });

  it('runs targets only after put returns', async () => {
    const { events, target } = recorder();
    const bus = new LocalBus({ rules: [{ name: 'r', eventPattern: RECONCILE_PATTERN, target }] });
    await bus.put([toPutEventsEntry(req('a'), 'kruiseless')]);
    expect(events).toHaveLength(0);
    await bus.drain();
    expect(events).toHaveLength(1);
  });

  it('drain waits for deliveries caused by deliveries', async () => {
    const seen: string[] = [];
    const bus: LocalBus = new LocalBus({
      rules: [
        {
          name: 'chain',
          eventPattern: RECONCILE_PATTERN,
          target: async (e) => {
            seen.push(e.detail.reason as string);
            if (e.detail.reason === 'OwnedObjectChanged')
              await bus.publish([{ ...req('a'), reason: 'Requeue' }]);
          },
        },
      ],
    });
    await bus.publish([req('a')]);
    await bus.drain();
    expect(seen).toEqual(['OwnedObjectChanged', 'Requeue']);
  });

  it('retries a failing target per its retry policy, then hands the event to the dead-letter handler', async () => {
    let calls = 0;
    const dead: Array<[string, string, string]> = [];
    const bus = new LocalBus({
      retryPolicy: { maximumRetryAttempts: 5 },
      onDeadLetter: (event, error, rule) =>
        dead.push([event.detail.name as string, errorMessage(error), rule]),
      rules: [
        {
          name: 'reconcile',
          eventPattern: RECONCILE_PATTERN,
          retryPolicy: { maximumRetryAttempts: 2 },
          target: async () => {
            calls++;
            throw new Error(`attempt ${calls} failed`);
          },
        },
      ],
    });
    await bus.publish([req('web')]);
    await bus.drain();
    expect(calls).toBe(3);
    expect(dead).toEqual([['web', 'attempt 3 failed', 'reconcile']]);
    expect(bus.deadLetters.map((d) => d.ruleName)).toEqual(['reconcile']);
  });

  it('uses the Lambda async default of two retries when no policy is given', async () => {
    let calls = 0;
    const bus = new LocalBus({
      rules: [
        {
          name: 'r',
          eventPattern: RECONCILE_PATTERN,
          target: async () => {
            calls++;
            throw new Error('x');
          },
        },
      ],
    });
    await bus.publish([req('web')]);
    await bus.drain();
    expect(calls).toBe(3);
    expect(bus.deadLetters).toHaveLength(1);
  });

  it('delivers after a transient failure without dead-lettering', async () => {
    let calls = 0;
    const bus = new LocalBus({
      rules: [
        {
          name: 'r',
          eventPattern: RECONCILE_PATTERN,
          target: async () => {
            if (++calls === 1) throw new Error('transient');
          },
        },
      ],
    });
    await bus.publish([req('web')]);
    await bus.drain();
    expect([calls, bus.deadLetters.length]).toEqual([2, 0]);
  });

  it('refuses malformed detail and unknown buses per entry, like PutEvents', async () => {
    const { events, target } = recorder();
    const bus = new LocalBus({ rules: [{ name: 'r', eventPattern: { source: ['s'] }, target }] });
    const response = await bus.put([
      { Source: 's', DetailType: 't', Detail: '{"ok":true}' },
      { Source: 's', DetailType: 't', Detail: 'not json' },
      { Source: 's', DetailType: 't', Detail: '{}', EventBusName: 'other' },
      {
        Source: 's',
        DetailType: 't',
        Detail: '{}',
        EventBusName: 'arn:aws:events:eu-west-1:1:event-bus/kruiseless',
      },
    ]);
    expect(response.FailedEntryCount).toBe(2);
    expect(response.Entries?.map((e) => e.ErrorCode ?? 'ok')).toEqual([
      'ok',
      'MalformedDetail',
      'ResourceNotFoundException',
      'ok',
    ]);
    await bus.drain();
    expect(events).toHaveLength(2);
  });

  it('rejects an invalid rule pattern at construction', () => {
    expect(
      () =>
        new LocalBus({
          rules: [{ name: 'bad', eventPattern: { source: 'kruiseless' }, target: async () => {} }],
        }),
    ).toThrow(InvalidPatternError);
  });
});

/** Shaped like osls's `eventBridge` event config (serverless.yml is written elsewhere later). */
const SERVERLESS_YML = `
service: kruiseless
provider:
  name: aws
  runtime: nodejs22.x
functions:
  reconcile:
    handler: functions/reconcile.handler
    maximumRetryAttempts: 1
    events:
      - eventBridge:
          eventBus: !GetAtt KruiselessBus.Arn
          pattern:
            source:
              - kruiseless
            detail-type:
              - Reconcile Requested
          retryPolicy:
            maximumEventAge: 3600
            maximumRetryAttempts: 24
          deadLetterQueueArn: !GetAtt ReconcileDlq.Arn
  resync:
    handler: functions/resync.handler
    events:
      - eventBridge:
          schedule: rate(5 minutes)
      - eventBridge:
          name: resync-on-demand
          eventBus: kruiseless
          pattern:
            source: [kruiseless]
            detail:
              reason: [Resync]
      - eventBridge:
          enabled: false
          pattern:
            source: [kruiseless]
  pump:
    handler: functions/pump.handler
    events:
      - schedule: rate(1 minute)
`;

describe('loadRulesFromServerless', () => {
  it('extracts each enabled eventBridge pattern with its function, name, bus and retry policy', () => {
    expect(loadRulesFromServerless(SERVERLESS_YML)).toEqual([
      {
        functionName: 'reconcile',
        name: 'reconcile-eventBridge-1',
        eventBus: { 'Fn::GetAtt': ['KruiselessBus', 'Arn'] },
        pattern: RECONCILE_PATTERN,
        retryPolicy: { maximumEventAge: 3600, maximumRetryAttempts: 24 },
        deadLetterQueueArn: { 'Fn::GetAtt': ['ReconcileDlq', 'Arn'] },
        functionRetryAttempts: 1,
      },
      {
        functionName: 'resync',
        name: 'resync-on-demand',
        eventBus: 'kruiseless',
        pattern: { source: ['kruiseless'], detail: { reason: ['Resync'] } },
        functionRetryAttempts: 2,
      },
    ]);
  });

  it('drives a LocalBus that routes exactly like the deployed rules', async () => {
    const reconcile = recorder();
    const resync = recorder();
    const bus = new LocalBus({
      rules: bindServerlessRules(loadRulesFromServerless(SERVERLESS_YML), {
        reconcile: reconcile.target,
        resync: resync.target,
      }),
    });
    await bus.publish([req('a'), req('b', 'Resync')]);
    await bus.drain();
    expect(reconcile.events.map((e) => e.detail.name)).toEqual(['a', 'b']);
    expect(resync.events.map((e) => e.detail.name)).toEqual(['b']);
  });

  it("retries a throwing handler as Lambda would: the function's maximumRetryAttempts (default 2), not the rule's delivery retries", async () => {
    let calls = 0;
    const rules = bindServerlessRules(loadRulesFromServerless(SERVERLESS_YML), {
      reconcile: async () => {
        calls++;
        throw new Error('down');
      },
      resync: async () => {},
    });
    expect(rules.map((r) => [r.name, r.retryPolicy])).toEqual([
      ['reconcile-eventBridge-1', { maximumRetryAttempts: 1 }],
      ['resync-on-demand', { maximumRetryAttempts: 2 }],
    ]);
    const bus = new LocalBus({ rules });
    await bus.publish([req('a')]);
    await bus.drain();
    expect(calls).toBe(2);
  });

  it('refuses to bind a rule whose function has no local target', () => {
    expect(() =>
      bindServerlessRules(loadRulesFromServerless(SERVERLESS_YML), { resync: async () => {} }),
    ).toThrow('no local target for function(s) reconcile');
  });

  it('names the path of an invalid pattern and of a bad retry policy', () => {
    const yml = `
functions:
  f:
    events:
      - eventBridge:
          pattern:
            source: kruiseless
      - eventBridge:
          retryPolicy: { maximumRetryAttempts: 200 }
          pattern: { source: [x] }
`;
    expect(() => loadRulesFromServerless(yml)).toThrow(InvalidServerlessConfigError);
    expect(() => loadRulesFromServerless(yml)).toThrow(
      /^invalid serverless\.yml: functions\.f\.events\[0\]\.eventBridge\.pattern\.source: a pattern value must be an array or an object; functions\.f\.events\[1\]\.eventBridge\.retryPolicy\.maximumRetryAttempts: .+$/,
    );
  });

  it('reports unparseable YAML and returns no rules for a file without functions', () => {
    expect(() => loadRulesFromServerless('functions: [')).toThrow(/^invalid serverless\.yml: not YAML: /);
    expect(loadRulesFromServerless('service: x\n')).toEqual([]);
  });
});
