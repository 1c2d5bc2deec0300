/**
 * A fake API server behind lib/kube/watch.ts `watchOnce`, on jest's fake timers: one collection per watch path, a
 * change log with etcd-like resourceVersions (`1000000 + ms`), and watches that behave as the real server's do —
 * resumed from a resourceVersion they deliver every later change in order, then the live ones, a bookmark every
 * second, and they end at `timeoutSeconds`, when the client's signal aborts, or (`stalled`) only when aborted or
 * `CLIENT_GRACE_MS` after `timeoutSeconds`, as the real client aborts a connection the server never ends.
 */
import type { JsonObject } from '../../../../lib/api/types.js';
import type { WatchEventType, WatchOptions, WatchResult } from '../../../../lib/kube/watch.js';

/** The client-side grace of lib/kube/watch.ts (a mocked module cannot read the real one). */
export const FAKE_CLIENT_GRACE_MS = 5_000;

/** The resourceVersion of whatever happens at `ms` (epoch ms of the fake clock). */
export const rvAt = (ms: number): string => String(1_000_000 + ms);

/** One watch as the server saw it. */
export interface WatchCall {
  path: string;
  from: string | undefined;
  start: number;
  end?: number;
  /** How it ended: the server's timeout, the client's signal, or the client's grace after a stall. */
  endedBy?: 'timeout' | 'signal' | 'grace';
}

/** A change of one object of a collection, at a time. */
export interface Change {
  path: string;
  at: number;
  name: string;
}

/** The fake server. */
export class FakeWatchServer {
  readonly watches: WatchCall[] = [];
  /** When true, watches never end at `timeoutSeconds` and send nothing (a silently stalled connection). */
  stalled = false;
  #changes: Change[] = [];
  #live = new Set<(c: Change) => void>();

  /** Record a change now (the fake clock's `Date.now()`), delivered to open watches of its path. */
  change(path: string, name: string): void {
    const c = { path, at: Date.now(), name };
    this.#changes.push(c);
    for (const l of this.#live) l(c);
  }

  /** The `watchOnce` to mock in. */
  readonly watchOnce = (
    _kc: unknown,
    path: string,
    opts: WatchOptions,
    onEvent: (type: WatchEventType, obj: JsonObject) => void,
  ): Promise<WatchResult> => {
    const call: WatchCall = { path, from: opts.resourceVersion, start: Date.now() };
    this.watches.push(call);
    let last = opts.resourceVersion ?? '';
    const deliver = (c: Change): void => {
      if (c.path !== path) return;
      last = rvAt(c.at);
      onEvent('MODIFIED', {
        metadata: { name: c.name, namespace: 'default', resourceVersion: last },
      });
    };
    return new Promise((resolve) => {
      const finish = (endedBy: NonNullable<WatchCall['endedBy']>): void => {
        if (call.end !== undefined) return;
        call.end = Date.now();
        call.endedBy = endedBy;
        clearInterval(bookmarks);
        clearTimeout(timer);
        this.#live.delete(deliver);
        resolve({ resourceVersion: last, gone: false });
      };
      const stalled = this.stalled;
      if (!stalled) {
        const from = Number(opts.resourceVersion ?? rvAt(Date.now()));
        for (const c of this.#changes) if (Number(rvAt(c.at)) > from) deliver(c);
        this.#live.add(deliver);
      }
      const bookmarks = setInterval(() => {
        if (stalled) return;
        last = rvAt(Date.now());
        onEvent('BOOKMARK', { metadata: { resourceVersion: last } });
      }, 1000);
      const timer = setTimeout(
        () => finish(stalled ? 'grace' : 'timeout'),
        opts.timeoutSeconds * 1000 + (stalled ? FAKE_CLIENT_GRACE_MS : 0),
      );
      if (opts.signal?.aborted) finish('signal');
      opts.signal?.addEventListener('abort', () => finish('signal'), { once: true });
    });
  };
}
