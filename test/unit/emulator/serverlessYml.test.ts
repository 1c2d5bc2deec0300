/**
 * The deployed serverless.yml, read the way the local bus reads it ({@link loadRulesFromServerless}): the reconcile
 * function's EventBridge rule must route exactly the reconcile requests (docs/architecture.md#reconcile-request), so the embedded default and
 * AWS deliver the same events to the same function.
 */
import { KNOWN_KINDS } from '../../../lib/controllers/index.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { DETAIL_TYPE, SOURCE, parseReconcileEvent } from '../../../lib/requests/index.js';
import {
  LocalBus,
  bindServerlessRules,
  loadRulesFromServerless,
  loadSchedulesFromServerless,
  matchesPattern,
  type EventBridgeEnvelope,
  type ServerlessEventBridgeRule,
} from '../../../lib/emulator/index.js';

const SERVERLESS_YML = new URL('../../../serverless.yml', import.meta.url);

function rules(): ServerlessEventBridgeRule[] {
  return loadRulesFromServerless(readFileSync(SERVERLESS_YML, 'utf8'));
}

function reconcileRule(): ServerlessEventBridgeRule {
  const found = rules().filter((r) => r.functionName === 'reconcile');
  expect(found).toHaveLength(1);
  return found[0];
}

/** A reconcile request as EventBridge delivers it to the rule's target. */
function envelope(overrides: Partial<EventBridgeEnvelope> = {}): EventBridgeEnvelope {
  return {
    version: '0',
    id: '6a7e8feb-b491-4cf7-a9f1-bf3703467718',
    'detail-type': DETAIL_TYPE,
    source: SOURCE,
    account: '111122223333',
    time: '2026-11-30T12:00:00Z',
    region: 'us-east-1',
    resources: [],
    detail: {
      version: 2,
      cluster: 'prod',
      kind: 'apps.kruise.io/CloneSet',
      namespace: 'default',
      name: 'cs-no-pvc-sample',
      reason: 'OwnedObjectChanged',
      resourceVersion: '4711',
    },
    ...overrides,
  };
}

describe('serverless.yml EventBridge rules', () => {
  it('loads: the watch function is routed watch slices, the reconcile function reconcile requests', () => {
    expect(rules().map((r) => [r.functionName, r.pattern])).toEqual([
      ['watch', { source: ['kruiseless'], 'detail-type': ['Watch Slice Requested'] }],
      ['reconcile', { source: ['kruiseless'], 'detail-type': ['Reconcile Requested'] }],
    ]);
  });

  it('routes by source kruiseless and detail-type "Reconcile Requested"', () => {
    expect(reconcileRule().pattern).toEqual({
      source: ['kruiseless'],
      'detail-type': ['Reconcile Requested'],
    });
  });

  it('matches a valid reconcile request, whatever its reason', () => {
    const { pattern } = reconcileRule();
    for (const reason of ['ObjectChanged', 'OwnedObjectChanged', 'OwnedObjectChanged', 'Resync', 'Requeue']) {
      const event = envelope({ detail: { ...envelope().detail, reason } });
      expect(parseReconcileEvent(event, KNOWN_KINDS)).toMatchObject({ reason });
      expect(matchesPattern(pattern, event)).toBe(true);
    }
  });

  it('rejects other sources and other detail-types', () => {
    const { pattern } = reconcileRule();
    for (const source of ['aws.events', 'kruiseless.test', 'Kruiseless', 'kruise']) {
      expect(matchesPattern(pattern, envelope({ source }))).toBe(false);
    }
    for (const detailType of [
      'Scheduled Event',
      'Reconcile Requested ',
      'cloneset reconcile requested',
      'CloneSet Changed',
    ]) {
      expect(matchesPattern(pattern, envelope({ 'detail-type': detailType }))).toBe(false);
    }
    const { source: _source, ...noSource } = envelope();
    expect(matchesPattern(pattern, noSource)).toBe(false);
  });

  it('is on the custom bus with a retry policy and a dead-letter queue', () => {
    const rule = reconcileRule();
    expect(rule.eventBus).toEqual({ Ref: 'EventBus' });
    expect(rule.retryPolicy?.maximumRetryAttempts).toBeGreaterThanOrEqual(0);
    expect(rule.retryPolicy?.maximumEventAge).toBeGreaterThanOrEqual(60);
    expect(rule.deadLetterQueueArn).toEqual({ 'Fn::GetAtt': ['DeadLetterQueue', 'Arn'] });
  });

  it('delivers a published request to the reconcile target on a local bus built from the file', async () => {
    const delivered: EventBridgeEnvelope[] = [];
    const bus = new LocalBus({
      rules: bindServerlessRules(rules(), {
        reconcile: async (e) => void delivered.push(e),
        watch: () => Promise.reject(new Error('a reconcile request reached the watch function')),
      }),
    });
    await bus.publish([
      {
        version: 2,
        cluster: 'prod',
        kind: 'apps.kruise.io/CloneSet',
        namespace: 'default',
        name: 'web',
        reason: 'Resync',
      },
    ]);
    await bus.drain();
    expect(delivered.map((e) => parseReconcileEvent(e, KNOWN_KINDS))).toEqual([
      {
        version: 2,
        cluster: 'prod',
        kind: 'apps.kruise.io/CloneSet',
        namespace: 'default',
        name: 'web',
        reason: 'Resync',
      },
    ]);
  });
});

describe('serverless.yml schedules (what the embedded default runs on the same periods)', () => {
  it('reads the watch pump every minute (70 s) and the resync every 5 minutes (60 s)', () => {
    expect(loadSchedulesFromServerless(readFileSync(SERVERLESS_YML, 'utf8'))).toEqual([
      { functionName: 'watch', expression: 'rate(1 minute)', everyMs: 60_000, timeoutSeconds: 70 },
      { functionName: 'resync', expression: 'rate(5 minutes)', everyMs: 300_000, timeoutSeconds: 60 },
    ]);
  });

  it("reads osls's object form, skips a disabled schedule, and assumes osls's 6 s timeout when none is a number", () => {
    const yml = `
functions:
  a:
    timeout: \${param:t}
    events:
      - schedule: { rate: [rate(2 hours), rate(1 day)] }
      - schedule: { rate: rate(3 minutes), enabled: false }
      - eventBridge: { pattern: { source: [x] } }
`;
    expect(loadSchedulesFromServerless(yml)).toEqual([
      { functionName: 'a', expression: 'rate(2 hours)', everyMs: 7_200_000, timeoutSeconds: 6 },
      { functionName: 'a', expression: 'rate(1 day)', everyMs: 86_400_000, timeoutSeconds: 6 },
    ]);
  });

  it('refuses an expression it cannot run, naming the event', () => {
    expect(() =>
      loadSchedulesFromServerless('functions: { a: { events: [ { schedule: "cron(0 12 * * ? *)" } ] } }'),
    ).toThrow(/functions\.a\.events\[0\]\.schedule.*not emulated/);
  });
});
