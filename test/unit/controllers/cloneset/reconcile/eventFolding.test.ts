/**
 * Event folding (docs/reliability.md#event-folding) through the recording API server's Event API: the exact calls
 * of lib/kube/eventFolding.ts for a new Event, a repeat, a repeat after the 10-minute window, a concurrent writer
 * (a real resourceVersion conflict: the fault hook writes the Event as another recorder would, then lets the
 * call through) and an Event deleted between read and write.
 */
import type { CloneSet, JsonObject } from '../../../../../lib/api/types.js';
import { aggregateEventName, eventName } from '../../../../../lib/kube/event.js';
import { FOLD_ATTEMPTS, FOLD_WINDOW_MS, recordFolded } from '../../../../../lib/kube/eventFolding.js';
import { KubeApiError } from '../../../../../lib/kube/errors.js';
import type { EventMemory, KnownEvent, KubeEvent } from '../../../../../lib/kube/types.js';
import { harness, seedCloneSet, T0, type Harness } from './support/harness.js';
import { CLONESET_RESOURCE } from '../../../../../lib/controllers/cloneset/api/resource.js';

const WARNING: KubeEvent = { type: 'Warning', reason: 'FailedCreate', message: 'quota exceeded' };

function setup(): { h: Harness; cs: CloneSet; name: string } {
  const h = harness();
  const cs = h.kube.apply(seedCloneSet());
  return { h, cs, name: eventName(CLONESET_RESOURCE, cs, WARNING) };
}

function stored(h: Harness, name: string): JsonObject {
  const e = h.kube.eventObjects.get(name);
  if (!e) throw new Error(`no Event ${name}`);
  return e;
}

describe('eventName', () => {
  test('the same CloneSet uid, type, reason and message give the same name; any other field another', () => {
    const cs = seedCloneSet();
    cs.metadata.uid = 'uid-1';
    const name = eventName(CLONESET_RESOURCE, cs, WARNING);
    expect(name).toMatch(/^cs-no-pvc-sample\.[0-9a-f]{16}$/);
    expect(eventName(CLONESET_RESOURCE, structuredClone(cs), { ...WARNING })).toBe(name);
    const others = [
      eventName(CLONESET_RESOURCE, { ...cs, metadata: { ...cs.metadata, uid: 'uid-2' } }, WARNING),
      eventName(CLONESET_RESOURCE, cs, { ...WARNING, type: 'Normal' }),
      eventName(CLONESET_RESOURCE, cs, { ...WARNING, reason: 'FailedDelete' }),
      eventName(CLONESET_RESOURCE, cs, { ...WARNING, message: 'quota exceeded!' }),
    ];
    expect(new Set([name, ...others]).size).toBe(5);
  });

  test('a CloneSet name too long for a 253-character Event name is shortened', () => {
    const cs = seedCloneSet();
    cs.metadata.name = 'x'.repeat(253);
    const name = eventName(CLONESET_RESOURCE, cs, WARNING);
    expect(name).toHaveLength(253);
    expect(name).toMatch(/^x{236}\.[0-9a-f]{16}$/);
  });
});

