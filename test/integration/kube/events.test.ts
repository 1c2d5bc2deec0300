/**
 * KubeClient.recordEvent on a real API server (through the CloneSet's recordCloneSetEvent): a core/v1 Event on the
 * CloneSet that `kubectl describe` would show, repeats folded into it with a count (docs/reliability.md#event-folding),
 * listed back by a field selector, and best-effort behaviour (a failed write is logged, never thrown).
 */
import type { CloneSet } from '../../../lib/api/types.js';
import { createKubeClient, type KubeClientLogger } from '../../../lib/kube/client.js';
import { eventName } from '../../../lib/kube/event.js';
import { listAll } from '../../../lib/kube/list.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { recordCloneSetEvent } from '../../../lib/controllers/cloneset/write.js';
import { useTestNamespace } from '../support/cluster.js';
import { seedCloneSet } from './fixtures.js';
import { CLONESET_RESOURCE } from '../../../lib/controllers/cloneset/api/resource.js';

const t = useTestNamespace('kube-events');
let cs: CloneSet;

beforeAll(async () => {
  cs = (await t.custom.createNamespacedCustomObject({
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    plural: 'clonesets',
    namespace: t.namespace,
    body: seedCloneSet(t.namespace),
  })) as CloneSet;
});

describe('KubeClient.recordEvent', () => {
  test('writes a core/v1 Event whose involvedObject is the CloneSet', async () => {
    const at = new Date('2026-11-30T12:34:56.789Z');
    const kube = createKubeClient(t.kc, { clock: () => at.getTime() });
    await recordCloneSetEvent(kube, cs, {
      type: 'Normal',
      reason: 'SuccessfulCreate',
      message: 'succeed to create pod cs-no-pvc-sample-abcde',
    });
    const events = await t.core.listNamespacedEvent({
      namespace: t.namespace,
      fieldSelector: `involvedObject.uid=${cs.metadata.uid}`,
    });
    expect(events.items).toHaveLength(1);
    const [e] = events.items;
    expect(e.metadata.name).toBe(
      eventName(CLONESET_RESOURCE, cs, {
        type: 'Normal',
        reason: 'SuccessfulCreate',
        message: 'succeed to create pod cs-no-pvc-sample-abcde',
      }),
    );
    expect(e.metadata.name).toMatch(/^cs-no-pvc-sample\.[0-9a-f]{16}$/);
    expect(e.involvedObject).toEqual({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      name: 'cs-no-pvc-sample',
      namespace: t.namespace,
      uid: cs.metadata.uid,
      resourceVersion: cs.metadata.resourceVersion,
    });
    expect(e.type).toBe('Normal');
    expect(e.reason).toBe('SuccessfulCreate');
    expect(e.message).toBe('succeed to create pod cs-no-pvc-sample-abcde');
    expect(e.source).toEqual({ component: 'kruiseless' });
    expect(e.reportingComponent).toBe('kruiseless');
    expect(e.count).toBe(1);
    expect(e.firstTimestamp?.toISOString()).toBe('2026-11-30T12:34:56.000Z');
    expect(e.lastTimestamp?.toISOString()).toBe('2026-11-30T12:34:56.000Z');
  });

  test('a Warning event is recorded with its type', async () => {
    const kube = createKubeClient(t.kc);
    await recordCloneSetEvent(kube, cs, {
      type: 'Warning',
      reason: 'FailedCreate',
      message: 'quota exceeded',
    });
    const events = await t.core.listNamespacedEvent({
      namespace: t.namespace,
      fieldSelector: 'reason=FailedCreate',
    });
    expect(events.items.map((e) => [e.type, e.involvedObject.name])).toEqual([
      ['Warning', 'cs-no-pvc-sample'],
    ]);
  });

  test('repeats fold into one Event: count and lastTimestamp move, firstTimestamp stays; 10 minutes later it restarts', async () => {
    let now = Date.parse('2026-11-30T13:00:00Z');
    const kube = createKubeClient(t.kc, { clock: () => now });
    const event = { type: 'Warning' as const, reason: 'FailedScale', message: 'folded' };
    const read = async () =>
      (
        await t.core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'reason=FailedScale' })
      ).items.map((e) => ({
        name: e.metadata.name,
        count: e.count,
        first: e.firstTimestamp?.toISOString(),
        last: e.lastTimestamp?.toISOString(),
      }));
    const name = eventName(CLONESET_RESOURCE, cs, event);
    await recordCloneSetEvent(kube, cs, event);
    now += 30_000;
    await recordCloneSetEvent(kube, cs, event);
    now += 90_000;
    await recordCloneSetEvent(kube, cs, event);
    expect(await read()).toEqual([
      { name, count: 3, first: '2026-11-30T13:00:00.000Z', last: '2026-11-30T13:02:00.000Z' },
    ]);
    // three recorders at once (concurrent invocations): the conflicts are retried, every repeat is counted
    await Promise.all([1, 2, 3].map(() => recordCloneSetEvent(kube, cs, event)));
    expect((await read())[0].count).toBe(6);
    now += 10 * 60_000 + 1000;
    await recordCloneSetEvent(kube, cs, event);
    expect(await read()).toEqual([
      { name, count: 1, first: '2026-11-30T13:12:01.000Z', last: '2026-11-30T13:12:01.000Z' },
    ]);
  });

  test('the Events of an object are listed through the generic client by an involvedObject field selector', async () => {
    const kube = createKubeClient(t.kc);
    const events = await listAll(kube, RESOURCES.events, {
      namespace: t.namespace,
      fieldSelector: `involvedObject.uid=${cs.metadata.uid}`,
    });
    expect(events.items.length).toBeGreaterThanOrEqual(3);
    for (const e of events.items) {
      expect(e.kind).toBe('Event');
      expect(e.involvedObject.uid).toBe(cs.metadata.uid);
      expect(typeof e.lastTimestamp).toBe('string');
    }
  });

  test('a failed write is logged and swallowed, never thrown', async () => {
    const warnings: { message: string; details: Record<string, unknown> }[] = [];
    const logger: KubeClientLogger = { warn: (message, details) => warnings.push({ message, details }) };
    const kube = createKubeClient(t.kc, { logger, retry: { retries: 0, minTimeoutMs: 10 } });
    const elsewhere: CloneSet = { ...cs, metadata: { ...cs.metadata, namespace: 'no-such-namespace' } };
    await expect(
      recordCloneSetEvent(kube, elsewhere, { type: 'Normal', reason: 'SuccessfulDelete', message: 'x' }),
    ).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0].details).toMatchObject({
      namespace: 'no-such-namespace',
      kind: 'CloneSet',
      name: 'cs-no-pvc-sample',
      reason: 'SuccessfulDelete',
    });
    expect(String(warnings[0].details.error)).toMatch(/NotFound/);
  });
});
