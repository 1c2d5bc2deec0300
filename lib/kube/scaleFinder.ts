/**
 * A workload of any kind through its `scale` subresource, as OpenKruise v1.9.0's
 * pkg/util/controllerfinder/controller_finder.go `getScaleController` finds the kinds it has no finder of its own
 * for (an Argo Rollout, a UnitedDeployment, any custom resource with `subresources.scale`): the reference's group and
 * Kind resolved to a resource by discovery (upstream: its RESTMapper), then `GET <resource>/<name>/scale`, whose
 * `spec.replicas` are the workload's replicas and `status.selector` its pods' label selector. For a kind served
 * without a scale subresource (a DaemonSet, a Job), upstream's last finder, `getRefUID`, reads the object itself and
 * reports its replicas unknown: {@link findWorkloadObject}.
 */
import { isForbidden, UnresolvedReferenceError } from './errors.js';
import type { KubeObject, Resource } from './resource.js';
import type { ApiResource, KubeClient } from './types.js';

/** A reference to a workload, as a PodUnavailableBudget's `targetRef` or a pod's owner reference spells it. */
export interface WorkloadRef {
  apiVersion?: string;
  kind?: string;
  name?: string;
  /** When given, a workload with another UID is not the one referenced. */
  uid?: string;
}

/** The replicas of a workload read without a scale subresource (upstream's `ReplicasUnknown`, `getRefUID`). */
export const REPLICAS_UNKNOWN = -1;

/** What the scale subresource says of a workload. */
export interface ScaledWorkload {
  /** The reference's apiVersion, Kind and name, with the UID the scale reports. */
  ref: { apiVersion: string; kind: string; name: string; uid: string };
  /** `spec.replicas` of the scale (0 when absent, as upstream's int32 zero value). */
  replicas: number;
  /**
   * `status.selector` of the scale, a label selector as text (`''` when the scale gives none: upstream parses that to
   * an empty selector, which selects every pod of the namespace).
   */
  selector: string;
  /** The scale's `metadata.deletionTimestamp` is set (the workload is being deleted). */
  deleting: boolean;
}

/**
 * A reference whose kind the API server does not serve (upstream: the RESTMapper's no-match error). OpenKruise
 * returns it from its reconcile and retries with backoff; so does a pass that throws it.
 */
export class UnservedKindError extends UnresolvedReferenceError {
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(`no resource of kind ${kind} is served in ${apiVersion || 'v1'}`);
    this.name = 'UnservedKindError';
  }
}

/** An apiVersion that is not `<version>` or `<group>/<version>` (upstream: `schema.ParseGroupVersion`'s error). */
export class InvalidApiVersionError extends UnresolvedReferenceError {
  constructor(readonly apiVersion: string) {
    super(`unexpected GroupVersion string: ${apiVersion}`);
    this.name = 'InvalidApiVersionError';
  }
}

/** The reads the finder makes: the client's optional discovery and scale reads. */
export type ScaleReads = Pick<KubeClient, 'serverResources' | 'getScale'>;

/**
 * The resource of `kind` in `apiVersion` and whether it has a scale subresource, by discovery.
 * @throws InvalidApiVersionError, UnservedKindError (the group version or the kind is not served), KubeApiError
 */
async function resourceOfKind(
  serverResources: NonNullable<KubeClient['serverResources']>,
  apiVersion: string,
  kind: string,
): Promise<{ resource: Resource; scalable: boolean }> {
  const parts = apiVersion.split('/');
  if (parts.length > 2) throw new InvalidApiVersionError(apiVersion);
  // no apiVersion: the core group's v1, as the mapper's preferred version of group ''
  const [group, version] = parts.length === 2 ? [parts[0], parts[1]] : ['', apiVersion || 'v1'];
  if (version === '') throw new UnservedKindError(apiVersion, kind);
  const groupVersion = group === '' ? version : `${group}/${version}`;
  const kindIn = (list: readonly ApiResource[] | undefined) =>
    list?.find((r) => r.kind === kind && !r.name.includes('/'));
  let served = await serverResources(groupVersion);
  // a kept answer may predate the kind's CRD: ask once more before calling it unserved (upstream's mapper resets)
  if (served && !kindIn(served)) served = await serverResources(groupVersion, { fresh: true });
  const found = kindIn(served);
  if (!served || !found) throw new UnservedKindError(apiVersion, kind);
  return {
    resource: { group, version, plural: found.name, namespaced: found.namespaced, kind },
    scalable: served.some((r) => r.name === `${found.name}/scale`),
  };
}

/**
 * {@link findScaledWorkload}'s answer for a kind with a scale subresource and no object of the name (404): the
 * workload is gone (upstream's last finder, `getRefUID`, finds nothing either).
 */
