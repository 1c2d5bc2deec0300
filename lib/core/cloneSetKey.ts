/**
 * The identity of one CloneSet in the fleet: the unit of reconciliation, of the lease and of every event. One type
 * and one text rendering for logs, error messages and the reconcile request's key
 * (docs/architecture.md#cloneset-key).
 */

/** One CloneSet of one registered cluster. */
export interface CloneSetKey {
  /** Registered cluster name (the cluster registry's `cluster#<name>` item). */
  cluster: string;
  namespace: string;
  name: string;
}

/** The key of any object that names a CloneSet (a reconcile request, a lease), without its other fields. */
export function cloneSetKeyOf(o: CloneSetKey): CloneSetKey {
  return { cluster: o.cluster, namespace: o.namespace, name: o.name };
}

/**
 * `<cluster>/<namespace>/<name>`: the one human-readable rendering of a key (logs, messages, maps keyed by
 * CloneSet). Unambiguous because Kubernetes namespaces and names never contain `/` and cluster names are checked
 * to be `[A-Za-z0-9._-]` by the cluster registry.
 */
export function cloneSetKeyText(key: CloneSetKey): string {
  return `${key.cluster}/${key.namespace}/${key.name}`;
}
