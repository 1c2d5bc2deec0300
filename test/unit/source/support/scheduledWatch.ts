/**
 * The scheduled watch function as Lambda runs it, for the pump tests on fake timers: a runtime of one cluster `c1`
 * whose checkpoints and publisher are the test's, and one invocation with Lambda's remaining-time clock.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, jest } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import type { ControllerKind } from '../../../../lib/controllers/controller.js';
import { parseServerlessYml } from '../../../../lib/emulator/serverlessRules.js';
import type { ReconcileRequest } from '../../../../lib/requests/index.js';
import type { watchHandler as WatchHandler } from '../../../../lib/runtime/handlers/watch.js';
import type { Runtime } from '../../../../lib/runtime/types.js';
import { watchStreams } from '../../../../lib/source/watchSpec.js';
import type { StateStores } from '../../../../lib/state/index.js';
import { MemoryCheckpoints } from './checkpoints.js';
import { rvAt, type FakeWatchServer } from './fakeWatchServer.js';

/** serverless.yml's `watch` function: its timeout (s) and schedule. */
export const WATCH_FUNCTION = (
  parseServerlessYml(readFileSync(new URL('../../../../serverless.yml', import.meta.url), 'utf8')) as {
    functions: Record<string, { timeout: number; events: { schedule?: string }[] }>;
  }
).functions.watch;

/** The watch function's timeout, ms: what Lambda gives each scheduled run. */
export const LAMBDA_TIMEOUT_MS = WATCH_FUNCTION.timeout * 1000;

/** A request the runtime's publisher was given: when (fake clock, ms) and the object's name. */
export interface Published {
  at: number;
  name: string;
}

/** What the runtime reads, through getters because each test replaces them (beforeEach). */
export interface ScheduledWatchWorld {
  checkpoints: () => MemoryCheckpoints;
  published: () => Published[];
}

/**
 * The watch handler over a runtime of cluster `c1` (no LIST expected: every stream has a checkpoint), flushing every
 * second, for `kinds`.
 * @param watchHandler the handler module's export, imported after the test mocked `watchOnce`
 */
export function scheduledWatchHandler(
  watchHandler: typeof WatchHandler,
  world: ScheduledWatchWorld,
  kinds: readonly ControllerKind[],
): ReturnType<typeof WatchHandler> {
  const runtime = {
    stores: {
      get watches() {
        return world.checkpoints();
      },
    } as unknown as StateStores,
    publisher: {
      publish(requests: ReconcileRequest[]) {
        for (const r of requests) world.published().push({ at: Date.now(), name: r.name });
        return Promise.resolve({ published: requests.length, calls: 1, retried: 0 });
      },
    },
    clusterNames: () => Promise.resolve(['c1']),
    cluster: () =>
      Promise.resolve({
        name: 'c1',
        kc: new KubeConfig(),
        kube: { list: () => Promise.reject(new Error('no list expected')) },
      }),
  } as unknown as Runtime;
  return watchHandler(() => runtime, new Logger({ logLevel: 'SILENT' }), undefined, 1000, kinds);
}

/** One scheduled invocation of `run` started now, given `timeoutMs` (the function's timeout) by Lambda's clock. */
export function invokeScheduled(
  run: ReturnType<typeof WatchHandler>,
  id: string,
  timeoutMs: number,
): ReturnType<ReturnType<typeof WatchHandler>> {
  const start = Date.now();
  return run(undefined, {
    awsRequestId: id,
    getRemainingTimeInMillis: () => start + timeoutMs - Date.now(),
  });
}

/** What {@link useScheduledWatch} gives a test file: the current test's world and the handler over it. */
export interface ScheduledWatchFixture extends ScheduledWatchWorld {
  /** A watch handler over the current world (see {@link scheduledWatchHandler}). */
  handler: () => ReturnType<typeof WatchHandler>;
  /** One scheduled invocation of `run` started now, with the watch function's timeout. */
  invoke: (run: ReturnType<typeof WatchHandler>, id: string) => ReturnType<ReturnType<typeof WatchHandler>>;
}

/**
 * For the calling test file: before each test, jest's fake timers from 0, `server` emptied and unstalled, fresh
 * checkpoints with every stream of `kinds` seeded at resourceVersion `rvAt(0)` (so no relist), and nothing published;
 * real timers after it.
 * @param watchHandler the handler module's export, imported after the test mocked `watchOnce` with `server`'s
 */
export function useScheduledWatch(
  watchHandler: typeof WatchHandler,
  server: FakeWatchServer,
  kinds: readonly ControllerKind[],
): ScheduledWatchFixture {
  let checkpoints: MemoryCheckpoints | undefined;
  let published: Published[] = [];
  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
    server.watches.length = 0;
    server.stalled = false;
    checkpoints = new MemoryCheckpoints(() => Date.now());
    for (const s of watchStreams(kinds)) checkpoints.seed('c1', s.resource, rvAt(0));
    published = [];
  });
  afterEach(() => {
    jest.useRealTimers();
  });
  const world: ScheduledWatchWorld = {
    checkpoints: () => {
      if (!checkpoints) throw new Error('useScheduledWatch: read outside a test');
      return checkpoints;
    },
    published: () => published,
  };
  return {
    ...world,
    handler: () => scheduledWatchHandler(watchHandler, world, kinds),
    invoke: (run, id) => invokeScheduled(run, id, LAMBDA_TIMEOUT_MS),
  };
}