export const SCALED_NOT_FOUND = 'notFound';

/**
 * The workload `ref` names in `namespace`, read through its scale subresource (see the module doc).
 * @returns {@link SCALED_NOT_FOUND} when the kind has a scale subresource and no such object exists; undefined when
 *   the client has no discovery or scale reads, the reference has no Kind or name, the kind has no scale
 *   subresource, or the object's UID is not `ref.uid` — upstream then reads the object itself (`getRefUID`), which
 *   Kruiseless does not (lib/controllers/podunavailablebudget/targets.ts)
 * @throws InvalidApiVersionError, UnservedKindError, KubeApiError when a read fails
 */
export async function findScaledWorkload(
  kube: ScaleReads,
  namespace: string,
  ref: WorkloadRef,
): Promise<ScaledWorkload | typeof SCALED_NOT_FOUND | undefined> {
  const { serverResources, getScale } = kube;
  if (!serverResources || !getScale || !ref.kind || !ref.name) return undefined;
  const apiVersion = ref.apiVersion ?? '';
  const { resource, scalable } = await resourceOfKind(serverResources, apiVersion, ref.kind);
  if (!scalable) return undefined;
  const scale = await getScale(resource, { namespace, name: ref.name });
  if (!scale) return SCALED_NOT_FOUND;
  const uid = scale.metadata.uid ?? '';
  if (ref.uid && uid !== ref.uid) return undefined;
  return {
    ref: { apiVersion, kind: ref.kind, name: ref.name, uid },
    replicas: scale.spec?.replicas ?? 0,
    selector: scale.status?.selector ?? '',
    deleting: !!scale.metadata.deletionTimestamp,
  };
}

/**
 * {@link findWorkloadObject}'s answer when the read of the object is not granted (403): Kruiseless's roles grant `get`
 * on DaemonSets and Jobs (lib/controllers/podunavailablebudget/access.ts), where OpenKruise's reads every resource.
 */
export const WORKLOAD_FORBIDDEN = 'forbidden';

/** What the object itself says of a workload of a kind without a scale subresource: who it is; its replicas unknown. */
export interface UnscaledWorkload {
  /** The reference's apiVersion, Kind and name, with the object's UID. */
  ref: { apiVersion: string; kind: string; name: string; uid: string };
}

/**
 * The workload `ref` names in `namespace`, read as the object itself, as OpenKruise v1.9.0's last finder, `getRefUID`
 * (controller_finder.go), does when no other finder and no scale subresource answered: the kind resolved by discovery,
 * then `GET <resource>/<name>`. Like upstream's, it checks neither `ref.uid` nor the object's deletion: the answer is
 * whatever object holds the name now.
 * @returns {@link SCALED_NOT_FOUND} when no object of the name exists; {@link WORKLOAD_FORBIDDEN} when its read is not
 *   granted; undefined when the client has no discovery reads or the reference has no Kind or name
 * @throws InvalidApiVersionError, UnservedKindError, KubeApiError when a read fails otherwise
 */
export async function findWorkloadObject(
  kube: Pick<KubeClient, 'serverResources' | 'get'>,
  namespace: string,
  ref: WorkloadRef,
): Promise<UnscaledWorkload | typeof SCALED_NOT_FOUND | typeof WORKLOAD_FORBIDDEN | undefined> {
  if (!kube.serverResources || !ref.kind || !ref.name) return undefined;
  let object;
  try {
    object = await readWorkloadObject(kube, namespace, ref);
  } catch (e) {
    if (isForbidden(e)) return WORKLOAD_FORBIDDEN;
    throw e;
  }
  if (!object) return SCALED_NOT_FOUND;
  return {
    ref: { apiVersion: ref.apiVersion ?? '', kind: ref.kind, name: ref.name, uid: object.metadata.uid ?? '' },
  };
}

/**
 * The object `ref` names in `namespace`, of any kind the API server serves (the kind resolved by discovery, then
 * `GET <resource>/<name>`), as upstream reads a custom workload as `unstructured.Unstructured` through its client.
 * @returns the object; undefined when none of the name exists or the client has no discovery reads
 * @throws InvalidApiVersionError, UnservedKindError, KubeApiError when a read fails (a 403 when it is not granted)
 */
export async function readWorkloadObject(
  kube: Pick<KubeClient, 'serverResources' | 'get'>,
  namespace: string,
  ref: WorkloadRef,
): Promise<KubeObject | undefined> {
  const { serverResources } = kube;
  if (!serverResources || !ref.kind || !ref.name) return undefined;
  const { resource } = await resourceOfKind(serverResources, ref.apiVersion ?? '', ref.kind);
  return kube.get(resource, { ...(resource.namespaced ? { namespace } : {}), name: ref.name });
}
