/**
 * The Event correlator (lib/kube/eventCorrelation.ts, docs/reliability.md#event-folding): exact decisions for
 * sequences of Events on one CloneSet, per the rules of client-go's EventCorrelator (aggregation by type and
 * reason from the 10th distinct message, spam filter of 25 tokens refilled one per 300 s, 10-minute idle window).
 */
import {
  AGGREGATE_WINDOW_MS,
  SPAM_REFILL_MS,
  AGGREGATE_MAX_MESSAGES,
  correlateEvent,
  decodeCorrelation,
  emptyCorrelation,
  encodeCorrelation,
  liveCorrelation,
  MAX_KNOWN_EVENTS,
  correlationMemory,
  messageDigest,
  type EventCorrelationState,
} from '../../../lib/kube/eventCorrelation.js';
import { FOLD_WINDOW_MS } from '../../../lib/kube/eventFolding.js';
import type { KubeEvent } from '../../../lib/kube/types.js';

const T0 = Date.parse('2024-05-01T08:00:00Z');

function created(i: number): KubeEvent {
  return { type: 'Normal', reason: 'SuccessfulCreate', message: `succeed to create pod p-${i}` };
}

/** One step: the Event and its time offset from T0 (ms). */
interface Step {
  event: KubeEvent;
  at: number;
}

/** Decisions in order, each `drop`, `record` or `aggregate:<message>`, and the final state. */
function run(steps: Step[], start: EventCorrelationState = emptyCorrelation()) {
  let state = start;
  const decisions: string[] = [];
  for (const { event, at } of steps) {
    const r = correlateEvent(state, event, T0 + at);
    state = r.state;
    decisions.push(
      r.decision.action === 'aggregate' ? `aggregate:${r.decision.event.message}` : r.decision.action,
    );
  }
  return { decisions, state };
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, k) => from + k);
const combined = (i: number): string =>
  `aggregate:(combined from similar events): succeed to create pod p-${i}`;

