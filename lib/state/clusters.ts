/**
 * The cluster registry (docs/architecture.md#cluster-registry): item `cluster#<name>` / `meta` saying how to reach one cluster's API server.
 * Registry data is not transient, so this item has no `ttl`.
 */
import { fieldErrorsFromZod } from '../core/errors.js';
import * as z from 'zod';
import { InvalidClusterRecordError } from './errors.js';
import { CLUSTER_KEY_PREFIX, clusterKeyString, SK } from './itemKeys.js';
import { decodeItem, type StateTable } from './dynamo/table.js';

const ClusterName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/,
    'must be 1-100 characters of letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

const EksAuth = z.strictObject({
  type: z.literal('eks'),
  /** EKS cluster name, for the token's `x-k8s-aws-id` header. */
  clusterName: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/,
      'must be a valid EKS cluster name (letters, digits, "-", "_")',
    ),
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must be an AWS region such as eu-west-1'),
  roleArn: z
    .string()
    .regex(
      /^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/,
      'must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)',
    )
    .optional(),
});

const KubeconfigSecretAuth = z.strictObject({
  type: z.literal('kubeconfigSecret'),
  secretArn: z
    .string()
    .regex(
      /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/,
      'must be a Secrets Manager secret ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>)',
    ),
});

const ClusterRecordSchema = z.strictObject({
  name: ClusterName,
  endpoint: z
    .string()
    .refine((s) => URL.canParse(s) && new URL(s).protocol === 'https:', 'must be an https:// URL'),
  caData: z
    .string()
    .refine(
      (s) =>
        /^[A-Za-z0-9+/]+={0,2}$/.test(s) &&
        Buffer.from(s, 'base64').toString('latin1').includes(PEM_CERTIFICATE),
      'must be base64 of a PEM CA certificate (like certificate-authority-data in a kubeconfig)',
    ),
  auth: z.discriminatedUnion('type', [EksAuth, KubeconfigSecretAuth], {
    error: 'must be {type:"eks", clusterName, region, roleArn?} or {type:"kubeconfigSecret", secretArn}',
  }),
});

/**
 * How to reach one cluster (item `cluster#<name>` / `meta`): API endpoint, CA bundle, and how to
 * authenticate: an EKS token signed with the Lambda's IAM identity (optionally after assuming `roleArn`), or a
 * kubeconfig kept in Secrets Manager.
 */
export interface ClusterRecord {
  /** Registry name, used in object keys; letters, digits, `.`, `_`, `-` (never `#`). */
  name: string;
  /** API server URL, `https://…`. */
  endpoint: string;
  /** Base64 PEM CA bundle, as `certificate-authority-data` in a kubeconfig. */
  caData: string;
  auth:
    | { type: 'eks'; clusterName: string; region: string; roleArn?: string }
    | { type: 'kubeconfigSecret'; secretArn: string };
}

/**
 * Validates untrusted input as a {@link ClusterRecord}; unknown fields are rejected.
 * @returns a new, validated record
 * @throws InvalidClusterRecordError listing every problem with its field path
 */
export function parseClusterRecord(input: unknown): ClusterRecord {
  const parsed = ClusterRecordSchema.safeParse(input);
  if (!parsed.success) throw new InvalidClusterRecordError(fieldErrorsFromZod(parsed.error));
  return parsed.data;
}

/** The cluster registry port (docs/architecture.md#cluster-registry). */
export interface ClusterRegistry {
  /**
   * Create or replace the record of `c.name`.
   * @throws InvalidClusterRecordError when `c` is invalid (nothing is written)
   * @throws StateStoreError on DynamoDB failures
   */
  put(c: ClusterRecord): Promise<void>;
  /**
   * @returns the record, or undefined when no cluster has this name
   * @throws InvalidClusterRecordError when the stored record is invalid
   * @throws StateStoreError on DynamoDB failures
   */
  get(name: string): Promise<ClusterRecord | undefined>;
  /**
   * Every registered cluster, sorted by name. Implemented as a filtered Scan of the whole table (the table has
   * no index), so call it from the scheduled resync, not per event.
   * @throws InvalidClusterRecordError when a stored record is invalid
   * @throws StateStoreError on DynamoDB failures
   */
  list(): Promise<ClusterRecord[]>;
}

const StoredRecord = z.object({
  name: z.unknown(),
  endpoint: z.unknown(),
  caData: z.unknown(),
  auth: z.unknown(),
});

function fromItem(item: Record<string, unknown>, op: string, pk: string): ClusterRecord {
  const { name, endpoint, caData, auth } = decodeItem(StoredRecord, item, op, pk, SK.meta);
  return parseClusterRecord({ name, endpoint, caData, auth });
}

/** {@link ClusterRegistry} on the state table. */
export class DynamoClusterRegistry implements ClusterRegistry {
  constructor(private readonly table: StateTable) {}

  async put(c: ClusterRecord): Promise<void> {
    const record = parseClusterRecord(c);
    await this.table.put('clusters.put', clusterKeyString(record.name), SK.meta, { ...record });
  }

  async get(name: string): Promise<ClusterRecord | undefined> {
    const op = 'clusters.get';
    const pk = clusterKeyString(name);
    const item = await this.table.get(op, pk, SK.meta);
    return item ? fromItem(item, op, pk) : undefined;
  }

  async list(): Promise<ClusterRecord[]> {
    const op = 'clusters.list';
    const items = await this.table.scan(op, {
      condition: '#sk = :meta AND begins_with(#pk, :prefix)',
      names: { '#sk': 'sk', '#pk': 'pk' },
      values: { ':meta': SK.meta, ':prefix': CLUSTER_KEY_PREFIX },
    });
    return items
      .map((item) => fromItem(item, op, String(item.pk)))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
