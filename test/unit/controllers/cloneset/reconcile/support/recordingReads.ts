/**
 * A client that records the reads a pass makes, for tests of what a CloneSet pass reads. Test-only.
 */
import type { KubeClient } from '../../../../../../lib/kube/types.js';

/** `kube` with every get recorded as `get <plural> <name>` and every list as `list <plural> <labelSelector>`. */
export function recordingReads(kube: KubeClient, reads: string[]): KubeClient {
  return {
    create: (resource, object) => kube.create(resource, object),
    replace: (resource, object, options) => kube.replace(resource, object, options),
    patch: (resource, ref, patch, options) => kube.patch(resource, ref, patch, options),
    delete: (resource, ref, preconditions) => kube.delete(resource, ref, preconditions),
    recordEvent: (resource, object, event, options) => kube.recordEvent(resource, object, event, options),
    serverVersion: () => kube.serverVersion(),
    get: (resource, ref) => {
      reads.push(`get ${resource.plural} ${ref.name}`);
      return kube.get(resource, ref);
    },
    list: (resource, options) => {
      reads.push(`list ${resource.plural} ${options?.labelSelector ?? '(all)'}`);
      return kube.list(resource, options);
    },
  };
}
