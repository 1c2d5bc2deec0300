/**
 * The identity of one reconciled object in the fleet, of any kind: the unit of reconciliation, of the lease and of
 * every reconcile request (docs/architecture.md#object-key). One type and one text rendering for logs, error
 * messages and maps keyed by object. As controller-runtime's `reconcile.Request` (a `NamespacedName`), plus the
 * cluster and the kind, since one Kruiseless serves many clusters and many controllers.
 */
import { KruiselessError } from './errors.js';

/** One object of one registered cluster. */
export interface ObjectKey {
  /** Registered cluster name (the cluster registry's `cluster#<name>` item). */
  cluster: string;
  /** `<group>/<Kind>`, e.g. `apps.kruise.io/CloneSet` (see {@link parseGroupKind}). */
  kind: string;
  /** The object's namespace; absent for a cluster-scoped kind (never the empty string). */
  namespace?: string;
  name: string;
}

/** What the request and key layers need to know about a kind: only its scope. */
export interface KindInfo {
  /** True for a namespaced kind (its keys carry a namespace), false for a cluster-scoped one (they never do). */
  namespaced: boolean;
}

/**
 * The kinds a build reconciles: `undefined` for a kind it does not know. Passed to the reconcile-request parser,
 * so the event layer needs no list of controllers (the runtime supplies it; today lib/controllers/cloneset/api/kinds.ts).
 */
export type KindLookup = (kind: string) => KindInfo | undefined;

/** A {@link KindLookup} over a fixed table, `<group>/<Kind>` → {@link KindInfo}. */
export function kindLookup(table: Readonly<Record<string, KindInfo>>): KindLookup {
  const kinds = new Map(Object.entries(table));
  return (kind) => kinds.get(kind);
}

/** `<group>/<Kind>`: a DNS-1123 subdomain, `/`, and an UpperCamelCase Kind (Kubernetes' rules for both). */
const GROUP_KIND = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)\/([A-Z][A-Za-z0-9]*)$/;

/** A key's kind that is not of the form `<group>/<Kind>`, or a namespaced key without a namespace. */
export class InvalidObjectKeyError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidObjectKeyError';
  }
}

/**
 * The group and Kind of a key's kind.
 * @param kind `<group>/<Kind>`, e.g. `apps.kruise.io/CloneSet`; the core group (`""`) is not a reconciled kind
 *   and has no form here
 * @returns e.g. `{ group: 'apps.kruise.io', kind: 'CloneSet' }`
 * @throws InvalidObjectKeyError when `kind` is not of that form
 */
export function parseGroupKind(kind: string): { group: string; kind: string } {
  const match = GROUP_KIND.exec(kind);
  if (!match) throw new InvalidObjectKeyError(`kind ${JSON.stringify(kind)} is not <group>/<Kind>`);
  return { group: match[1], kind: match[5] };
}

/** Whether `kind` is of the form `<group>/<Kind>` ({@link parseGroupKind} would accept it). */
export function isGroupKind(kind: string): boolean {
  return GROUP_KIND.test(kind);
}

/**
 * The key of any object that names one (a reconcile request, a lease), without its other fields; `namespace` only
 * when present.
 */
export function objectKeyOf(o: ObjectKey): ObjectKey {
  const { cluster, kind, namespace, name } = o;
  return { cluster, kind, ...(namespace !== undefined ? { namespace } : {}), name };
}

/**
 * `<cluster>/<group>/<Kind>/<namespace>/<name>`, or `<cluster>/<group>/<Kind>/<name>` for a cluster-scoped object:
 * the one human-readable rendering of a key (logs, messages, maps keyed by object). Unambiguous because groups,
 * Kinds, namespaces and names never contain `/`, and cluster names are checked to be `[A-Za-z0-9._-]` by the
 * cluster registry; the number of parts tells the two forms apart.
 */
export function objectKeyText(key: ObjectKey): string {
  const { cluster, kind, namespace, name } = key;
  return namespace === undefined ? `${cluster}/${kind}/${name}` : `${cluster}/${kind}/${namespace}/${name}`;
}

/**
 * The namespace of a key of a namespaced kind, for the API paths that need one.
 * @throws InvalidObjectKeyError when the key has none (a cluster-scoped key handed to namespaced code)
 */
export function namespaceOf(key: ObjectKey): string {
  if (key.namespace === undefined || key.namespace === '')
    throw new InvalidObjectKeyError(
      `${objectKeyText(key)} has no namespace, and code for a namespaced kind needs one`,
    );
  return key.namespace;
}

/**
 * The controller's name for a kind: its Kind in lower case, e.g. `cloneset` for `apps.kruise.io/CloneSet` — the
 * `controller` dimension of every metric (controller-runtime's label, whose value OpenKruise names after the kind).
 * @throws InvalidObjectKeyError when `kind` is not `<group>/<Kind>`
 */
export function controllerNameOf(kind: string): string {
  return parseGroupKind(kind).kind.toLowerCase();
}
