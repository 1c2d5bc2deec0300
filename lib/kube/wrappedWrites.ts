/**
 * A client that wraps another one's writes: the shape every per-invocation layer over a pass's client shares
 * (./listFloors.ts `flooredKube`, ./reusedLists.ts `reusingKube`).
 */
import { discoveryReads } from './discoveryReads.js';
import type { Resource } from './resource.js';
import type { KubeClient } from './types.js';

/** What to do around one write of `resource`; `send` makes it and answers what the write answers. */
export type WriteHook = <T>(resource: Resource, send: () => Promise<T>) => Promise<T>;

/**
 * `kube` with its four writes — create, replace, patch, delete — sent through `write`, and `reads.get` /
 * `reads.list` in place of `kube`'s where given; `recordEvent`, `serverVersion` and the discovery and scale reads
 * (./discoveryReads.ts) passed through unchanged.
 * @throws what `write`, the reads given and `kube` throw
 */
export function wrappedWrites(
  kube: KubeClient,
  write: WriteHook,
  reads: Partial<Pick<KubeClient, 'get' | 'list'>> = {},
): KubeClient {
  return {
    get: reads.get ?? ((resource, ref) => kube.get(resource, ref)),
    list: reads.list ?? ((resource, options) => kube.list(resource, options)),
    create: (resource, object) => write(resource, () => kube.create(resource, object)),
    replace: (resource, object, options) => write(resource, () => kube.replace(resource, object, options)),
    patch: (resource, ref, patch, options) =>
      write(resource, () => kube.patch(resource, ref, patch, options)),
    delete: (resource, ref, preconditions, options) =>
      write(resource, () => kube.delete(resource, ref, preconditions, options)),
    recordEvent: (resource, object, event, options) => kube.recordEvent(resource, object, event, options),
    serverVersion: () => kube.serverVersion(),
    ...discoveryReads(kube),
  };
}
