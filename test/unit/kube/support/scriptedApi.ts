/**
 * A scripted API server for the watched LISTs (lib/kube/watchedLists.ts): LISTs answer a fixed collection (paged by
 * `limit`, `continue` being the next index) at a fixed resourceVersion and are recorded as `quorum`,
 * `notOlderThan <rv>` or `continue <token>`; every watch stays open until the test ends it, fails it or its signal
 * aborts.
 */
import type { Pod } from '../../../../lib/api/types.js';
import type {
  KubeClient,
  KubeObject,
  Listed,
  ListOptions,
  WatchListOptions,
} from '../../../../lib/kube/types.js';
import type { WatchEventType } from '../../../../lib/kube/watch.js';

/** A pod `name` at resourceVersion `rv`. */
export const pod = (name: string, rv: string, phase = 'Pending'): Pod => ({
  metadata: { name, namespace: 'ns', resourceVersion: rv },
  spec: { containers: [] },
  status: { phase },
});

/** A watch the scripted server holds open. */
export interface OpenWatch {
  options: WatchListOptions;
  send: (type: WatchEventType, object: KubeObject) => void;
  end: () => void;
  fail: (e: Error) => void;
}

/** A client whose LISTs answer `collection` (paged by `limit`) at `rv`, recording each; its watches stay open. */
export function scripted(collection: Pod[], rv: string) {
  const lists: string[] = [];
  const watches: OpenWatch[] = [];
  const state = { collection, rv };
  const kube = {
    async list(_r: unknown, options: ListOptions = {}): Promise<Listed<Pod>> {
      lists.push(
        options.resourceVersionMatch === 'NotOlderThan'
          ? `notOlderThan ${options.resourceVersion}`
          : options.continue !== undefined
            ? `continue ${options.continue}`
            : 'quorum',
      );
      const from = options.continue === undefined ? 0 : Number(options.continue);
      const to = options.limit === undefined ? state.collection.length : from + options.limit;
      const items = structuredClone(state.collection.slice(from, to));
      return {
        items,
        resourceVersion: state.rv,
        ...(to < state.collection.length ? { continue: String(to) } : {}),
      };
    },
    watch(
      _r: unknown,
      options: WatchListOptions,
      onEvent: (type: WatchEventType, object: KubeObject) => void,
    ) {
      return new Promise((resolve, reject) => {
        const done = () => resolve({ resourceVersion: options.resourceVersion, gone: false });
        options.signal.addEventListener('abort', done, { once: true });
        watches.push({ options, send: onEvent, end: done, fail: reject });
      });
    },
  } as unknown as KubeClient;
  return { kube, lists, watches, state };
}