describe('recordFolded', () => {
  test('a new Event: one POST, count 1, the fields client-go writes', async () => {
    const { h, cs, name } = setup();
    await expect(
      recordFolded(
        h.kube.eventApiForTests,
        { resource: CLONESET_RESOURCE, object: cs },
        WARNING,
        new Date(T0 + 1500),
      ),
    ).resolves.toBe('created');
    expect(h.kube.eventCalls).toEqual([`create event ${name}`]);
    expect(stored(h, name)).toEqual({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: 'default', resourceVersion: expect.any(String) },
      involvedObject: {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        name: 'cs-no-pvc-sample',
        namespace: 'default',
        uid: 'cs-uid',
        resourceVersion: cs.metadata.resourceVersion,
      },
      type: 'Warning',
      reason: 'FailedCreate',
      message: 'quota exceeded',
      source: { component: 'kruiseless' },
      reportingComponent: 'kruiseless',
      firstTimestamp: '2024-05-01T08:00:01Z',
      lastTimestamp: '2024-05-01T08:00:01Z',
      count: 1,
    });
  });

  test('a repeat within 10 minutes: POST meets AlreadyExists, GET, PATCH count+1 and lastTimestamp on the read resourceVersion', async () => {
    const { h, cs, name } = setup();
    await recordFolded(
      h.kube.eventApiForTests,
      { resource: CLONESET_RESOURCE, object: cs },
      WARNING,
      new Date(T0),
    );
    const rv = (stored(h, name).metadata as JsonObject).resourceVersion;
    h.kube.eventCalls.length = 0;
    await expect(
      recordFolded(
        h.kube.eventApiForTests,
        { resource: CLONESET_RESOURCE, object: cs },
        WARNING,
        new Date(T0 + FOLD_WINDOW_MS),
      ),
    ).resolves.toBe('counted');
    expect(h.kube.eventCalls).toEqual([
      `create event ${name}`,
      `get event ${name}`,
      `patch event ${name} count=2 lastTimestamp=2024-05-01T08:10:00Z`,
    ]);
    expect(h.kube.eventPatches.at(-1)).toEqual({
      metadata: { resourceVersion: rv },
      count: 2,
      lastTimestamp: '2024-05-01T08:10:00Z',
    });
    expect(stored(h, name)).toMatchObject({
      count: 2,
      firstTimestamp: '2024-05-01T08:00:00Z',
      lastTimestamp: '2024-05-01T08:10:00Z',
    });
  });

  test('a repeat more than 10 minutes after the last one starts the series anew on the same object', async () => {
    const { h, cs, name } = setup();
    await recordFolded(
      h.kube.eventApiForTests,
      { resource: CLONESET_RESOURCE, object: cs },
      WARNING,
      new Date(T0),
    );
    await recordFolded(
      h.kube.eventApiForTests,
      { resource: CLONESET_RESOURCE, object: cs },
      WARNING,
      new Date(T0 + 60_000),
    );
    h.kube.eventCalls.length = 0;
    const later = new Date(T0 + 60_000 + FOLD_WINDOW_MS + 1000);
    await expect(
      recordFolded(h.kube.eventApiForTests, { resource: CLONESET_RESOURCE, object: cs }, WARNING, later),
    ).resolves.toBe('restarted');
    expect(h.kube.eventCalls).toEqual([
      `create event ${name}`,
      `get event ${name}`,
      `patch event ${name} count=1 firstTimestamp=2024-05-01T08:11:01Z lastTimestamp=2024-05-01T08:11:01Z`,
    ]);
    expect(h.kube.eventObjects.size).toBe(1);
  });

  test('another writer counted the Event between our read and write: 409 Conflict, read again, count on top of it', async () => {
    const { h, cs, name } = setup();
    await recordFolded(
      h.kube.eventApiForTests,
      { resource: CLONESET_RESOURCE, object: cs },
      WARNING,
      new Date(T0),
    );
    let raced = false;
    h.kube.failOn((call) => {
      if (raced || !call.startsWith(`patch event ${name}`)) return undefined;
      raced = true;
      const e = stored(h, name);
      h.kube.eventObjects.set(name, {
        ...e,
        count: 2,
        metadata: { ...(e.metadata as JsonObject), resourceVersion: '9999' },
      });
      return undefined;
    });
    h.kube.eventCalls.length = 0;
    await expect(
      recordFolded(
        h.kube.eventApiForTests,
        { resource: CLONESET_RESOURCE, object: cs },
        WARNING,
        new Date(T0 + 2000),
      ),
    ).resolves.toBe('counted');
    expect(h.kube.eventCalls).toEqual([
      `create event ${name}`,
      `get event ${name}`,
      `patch event ${name} count=2 lastTimestamp=2024-05-01T08:00:02Z`,
      `get event ${name}`,
      `patch event ${name} count=3 lastTimestamp=2024-05-01T08:00:02Z`,
    ]);
    expect(stored(h, name)).toMatchObject({ count: 3 });
  });

  test('a POST applied whose answer was lost is retried and meets AlreadyExists for our own Event: counted once', async () => {
    const { h, cs, name } = setup();
    const api = h.kube.eventApiForTests;
    // what lib/kube/request.ts does after a lost answer (the fault front's dropAnswer): the same POST once more
    const lostAnswer = {
      ...api,
      createEvent: async (namespace: string, body: JsonObject) => {
        await api.createEvent(namespace, body);
        try {
          await api.createEvent(namespace, body);
        } catch (e) {
          if (e instanceof KubeApiError) e.attempt = 2; // as request.ts marks a retried attempt's error
          throw e;
        }
      },
    };
    await expect(
      recordFolded(lostAnswer, { resource: CLONESET_RESOURCE, object: cs }, WARNING, new Date(T0)),
    ).resolves.toBe('created');
    expect(h.kube.eventCalls).toEqual([`create event ${name}`, `create event ${name}`, `get event ${name}`]);
    expect(stored(h, name)).toMatchObject({ count: 1 });
    // a real repeat a second later is still counted
    await expect(
      recordFolded(api, { resource: CLONESET_RESOURCE, object: cs }, WARNING, new Date(T0 + 1000)),
    ).resolves.toBe('counted');
    expect(stored(h, name)).toMatchObject({ count: 2 });
  });

  test('the same Event twice in one second, no retry (one pass, two statuses): the second AlreadyExists is counted', async () => {
    const { h, cs, name } = setup();
    const api = h.kube.eventApiForTests;
    const involved = { resource: CLONESET_RESOURCE, object: cs };
    await expect(recordFolded(api, involved, WARNING, new Date(T0))).resolves.toBe('created');
    await expect(recordFolded(api, involved, WARNING, new Date(T0))).resolves.toBe('counted');
    expect(h.kube.eventCalls).toEqual([
      `create event ${name}`,
      `create event ${name}`,
      `get event ${name}`,
      `patch event ${name} count=2 lastTimestamp=2024-05-01T08:00:00Z`,
    ]);
    expect(stored(h, name)).toMatchObject({ count: 2 });
  });

  test("another recorder folded to the same count in the same second: its first attempt's 409 is not ours, counted on top", async () => {
    const { h, cs, name } = setup();
    await recordFolded(
      h.kube.eventApiForTests,
      { resource: CLONESET_RESOURCE, object: cs },
      WARNING,
      new Date(T0),
    );
    let raced = false;
    h.kube.failOn((call) => {
      if (raced || !call.startsWith(`patch event ${name}`)) return undefined;
      raced = true;
      // the concurrent recorder's PATCH, exactly what ours sets (count 2 at the same second), lands first
      const e = stored(h, name);
      h.kube.eventObjects.set(name, {
        ...e,
        count: 2,
        lastTimestamp: '2024-05-01T08:00:02Z',
        metadata: { ...(e.metadata as JsonObject), resourceVersion: '9999' },
      });
      return undefined;
    });
    await expect(
      recordFolded(
        h.kube.eventApiForTests,
        { resource: CLONESET_RESOURCE, object: cs },
        WARNING,
        new Date(T0 + 2000),
      ),
    ).resolves.toBe('counted');
    expect(stored(h, name)).toMatchObject({ count: 3 });
  });

  test('a PATCH applied whose answer was lost is retried, meets 409 Conflict on its own write: counted once', async () => {
    const { h, cs, name } = setup();
    const api = h.kube.eventApiForTests;
    await recordFolded(api, { resource: CLONESET_RESOURCE, object: cs }, WARNING, new Date(T0));
    // what lib/kube/request.ts does after a lost answer or a 5xx sent after the write was applied (an overloaded
    // API server's 504): the same PATCH once more, whose resourceVersion precondition our own write has moved.
    // A fault no real server produces on demand, hence the stand-in.
    const lostAnswer = {
      ...api,
      patchEvent: async (namespace: string, event: string, patch: JsonObject) => {
        await api.patchEvent(namespace, event, patch);
        await api.patchEvent(namespace, event, patch).catch((e: unknown) => {
          // the retry's error says it was attempt 2, as request.ts marks it
          if (e instanceof KubeApiError) e.attempt = 2;
          throw e;
        });
      },
    };
    h.kube.eventCalls.length = 0;
    await expect(
      recordFolded(lostAnswer, { resource: CLONESET_RESOURCE, object: cs }, WARNING, new Date(T0 + 2000)),
    ).resolves.toBe('counted');
    expect(h.kube.eventCalls).toEqual([
      `create event ${name}`,
      `get event ${name}`,
      `patch event ${name} count=2 lastTimestamp=2024-05-01T08:00:02Z`,
      `patch event ${name} count=2 lastTimestamp=2024-05-01T08:00:02Z`,
      `get event ${name}`,
    ]);
    expect(stored(h, name)).toMatchObject({ count: 2 });
    // a real repeat a second later is still counted
    await expect(
      recordFolded(api, { resource: CLONESET_RESOURCE, object: cs }, WARNING, new Date(T0 + 3000)),
    ).resolves.toBe('counted');
    expect(stored(h, name)).toMatchObject({ count: 3 });
  });

  test(`conflicts on every attempt: gives up after ${FOLD_ATTEMPTS} attempts with the 409`, async () => {
    const { h, cs, name } = setup();
    await recordFolded(
      h.kube.eventApiForTests,
      { resource: CLONESET_RESOURCE, object: cs },
      WARNING,
      new Date(T0),
    );
    h.kube.failOn((call) => {
      if (!call.startsWith(`patch event ${name}`)) return undefined;
      const e = stored(h, name);
      const rv = Number((e.metadata as JsonObject).resourceVersion) + 1000;
      h.kube.eventObjects.set(name, {
        ...e,
        metadata: { ...(e.metadata as JsonObject), resourceVersion: String(rv) },
      });
      return undefined;
    });
    h.kube.eventCalls.length = 0;
    await expect(
      recordFolded(
        h.kube.eventApiForTests,
        { resource: CLONESET_RESOURCE, object: cs },
        WARNING,
        new Date(T0 + 2000),
      ),
    ).rejects.toMatchObject({
      statusCode: 409,
      reason: 'Conflict',
    });
    expect(h.kube.eventCalls.filter((c) => c.startsWith('patch'))).toHaveLength(FOLD_ATTEMPTS - 1);
    expect(h.kube.eventCalls).toHaveLength(1 + 2 * (FOLD_ATTEMPTS - 1));
  });

  test('the Event was deleted between read and write (its TTL): the PATCH meets 404, it is created again', async () => {
    const { h, cs, name } = setup();
    await recordFolded(
      h.kube.eventApiForTests,
      { resource: CLONESET_RESOURCE, object: cs },
      WARNING,
      new Date(T0),
    );
    let deleted = false;
    h.kube.failOn((call) => {
      if (deleted || !call.startsWith(`patch event ${name}`)) return undefined;
      deleted = true;
      h.kube.eventObjects.delete(name);
      return undefined;
    });
    h.kube.eventCalls.length = 0;
    await expect(
      recordFolded(
        h.kube.eventApiForTests,
        { resource: CLONESET_RESOURCE, object: cs },
        WARNING,
        new Date(T0 + 3000),
      ),
    ).resolves.toBe('created');
    expect(h.kube.eventCalls).toEqual([
      `create event ${name}`,
      `get event ${name}`,
      `patch event ${name} count=2 lastTimestamp=2024-05-01T08:00:03Z`,
      `get event ${name}`,
      `create event ${name}`,
    ]);
    expect(stored(h, name)).toMatchObject({ count: 1, firstTimestamp: '2024-05-01T08:00:03Z' });
  });
});

