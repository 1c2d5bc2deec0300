/**
 * The shared API resources Kruiseless reads or writes, in one place (the versions are the ones the API server and
 * the CRDs in infra/crds serve: ImagePullJob and NodeImage as every OpenKruise release serves them). Each
 * controller's own resource is in its folder (e.g. lib/controllers/cloneset/api/resource.ts). The RBAC rows for these calls are in ./access.ts.
 */
import { GROUP } from '../api/keys.js';
import type { Node } from '../api/node.js';
import type { ConfigMap, ControllerRevision, PersistentVolumeClaim, Pod } from '../api/types.js';
import { IMAGE_PULL_JOB_KIND, type ImagePullJob } from '../api/imagePullJob.js';
import type { CoreEvent } from './event.js';
import type { KubeObject, Resource } from './resource.js';

/** The resources, keyed by plural. */
export const RESOURCES = {
  pods: { group: '', version: 'v1', plural: 'pods', namespaced: true, kind: 'Pod' } as Resource<Pod>,
  persistentvolumeclaims: {
    group: '',
    version: 'v1',
    plural: 'persistentvolumeclaims',
    namespaced: true,
    kind: 'PersistentVolumeClaim',
  } as Resource<PersistentVolumeClaim>,
  /** core/v1 ConfigMaps (a pod's container launch barrier, `<pod>-barrier`). */
  configmaps: {
    group: '',
    version: 'v1',
    plural: 'configmaps',
    namespaced: true,
    kind: 'ConfigMap',
  } as Resource<ConfigMap>,
  /** apps/v1 ControllerRevisions: their `data` is written as Go's bytes (./body.ts). */
  controllerrevisions: {
    group: 'apps',
    version: 'v1',
    plural: 'controllerrevisions',
    namespaced: true,
    kind: 'ControllerRevision',
  } as Resource<ControllerRevision>,
  /** OpenKruise ImagePullJobs (image pre-download); not served where OpenKruise's CRDs are not installed. */
  imagepulljobs: {
    group: GROUP,
    version: 'v1alpha1',
    plural: 'imagepulljobs',
    namespaced: true,
    kind: IMAGE_PULL_JOB_KIND,
  } as Resource<ImagePullJob>,
  /** OpenKruise NodeImages (cluster-scoped; kruise-daemon keeps one per node it runs on). */
  nodeimages: {
    group: GROUP,
    version: 'v1alpha1',
    plural: 'nodeimages',
    namespaced: false,
    kind: 'NodeImage',
  } as Resource<KubeObject>,
  /** storage.k8s.io/v1 StorageClasses (cluster-scoped; Advanced StatefulSet's PVC resize reads `allowVolumeExpansion`). */
  storageclasses: {
    group: 'storage.k8s.io',
    version: 'v1',
    plural: 'storageclasses',
    namespaced: false,
    kind: 'StorageClass',
  } as Resource<KubeObject & { allowVolumeExpansion?: boolean }>,
  /** core/v1 Nodes (cluster-scoped; BroadcastJob places one pod on each node its template fits). */
  nodes: { group: '', version: 'v1', plural: 'nodes', namespaced: false, kind: 'Node' } as Resource<Node>,
  /** core/v1 Events (./event.ts). */
  events: {
    group: '',
    version: 'v1',
    plural: 'events',
    namespaced: true,
    kind: 'Event',
  } as Resource<CoreEvent>,
} as const;

/** apiextensions.k8s.io/v1 CustomResourceDefinitions (cluster-scoped): the conversion patches of a CRD. */
export const CRD_RESOURCE: Resource = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};
