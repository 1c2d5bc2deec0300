/**
 * Item keys of the single state table (docs/architecture.md#state-table). Partition keys join their parts with `#`, so no part may
 * contain `#` (Kubernetes namespaces and names never do; cluster names are checked here).
 */
import { cloneSetKeyText, type CloneSetKey } from '../core/cloneSetKey.js';
import { InvalidStateKeyError } from './errors.js';

/** Sort keys of the items under one partition key. */
export const SK = {
  lease: 'lease',
  expectations: 'expectations',
  scaledown: 'scaledown',
  meta: 'meta',
  /** `watch#<resource>`, e.g. `watch#pods` */
  watch: (resource: string): string => `watch#${checkPart('resource', resource, resource)}`,
} as const;

const CLONESET_PREFIX = 'cs';
const CLUSTER_PREFIX = 'cluster';

function checkPart(field: string, value: string, input: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new InvalidStateKeyError(input, `${field} is empty`);
  if (value.includes('#'))
    throw new InvalidStateKeyError(input, `${field} ${JSON.stringify(value)} contains '#'`);
  return value;
}

/**
 * The partition key of a CloneSet's items: `cs#<cluster>#<namespace>#<name>`.
 * @throws InvalidStateKeyError when a part is empty or contains `#`
 */
export function cloneSetKeyString(key: CloneSetKey): string {
  const input = cloneSetKeyText(key);
  return [
    CLONESET_PREFIX,
    checkPart('cluster', key.cluster, input),
    checkPart('namespace', key.namespace, input),
    checkPart('name', key.name, input),
  ].join('#');
}

/**
 * Inverse of {@link cloneSetKeyString}.
 * @param s a string of the form `cs#<cluster>#<namespace>#<name>`
 * @throws InvalidStateKeyError when the prefix is not `cs`, there are not exactly four `#`-separated parts,
 *   or a part is empty
 */
export function parseCloneSetKey(s: string): CloneSetKey {
  const parts = s.split('#');
  if (parts[0] !== CLONESET_PREFIX)
    throw new InvalidStateKeyError(
      s,
      `expected prefix '${CLONESET_PREFIX}#' (cs#<cluster>#<namespace>#<name>)`,
    );
  if (parts.length !== 4)
    throw new InvalidStateKeyError(
      s,
      `expected 4 '#'-separated parts (cs#<cluster>#<namespace>#<name>), got ${parts.length}; no part may contain '#'`,
    );
  const [, cluster, namespace, name] = parts;
  checkPart('cluster', cluster, s);
  checkPart('namespace', namespace, s);
  checkPart('name', name, s);
  return { cluster, namespace, name };
}

/**
 * The partition key of a cluster's registry and watch items: `cluster#<name>`.
 * @throws InvalidStateKeyError when the name is empty or contains `#`
 */
export function clusterKeyString(cluster: string): string {
  return `${CLUSTER_PREFIX}#${checkPart('cluster', cluster, cluster)}`;
}

/** Prefix shared by every cluster partition key, for listing the registry. */
export const CLUSTER_KEY_PREFIX = `${CLUSTER_PREFIX}#`;

/** Renders `<pk>/<sk>` for error messages. */
export function itemKey(pk: string, sk: string): string {
  return `${pk}/${sk}`;
}
