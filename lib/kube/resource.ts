/**
 * What the generic client (./client.ts) addresses: a Kubernetes resource as the API server's discovery names it —
 * group, version, plural, scope and kind — and the REST paths built from it (the rules of
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-uris). The one place paths are spelt: the
 * client, the watch pump (./watch.ts) and the CLI all build theirs here.
 */
import type { ObjectMeta } from '../api/types.js';

/** The fields every Kubernetes object has, as far as the client reads them. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

/** Type-only key of {@link Resource}'s object type (no value exists at run time). */
declare const OBJECT_TYPE: unique symbol;

/**
 * One API resource, e.g. `{ group: 'apps.kruise.io', version: 'v1alpha1', plural: 'clonesets', namespaced: true,
 * kind: 'CloneSet' }`. `T` is the type of its objects: the client's calls on `Resource<Pod>` take and return `Pod`s.
 * The constants Kruiseless uses are in ./resources.ts.
 */
export interface Resource<T extends KubeObject = KubeObject> {
  /** API group; `''` for the core group (`/api/v1`). */
  readonly group: string;
  readonly version: string;
  /** Lower-case plural, the path segment and RBAC resource name, e.g. `pods`. */
  readonly plural: string;
  /** False for cluster-scoped resources (NodeImage, Node): no namespace in their paths. */
  readonly namespaced: boolean;
  /** The objects' `kind`, e.g. `Pod`; filled into list items and create bodies that lack it. */
  readonly kind: string;
  /** Type only: never set. Carries `T` so that calls infer it. */
  readonly [OBJECT_TYPE]?: T;
}

/** The object type of a resource. */
export type ObjectOf<R> = R extends Resource<infer T> ? T : never;

/**
 * A resource's identity whatever its version: `<plural>.<group>` (`pods.` for the core group), as RBAC and CRD names
 * spell it. Kept on lease items by ./listFloors.ts: changing it changes their text.
 */
export function resourceId(resource: Pick<Resource, 'plural' | 'group'>): string {
  return `${resource.plural}.${resource.group}`;
}

/**
 * Whether a resource is one of `resources`, by {@link resourceId} (any version): how the client wrappers
 * (./listFloors.ts, ./reusedLists.ts, ./watchedLists.ts, ./frozenLists.ts) tell the resources they act on.
 */
export function isOneOf(
  resources: readonly Pick<Resource, 'plural' | 'group'>[],
): (resource: Resource) => boolean {
  const ids = new Set(resources.map(resourceId));
  return (resource) => ids.has(resourceId(resource));
}

/**
 * Which object of a resource: its name, and its namespace for a namespaced resource (ignored for a cluster-scoped
 * one).
 */
export interface ObjectRef {
  namespace?: string;
  name: string;
}

const seg = encodeURIComponent;

/** `apiVersion` of a resource's objects: `<group>/<version>`, or `<version>` for the core group (`v1`). */
export function apiVersionOf(resource: Resource): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

/**
 * The REST path of a resource's collection, one object, or one object's subresource (namespace, name URL-encoded),
 * e.g. `/api/v1/namespaces/ns/pods/web-abcde/status`. A namespaced resource without `namespace` gives the
 * collection across all namespaces (`/api/v1/pods`: list and watch only); a cluster-scoped one ignores `namespace`.
 * @param subresource e.g. `status`; only with `name`
 * @throws Error when `subresource` is given without `name`, or a namespaced object is named without a namespace
 */
export function resourcePath(
  resource: Resource,
  namespace?: string,
  name?: string,
  subresource?: string,
): string {
  const root =
    resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  if (resource.namespaced && namespace === undefined && name !== undefined)
    throw new Error(`${resource.plural} ${name}: a namespaced object needs a namespace`);
  if (subresource !== undefined && name === undefined)
    throw new Error(`${resource.plural}: subresource ${subresource} without an object name`);
  const scope = resource.namespaced && namespace !== undefined ? `/namespaces/${seg(namespace)}` : '';
  const object = name === undefined ? '' : `/${seg(name)}`;
  const sub = subresource === undefined ? '' : `/${subresource}`;
  return `${root}${scope}/${resource.plural}${object}${sub}`;
}

/**
 * The path ./watch.ts watches for a resource: its collection in `namespace`, or across all namespaces (the watch
 * pump's cluster-wide streams) when it is undefined.
 */
export function watchPath(resource: Resource, namespace?: string): string {
  return resourcePath(resource, namespace);
}

/**
 * An object's reference in error operations and logs: `ns/name` for a namespaced resource, `name` for a
 * cluster-scoped one.
 */
export function refText(resource: Resource, ref: ObjectRef): string {
  return resource.namespaced ? `${ref.namespace ?? ''}/${ref.name}` : ref.name;
}
