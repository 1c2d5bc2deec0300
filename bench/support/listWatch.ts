/**
 * A watch that survives the API server ending it. kube-apiserver closes a watch whose client reads too slowly (its
 * cache watcher's buffer fills: `apiserver_terminated_watchers_total` goes up) with a clean end of the response, and
 * @kubernetes/client-node's `Watch` then reports `done(null)`. A bench process starved of CPU on a loaded machine
 * is such a client: its tracker stopped seeing pods and every wait on it ran into its timeout. As client-go's
 * reflector does, this lists the collection again, hands the listing over, and watches on from the list's
 * resourceVersion; an `ERROR` event (410 Gone: the version was compacted) ends the watch the same way.
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { errorMessage } from '../../lib/core/errors.js';

/**
 * Opens one watch: `onEvent` for every event line, `onDone` once when it ends (null: the server closed it; an
 * error otherwise, an `AbortError` after `abort()`).
 */
export type WatchFn = (
  path: string,
  query: Readonly<Record<string, string>>,
  onEvent: (type: string, obj: unknown) => void,
  onDone: (err: unknown) => void,
) => Promise<{ abort: () => void }>;

/** A collection as a LIST answers it. */
export interface KubeList {
  metadata?: { resourceVersion?: string };
  items: unknown[];
}

/** The watch of @kubernetes/client-node on the cluster of `kc`. */
export function clientNodeWatch(kc: KubeConfig): WatchFn {
  const w = new Watch(kc);
  return (path, query, onEvent, onDone) => w.watch(path, { ...query }, onEvent, onDone);
}

/** What a {@link ListWatch} watches and where it reports. */
export interface ListWatchOptions {
  /** For log lines, e.g. `reference pods`. */
  name: string;
  /** Collection path, e.g. `/api/v1/namespaces/ns/pods`. */
  path: string;
  /** Query parameters of both the LIST and the watch (e.g. labelSelector). */
  query: Readonly<Record<string, string>>;
  watch: WatchFn;
  /** LIST of `path` with `query`. */
  list: (path: string, query: Readonly<Record<string, string>>) => Promise<KubeList>;
  /** Every ADDED, MODIFIED and DELETED event of a watch. */
  onEvent: (type: string, obj: unknown) => void;
  /** The whole collection after a watch ended, before the next watch starts from its resourceVersion. */
  onRelist: (items: unknown[]) => void;
  /** Where the line saying a watch ended goes (default console.error). */
  log?: (line: string) => void;
  /** Wait before a failed LIST or watch is tried again, ms (default 1000). */
  retryMs?: number;
}

const isAbort = (e: unknown): boolean => e instanceof Error && e.name === 'AbortError';

/** One collection watched until {@link ListWatch.stop}, re-listed and watched again whenever a watch ends. */
export class ListWatch {
  /** Watches that ended before stop() and were replaced (each followed by a LIST). */
  restarts = 0;
  private stopped = false;
  private current: { abort: () => void } | undefined;

  constructor(private readonly opts: ListWatchOptions) {}

  /**
   * Open the first watch (without a resourceVersion: it begins with an ADDED for what exists).
   * @throws what the first watch request throws synchronously (a bad kubeconfig)
   */
  async start(): Promise<void> {
    await this.open(undefined);
  }

  /** Stop watching; no LIST or watch follows. */
  stop(): void {
    this.stopped = true;
    this.current?.abort();
  }

  private async open(resourceVersion: string | undefined): Promise<void> {
    const query = resourceVersion ? { ...this.opts.query, resourceVersion } : this.opts.query;
    let ended = false;
    const onDone = (err: unknown): void => {
      if (ended) return;
      ended = true;
      if (this.stopped || isAbort(err)) return;
      void this.restart(err);
    };
    const handle = await this.opts.watch(
      this.opts.path,
      query,
      (type, obj) => {
        if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') this.opts.onEvent(type, obj);
        // ERROR (410 Gone and the like) is followed by the server closing the watch: onDone re-lists
      },
      onDone,
    );
    this.current = handle;
    if (this.stopped) handle.abort();
  }

  private async restart(err: unknown): Promise<void> {
    this.restarts++;
    const why = err ? errorMessage(err) : 'closed by the API server';
    (this.opts.log ?? console.error)(
      `[bench] ${this.opts.name} watch ended (${why}): listing and watching again`,
    );
    // a watch that failed (rather than being closed) is not opened again at once: the server may be refusing
    if (err) await new Promise((r) => setTimeout(r, this.opts.retryMs ?? 1000));
    while (!this.stopped) {
      try {
        const list = await this.opts.list(this.opts.path, this.opts.query);
        if (this.stopped) return;
        this.opts.onRelist(list.items);
        await this.open(list.metadata?.resourceVersion);
        return;
      } catch (e) {
        (this.opts.log ?? console.error)(
          `[bench] ${this.opts.name} re-list failed (${errorMessage(e)}): retrying`,
        );
        await new Promise((r) => setTimeout(r, this.opts.retryMs ?? 1000));
      }
    }
  }
}