describe('recordFolded of an aggregate (lib/kube/eventCorrelation.ts)', () => {
  const agg = (pod: string): KubeEvent => ({
    type: 'Normal',
    reason: 'SuccessfulCreate',
    message: `(combined from similar events): succeed to create pod ${pod}`,
  });

  test('every aggregate goes to one object named without the message; a fold sets count, time and message', async () => {
    const h = harness();
    const cs = h.kube.apply(seedCloneSet());
    const name = aggregateEventName(CLONESET_RESOURCE, cs, agg('a'));
    expect(name).toBe(aggregateEventName(CLONESET_RESOURCE, cs, agg('b')));
    expect(name).toMatch(/^cs-no-pvc-sample\.[0-9a-f]{16}$/);
    expect(name).not.toBe(eventName(CLONESET_RESOURCE, cs, agg('a')));
    expect(name).not.toBe(
      aggregateEventName(CLONESET_RESOURCE, cs, { ...agg('a'), reason: 'SuccessfulDelete' }),
    );
    await expect(
      recordFolded(
        h.kube.eventApiForTests,
        { resource: CLONESET_RESOURCE, object: cs },
        agg('a'),
        new Date(T0),
        true,
      ),
    ).resolves.toBe('created');
    const rv = (stored(h, name).metadata as JsonObject).resourceVersion;
    await expect(
      recordFolded(
        h.kube.eventApiForTests,
        { resource: CLONESET_RESOURCE, object: cs },
        agg('b'),
        new Date(T0 + 1000),
        true,
      ),
    ).resolves.toBe('counted');
    expect(h.kube.eventPatches.at(-1)).toEqual({
      metadata: { resourceVersion: rv },
      count: 2,
      lastTimestamp: '2024-05-01T08:00:01Z',
      message: '(combined from similar events): succeed to create pod b',
    });
    expect(h.kube.eventObjects.size).toBe(1);
    expect(stored(h, name)).toMatchObject({
      count: 2,
      message: '(combined from similar events): succeed to create pod b',
      firstTimestamp: '2024-05-01T08:00:00Z',
      lastTimestamp: '2024-05-01T08:00:01Z',
    });
  });
});

