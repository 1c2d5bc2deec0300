/**
 * A scripted stand-in for lib/kube/watch.ts, for the pump tests on fake timers: each watch delivers the events of
 * `script` meant for its path, each at its time after the watch opened, and ends (at its resume point) when its
 * signal aborts — the run's deadline. A test mocks the module with {@link ScriptedWatch.module} before importing the
 * pump, then sets `script` before each run.
 */
import type { JsonObject } from '../../../../lib/api/types.js';
import type { WatchEventType, WatchOptions, WatchResult } from '../../../../lib/kube/watch.js';

/** One scripted event: on which stream path (every watch's when absent), when (ms after the watch opened), what. */
export interface Scripted {
  path?: string;
  afterMs: number;
  type: WatchEventType;
  obj: JsonObject;
}

/** The script and the module that plays it. */
export interface ScriptedWatch {
  /** What the next watches deliver; replace it before each run. */
  script: Scripted[];
  /** The mock of lib/kube/watch.ts: `watchOnce` plays the script, `isGoneStatus` is never true. */
  module: {
    watchOnce: (
      kc: unknown,
      path: string,
      opts: WatchOptions,
      onEvent: (type: WatchEventType, obj: JsonObject) => void,
    ) => Promise<WatchResult>;
    isGoneStatus: () => boolean;
    CLIENT_GRACE_MS: number;
  };
}

/** A {@link ScriptedWatch} with an empty script. */
export function scriptedWatch(): ScriptedWatch {
  const watch: ScriptedWatch = {
    script: [],
    module: {
      watchOnce: (_kc, path, opts, onEvent) =>
        new Promise((resolve) => {
          const timers = watch.script
            .filter((s) => s.path === undefined || s.path === path)
            .map((s) => setTimeout(() => onEvent(s.type, s.obj), s.afterMs));
          const end = (): void => {
            for (const t of timers) clearTimeout(t);
            resolve({ resourceVersion: opts.resourceVersion ?? '1', gone: false });
          };
          if (opts.signal?.aborted) end();
          opts.signal?.addEventListener('abort', end, { once: true });
        }),
      isGoneStatus: () => false,
      CLIENT_GRACE_MS: 5_000,
    },
  };
  return watch;
}