describe('correlateEvent', () => {
  const cases: Array<{ name: string; steps: Step[]; expected: string[] }> = [
    {
      name: '9 distinct messages are recorded as they are, the 10th is aggregated',
      steps: range(1, 10).map((i) => ({ event: created(i), at: i })),
      expected: [...range(1, 9).map(() => 'record'), combined(10)],
    },
    {
      name: '30 distinct messages at once: 9 recorded, 16 aggregated, the last 5 dropped by the spam filter',
      steps: range(1, 30).map((i) => ({ event: created(i), at: 0 })),
      expected: [
        ...range(1, 9).map(() => 'record'),
        ...range(10, 25).map(combined),
        ...range(26, 30).map(() => 'drop'),
      ],
    },
    {
      name: 'identical repeats are recorded as they are (folded later) and each takes a token',
      steps: range(1, 27).map(() => ({ event: created(1), at: 0 })),
      expected: [...range(1, 25).map(() => 'record'), 'drop', 'drop'],
    },
    {
      name: 'a message already in the group is recorded as it is even after aggregation started',
      steps: [...range(1, 11), 3].map((i) => ({ event: created(i), at: 0 })),
      expected: [...range(1, 9).map(() => 'record'), combined(10), combined(11), 'record'],
    },
    {
      name: 'one token returns 300 s after the bucket ran empty, not before',
      steps: [
        ...range(1, 25).map(() => ({ event: created(1), at: 0 })),
        { event: created(1), at: SPAM_REFILL_MS - 1 },
        { event: created(1), at: SPAM_REFILL_MS },
        { event: created(1), at: SPAM_REFILL_MS },
        { event: created(1), at: 3 * SPAM_REFILL_MS },
        { event: created(1), at: 3 * SPAM_REFILL_MS },
        { event: created(1), at: 3 * SPAM_REFILL_MS },
      ],
      expected: [...range(1, 25).map(() => 'record'), 'drop', 'record', 'drop', 'record', 'record', 'drop'],
    },
    {
      name: 'Warnings have their own bucket: 25 Normal Events do not stop a Warning',
      steps: [
        ...range(1, 25).map(() => ({ event: created(1), at: 0 })),
        { event: created(1), at: 0 },
        { event: { type: 'Warning', reason: 'FailedCreate', message: 'quota' }, at: 0 },
      ],
      expected: [...range(1, 25).map(() => 'record'), 'drop', 'record'],
    },
    {
      name: 'other reasons form their own group',
      steps: [
        ...range(1, 9).map((i) => ({ event: created(i), at: 0 })),
        {
          event: { type: 'Normal', reason: 'SuccessfulDelete', message: 'succeed to delete pod p-1' },
          at: 0,
        },
        { event: created(10), at: 0 },
      ],
      expected: [...range(1, 9).map(() => 'record'), 'record', combined(10)],
    },
    {
      name: 'a group idle for more than 10 minutes starts empty; exactly 10 minutes keeps it',
      steps: [
        ...range(1, 9).map((i) => ({ event: created(i), at: 0 })),
        { event: created(10), at: AGGREGATE_WINDOW_MS },
        { event: created(11), at: 2 * AGGREGATE_WINDOW_MS + 1 },
        ...range(12, 19).map((i) => ({ event: created(i), at: 2 * AGGREGATE_WINDOW_MS + 1 })),
        { event: created(20), at: 2 * AGGREGATE_WINDOW_MS + 1 },
      ],
      expected: [
        ...range(1, 9).map(() => 'record'),
        combined(10),
        ...range(11, 19).map(() => 'record'),
        combined(20),
      ],
    },
  ];

  test.each(cases)('$name', ({ steps, expected }) => {
    expect(run(steps).decisions).toEqual(expected);
  });

  test('the state is plain JSON, the input state is not modified, and the state after 30 Events is exact', () => {
    const start = emptyCorrelation();
    const { state } = run(
      range(1, 30).map((i) => ({ event: created(i), at: 0 })),
      start,
    );
    expect(start).toEqual({ spam: {}, groups: {} });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(state).toEqual({
      spam: { Normal: { tokens: 0, at: T0 } },
      groups: {
        'Normal SuccessfulCreate': {
          messages: range(1, 9).map((i) => messageDigest(`succeed to create pod p-${i}`)),
          last: T0,
        },
      },
    });
  });

  test('state carried over continues the series (a second scale-up 60 s later is aggregated and filtered)', () => {
    const first = run(range(1, 30).map((i) => ({ event: created(i), at: 0 })));
    const second = run([{ event: created(31), at: 60_000 }], first.state);
    expect(second.decisions).toEqual(['drop']);
    const later = run([{ event: created(31), at: SPAM_REFILL_MS }], first.state);
    expect(later.decisions).toEqual([combined(31)]);
  });
});

