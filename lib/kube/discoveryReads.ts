/**
 * The optional reads of {@link KubeClient} — discovery (`serverResources`) and the `scale` subresource
 * (`getScale`) — bound to a client, for the wrappers that build a client around another (./wrappedWrites.ts,
 * lib/reconcile/leaseGuard.ts, lib/runtime/counting.ts, the watch pump's lib/source/listMemo.ts) to pass on: a wrapper that dropped them would leave its
 * callers resolving no kind beyond the ones they name (./scaleFinder.ts), silently.
 */
import type { KubeClient } from './types.js';

/**
 * `kube`'s `serverResources` and `getScale`, each present only when `kube` has it.
 * @param onScale called before each `getScale` (a counting wrapper counts it there)
 */
export function discoveryReads(
  kube: Pick<KubeClient, 'serverResources' | 'getScale'>,
  onScale?: (resource: Parameters<NonNullable<KubeClient['getScale']>>[0]) => void,
): Pick<KubeClient, 'serverResources' | 'getScale'> {
  const serverResources = kube.serverResources?.bind(kube);
  const getScale = kube.getScale?.bind(kube);
  return {
    ...(serverResources ? { serverResources } : {}),
    ...(getScale
      ? {
          getScale: ((resource, ref) => {
            onScale?.(resource);
            return getScale(resource, ref);
          }) satisfies KubeClient['getScale'],
        }
      : {}),
  };
}
