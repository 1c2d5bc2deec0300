/**
 * Item keys of the single state table (docs/architecture.md#state-table). Partition keys join their parts with `#`,
 * so no part may contain `#` (Kubernetes groups, Kinds, namespaces and names never do; cluster names are checked
 * here).
 */
import { objectKeyText, type ObjectKey } from '../core/objectKey.js';
import { InvalidStateKeyError } from './errors.js';

/** Sort keys of the items under one partition key. */
export const SK = {
  lease: 'lease',
  expectations: 'expectations',
  scaledown: 'scaledown',
  /** The cluster's watch pump lease and the resume points of all its streams (lib/state/dynamo/watches.ts). */
  watches: 'watches',
  /** `watch#<resource>`, e.g. `watch#pods`: one stream's resume point as kept before `watches` (read only). */
  watch: (resource: string): string => `watch#${checkPart('resource', resource, resource)}`,
} as const;

const OBJECT_PREFIX = 'obj';
const OBJECT_FORM = 'obj#<cluster>#<group>/<Kind>#<namespace>#<name>';
const CLUSTER_PREFIX = 'cluster';

function checkPart(field: string, value: string, input: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new InvalidStateKeyError(input, `${field} is empty`);
  if (value.includes('#'))
    throw new InvalidStateKeyError(input, `${field} ${JSON.stringify(value)} contains '#'`);
  return value;
}

/**
 * The partition key of an object's items (lease, expectations, scale-down ledger):
 * `obj#<cluster>#<group>/<Kind>#<namespace>#<name>`, the namespace part empty for a cluster-scoped object, e.g.
 * `obj#prod#apps.kruise.io/CloneSet#shop#web`.
 * @throws InvalidStateKeyError when the cluster, kind or name is empty, the namespace is the empty string (omit it
 *   instead), or a part contains `#`
 */
export function objectKeyString(key: ObjectKey): string {
  const input = objectKeyText(key);
  return [
    OBJECT_PREFIX,
    checkPart('cluster', key.cluster, input),
    checkPart('kind', key.kind, input),
    key.namespace === undefined ? '' : checkPart('namespace', key.namespace, input),
    checkPart('name', key.name, input),
  ].join('#');
}

/**
 * Inverse of {@link objectKeyString}.
 * @param s a string of the form `obj#<cluster>#<group>/<Kind>#<namespace>#<name>`
 * @returns the key; without `namespace` when that part is empty
 * @throws InvalidStateKeyError when the prefix is not `obj`, there are not exactly five `#`-separated parts,
 *   or the cluster, kind or name is empty
 */
export function parseObjectKey(s: string): ObjectKey {
  const parts = s.split('#');
  if (parts[0] !== OBJECT_PREFIX)
    throw new InvalidStateKeyError(s, `expected prefix '${OBJECT_PREFIX}#' (${OBJECT_FORM})`);
  if (parts.length !== 5)
    throw new InvalidStateKeyError(
      s,
      `expected 5 '#'-separated parts (${OBJECT_FORM}), got ${parts.length}; no part may contain '#'`,
    );
  const [, cluster, kind, namespace, name] = parts;
  checkPart('cluster', cluster, s);
  checkPart('kind', kind, s);
  checkPart('name', name, s);
  return { cluster, kind, ...(namespace !== '' ? { namespace } : {}), name };
}

/**
 * `cluster#<name>`: the partition key of a cluster's watch checkpoints, and the sort key of its record in the
 * {@link REGISTRY_PK} partition.
 * @throws InvalidStateKeyError when the name is empty or contains `#`
 */
export function clusterKeyString(cluster: string): string {
  return `${CLUSTER_PREFIX}#${checkPart('cluster', cluster, cluster)}`;
}

/** Prefix of every {@link clusterKeyString}, for listing the registry partition. */
export const CLUSTER_KEY_PREFIX = `${CLUSTER_PREFIX}#`;

/**
 * The partition of the cluster registry: item `registry` / `cluster#<name>` per cluster
 * (docs/architecture.md#cluster-registry). One partition, so the cluster list is one Query, not a Scan of the
 * table; apart from every item the functions write (`obj#…` of the reconciler, `cluster#…` of the watch pump),
 * so IAM's `dynamodb:LeadingKeys` can keep the registry read-only for them (serverless.yml).
 */
export const REGISTRY_PK = 'registry';

/** Renders `<pk>/<sk>` for error messages. */
export function itemKey(pk: string, sk: string): string {
  return `${pk}/${sk}`;
}
