/**
 * The API paths Kruiseless calls (namespace and name URL-encoded): the CloneSet at the version the CRD in
 * infra/crds serves (v1alpha1 only, status subresource), ImagePullJobs, core/v1 objects and apps/v1 ControllerRevisions. One home
 * for the reconciler's KubeClient (client.ts) and the CLI's own calls (lib/cli/calls.ts).
 */
import { GROUP } from '../api/keys.js';

const seg = encodeURIComponent;
const CLONESET = { group: GROUP, version: 'v1alpha1', plural: 'clonesets' } as const;

/** Path builders; each returns a path without query, e.g. `/api/v1/namespaces/ns/pods/web-abcde`. */
export const apiPaths = {
  /** CloneSets of `namespace`, or of every namespace when it is undefined. */
  cloneSets: (namespace?: string): string =>
    namespace === undefined
      ? `/apis/${CLONESET.group}/${CLONESET.version}/${CLONESET.plural}`
      : `/apis/${CLONESET.group}/${CLONESET.version}/namespaces/${seg(namespace)}/${CLONESET.plural}`,
  cloneSet: (namespace: string, name: string): string => `${apiPaths.cloneSets(namespace)}/${seg(name)}`,
  /** A core/v1 collection (`plural`: pods, persistentvolumeclaims, events) or one object of it. */
  core: (namespace: string, plural: string, name?: string): string =>
    `/api/v1/namespaces/${seg(namespace)}/${plural}${name === undefined ? '' : `/${seg(name)}`}`,
  /** ImagePullJobs of `namespace` (apps.kruise.io/v1alpha1), or one of them. */
  imagePullJobs: (namespace: string, name?: string): string =>
    `/apis/${GROUP}/v1alpha1/namespaces/${seg(namespace)}/imagepulljobs${name === undefined ? '' : `/${seg(name)}`}`,
  /** The cluster's NodeImages (apps.kruise.io/v1alpha1; one per node where kruise-daemon runs). */
  nodeImages: (): string => `/apis/${GROUP}/v1alpha1/nodeimages`,
  revisions: (namespace: string, name?: string): string =>
    `/apis/apps/v1/namespaces/${seg(namespace)}/controllerrevisions${name === undefined ? '' : `/${seg(name)}`}`,
};