describe('the state carried from one invocation to the next', () => {
  const thirty = run(range(1, 30).map((i) => ({ event: created(i), at: 0 }))).state;

  test('a message is kept as 16 characters of its SHA-256, whatever its length', () => {
    expect(messageDigest('succeed to create pod p-1')).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(messageDigest('x'.repeat(5000))).toHaveLength(16);
    expect(messageDigest('a')).not.toEqual(messageDigest('b'));
  });

  test('encode → decode gives the same decisions as the state kept in memory', () => {
    const text = encodeCorrelation(thirty, T0 + 60_000);
    expect(text).not.toBeNull();
    const restored = decodeCorrelation(text as string);
    expect(restored).toEqual(thirty);
    const next = [
      { event: created(5), at: SPAM_REFILL_MS },
      { event: created(31), at: 2 * SPAM_REFILL_MS },
    ];
    expect(run(next, restored).decisions).toEqual(run(next, thirty).decisions);
    expect(run(next, restored).decisions).toEqual(['record', combined(31)]);
  });

  test('only what can still change a decision is kept: groups idle past the window and full buckets go', () => {
    const oneEvent = run([{ event: created(1), at: 0 }]).state;
    // one token used: the bucket is full again 300 s later; the group stays 10 minutes
    expect(liveCorrelation(oneEvent, T0 + SPAM_REFILL_MS - 1)).toEqual(oneEvent);
    expect(liveCorrelation(oneEvent, T0 + SPAM_REFILL_MS)).toEqual({ spam: {}, groups: oneEvent.groups });
    expect(liveCorrelation(oneEvent, T0 + AGGREGATE_WINDOW_MS)).toEqual({
      spam: {},
      groups: oneEvent.groups,
    });
    expect(liveCorrelation(oneEvent, T0 + AGGREGATE_WINDOW_MS + 1)).toEqual({ spam: {}, groups: {} });
    expect(encodeCorrelation(oneEvent, T0 + AGGREGATE_WINDOW_MS + 1)).toBeNull();
    expect(encodeCorrelation(emptyCorrelation(), T0)).toBeNull();
  });

  test('the stored text stays small: 30 long messages still store 9 digests', () => {
    const long = (i: number): KubeEvent => ({ ...created(i), message: `${i} ${'e'.repeat(900)}` });
    const { state } = run(range(1, 30).map((i) => ({ event: long(i), at: 0 })));
    const text = encodeCorrelation(state, T0) as string;
    expect(text.length).toBeLessThan(400);
    expect(Object.values(decodeCorrelation(text).groups)[0]?.messages).toHaveLength(
      AGGREGATE_MAX_MESSAGES - 1,
    );
  });

  test.each([
    ['not JSON', '{spam'],
    ['a foreign shape', '{"spam":[],"groups":{}}'],
    ['a negative token count', '{"spam":{"Normal":{"tokens":-1,"at":0}},"groups":{}}'],
    [
      'too many messages in a group',
      JSON.stringify({ spam: {}, groups: { 'Normal X': { messages: range(1, 10).map(String), last: 0 } } }),
    ],
    ['a known Event without a resourceVersion', '{"spam":{},"groups":{},"known":{"e":[1,"",0]}}'],
    [
      'more known Events than kept',
      JSON.stringify({
        spam: {},
        groups: {},
        known: Object.fromEntries(range(1, MAX_KNOWN_EVENTS + 1).map((i) => [`e${i}`, [1, '5', 0]])),
      }),
    ],
  ])('decoding %s throws', (_, text) => {
    expect(() => decodeCorrelation(text)).toThrow();
  });
});

describe('the Events written, remembered in the state (lib/kube/eventFolding.ts)', () => {
  test('the memory reads and writes the state it holds, which the next Event keeps and the text carries', () => {
    const holder = { state: emptyCorrelation() };
    const memory = correlationMemory(holder);
    memory.set('cs.a', { count: 1, resourceVersion: '10', lastMs: T0 });
    memory.set('cs.b', { count: 4, resourceVersion: '11', lastMs: T0 + 1000 });
    memory.delete('cs.a');
    memory.delete('cs.none');
    expect(memory.get('cs.b')).toEqual({ count: 4, resourceVersion: '11', lastMs: T0 + 1000 });
    expect(memory.get('cs.a')).toBeUndefined();
    holder.state = correlateEvent(holder.state, created(1), T0 + 2000).state;
    const text = encodeCorrelation(holder.state, T0 + 3000) as string;
    expect(decodeCorrelation(text).known).toEqual({ 'cs.b': [4, '11', T0 + 1000] });
    // the Events alone are worth storing
    expect(encodeCorrelation({ spam: {}, groups: {}, known: { 'cs.b': [4, '11', T0] } }, T0)).not.toBeNull();
  });

  test(`only the ${MAX_KNOWN_EVENTS} newest within the fold window are kept`, () => {
    const known = Object.fromEntries(
      range(1, MAX_KNOWN_EVENTS + 2).map((i) => [
        `e${i}`,
        [1, String(i), T0 + i * 1000] as [number, string, number],
      ]),
    );
    known.old = [3, '1', T0 - FOLD_WINDOW_MS];
    const live = liveCorrelation({ spam: {}, groups: {}, known }, T0 + 1000);
    expect(Object.keys(live.known ?? {})).toEqual(
      range(3, MAX_KNOWN_EVENTS + 2)
        .reverse()
        .map((i) => `e${i}`),
    );
    expect(
      liveCorrelation({ spam: {}, groups: {}, known: { old: [1, '1', T0] } }, T0 + FOLD_WINDOW_MS + 1),
    ).toEqual({
      spam: {},
      groups: {},
    });
  });
});