describe('recordFolded with the memory of what it wrote (client-go patches from its cache)', () => {
  /** A memory as a Map, for the tests to read. */
  function memory(): { mem: EventMemory; known: Map<string, KnownEvent> } {
    const known = new Map<string, KnownEvent>();
    return {
      known,
      mem: {
        get: (n) => known.get(n),
        set: (n, k) => void known.set(n, k),
        delete: (n) => void known.delete(n),
      },
    };
  }
  const record = (h: Harness, cs: CloneSet, at: number, mem: EventMemory) =>
    recordFolded(
      h.kube.eventApiForTests,
      { resource: CLONESET_RESOURCE, object: cs },
      WARNING,
      new Date(at),
      false,
      mem,
    );

  test('a repeat of an Event it wrote is one PATCH of the known count on the known resourceVersion', async () => {
    const { h, cs, name } = setup();
    const { mem, known } = memory();
    await expect(record(h, cs, T0, mem)).resolves.toBe('created');
    const rv = (stored(h, name).metadata as JsonObject).resourceVersion;
    expect(known.get(name)).toEqual({ count: 1, resourceVersion: rv, lastMs: T0 });
    await expect(record(h, cs, T0 + 1000, mem)).resolves.toBe('counted');
    await expect(record(h, cs, T0 + 2000, mem)).resolves.toBe('counted');
    expect(h.kube.eventCalls).toEqual([
      `create event ${name}`,
      `patch event ${name} count=2 lastTimestamp=2024-05-01T08:00:01Z`,
      `patch event ${name} count=3 lastTimestamp=2024-05-01T08:00:02Z`,
    ]);
    expect(h.kube.eventPatches[0]).toEqual({
      metadata: { resourceVersion: rv },
      count: 2,
      lastTimestamp: '2024-05-01T08:00:01Z',
    });
    expect(stored(h, name)).toMatchObject({ count: 3, firstTimestamp: '2024-05-01T08:00:00Z' });
    expect(known.get(name)).toEqual({
      count: 3,
      resourceVersion: (stored(h, name).metadata as JsonObject).resourceVersion,
      lastMs: T0 + 2000,
    });
  });

  test('another writer counted meanwhile: the PATCH meets 409, the Event is read and counted on top', async () => {
    const { h, cs, name } = setup();
    const { mem, known } = memory();
    await record(h, cs, T0, mem);
    const e = stored(h, name);
    h.kube.eventObjects.set(name, {
      ...e,
      count: 5,
      metadata: { ...(e.metadata as JsonObject), resourceVersion: '9999' },
    });
    h.kube.eventCalls.length = 0;
    await expect(record(h, cs, T0 + 1000, mem)).resolves.toBe('counted');
    expect(h.kube.eventCalls).toEqual([
      `patch event ${name} count=2 lastTimestamp=2024-05-01T08:00:01Z`,
      `get event ${name}`,
      `patch event ${name} count=6 lastTimestamp=2024-05-01T08:00:01Z`,
    ]);
    expect(stored(h, name)).toMatchObject({ count: 6 });
    expect(known.get(name)?.count).toBe(6);
  });

  test('the Event is gone (its TTL): the PATCH meets 404, it is created again', async () => {
    const { h, cs, name } = setup();
    const { mem, known } = memory();
    await record(h, cs, T0, mem);
    h.kube.eventObjects.delete(name);
    h.kube.eventCalls.length = 0;
    await expect(record(h, cs, T0 + 1000, mem)).resolves.toBe('created');
    expect(h.kube.eventCalls).toEqual([
      `patch event ${name} count=2 lastTimestamp=2024-05-01T08:00:01Z`,
      `get event ${name}`,
      `create event ${name}`,
    ]);
    expect(stored(h, name)).toMatchObject({ count: 1, lastTimestamp: '2024-05-01T08:00:01Z' });
    expect(known.get(name)?.count).toBe(1);
  });

  test('a memory older than the fold window is not used: the series starts anew as without it', async () => {
    const { h, cs, name } = setup();
    const { mem } = memory();
    await record(h, cs, T0, mem);
    h.kube.eventCalls.length = 0;
    await expect(record(h, cs, T0 + FOLD_WINDOW_MS + 1000, mem)).resolves.toBe('restarted');
    expect(h.kube.eventCalls).toEqual([
      `create event ${name}`,
      `get event ${name}`,
      `patch event ${name} count=1 firstTimestamp=2024-05-01T08:10:01Z lastTimestamp=2024-05-01T08:10:01Z`,
    ]);
  });
});
