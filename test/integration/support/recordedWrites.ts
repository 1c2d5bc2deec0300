/**
 * What `kruiseless plan` prints against what a pass then writes: a KubeClient that records each write as
 * `<verb> <resource> <name>` (plan's form) and the write lines of a `plan` report. Test-only.
 */
import type { KubeClient, Resource } from '../../../lib/kube/index.js';

/**
 * `kube` with every write appended to `writes` as `plan` prints them: kubectl's verbs (a PUT is `update`), the
 * lower-case kind (`pvc` for a PersistentVolumeClaim) with `/<subresource>`. Reads and Events are not recorded.
 */
export function recordingKube(kube: KubeClient, writes: { list: string[] }): KubeClient {
  const log = (verb: string, resource: Resource, name: string | undefined, subresource?: string) => {
    const what = resource.plural === 'persistentvolumeclaims' ? 'pvc' : resource.kind.toLowerCase();
    writes.list.push(`${verb} ${what}${subresource ? `/${subresource}` : ''} ${name ?? ''}`);
  };
  return {
    get: (resource, ref) => kube.get(resource, ref),
    list: (resource, options) => kube.list(resource, options),
    create: (resource, object) => (
      log('create', resource, object.metadata.name),
      kube.create(resource, object)
    ),
    replace: (resource, object, options) => (
      log('update', resource, object.metadata.name, options?.subresource),
      kube.replace(resource, object, options)
    ),
    patch: (resource, ref, patch, options) => (
      log('patch', resource, ref.name, options?.subresource),
      kube.patch(resource, ref, patch, options)
    ),
    delete: (resource, ref, preconditions) => (
      log('delete', resource, ref.name),
      kube.delete(resource, ref, preconditions)
    ),
    recordEvent: (resource, object, event, options) => kube.recordEvent(resource, object, event, options),
    serverVersion: () => kube.serverVersion(),
  };
}

/** The numbered write lines of a `plan` report, without their reasons. */
export function printedWrites(report: string): string[] {
  return report
    .split('\n')
    .map((l) => /^ {2}\d+\. ([^:]+):/.exec(l)?.[1])
    .filter((w): w is string => w !== undefined);
}
