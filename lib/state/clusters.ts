/**
 * The cluster registry (docs/architecture.md#cluster-registry): item `registry` / `cluster#<name>` saying how to reach
 * one cluster's API server, where EKS tokens may be sent and how to authenticate.
 */
import { fieldErrorsFromZod } from '../core/errors.js';
import * as z from 'zod';
import { InvalidClusterRecordError } from './errors.js';
import { CLUSTER_KEY_PREFIX, clusterKeyString, REGISTRY_PK } from './itemKeys.js';
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

/**
 * What is wrong with `endpoint` as the API server of an EKS cluster in `region`, or undefined when it has EKS's
 * form: `https://<id>.<zone>.<region>.eks.amazonaws.com` (`….amazonaws.com.cn` in the China regions; the form
 * `DescribeCluster` returns, e.g. `https://A95FBC180B680B58A6468EF929D7A0B2.gr7.us-west-2.eks.amazonaws.com`), on
 * port 443, with no path, query or credentials. An EKS token is a bearer credential for the cluster: it must reach
 * only EKS (review finding 6).
 */
export function eksEndpointProblem(endpoint: string, region: string): string | undefined {
  const suffix = region.startsWith('cn-') ? 'eks.amazonaws.com.cn' : 'eks.amazonaws.com';
  const form = `https://<id>.<zone>.${region}.${suffix}`;
  if (!URL.canParse(endpoint)) return `must be an EKS API endpoint (${form})`;
  const url = new URL(endpoint);
  // the URL parser lower-cases the host; the cluster id and the zone are one DNS label each
  const tail = `.${region}.${suffix}`;
  const labels = url.hostname.endsWith(tail) ? url.hostname.slice(0, -tail.length).split('.') : [];
  const host = labels.length === 2 && labels.every((l) => /^[a-z0-9]{1,64}$/.test(l));
  const plain =
    url.protocol === 'https:' &&
    (url.port === '' || url.port === '443') &&
    url.username === '' &&
    url.password === '' &&
    (url.pathname === '' || url.pathname === '/') &&
    url.search === '' &&
    url.hash === '';
  return plain && host
    ? undefined
    : `must be an EKS API endpoint of the cluster's region (${form}); other endpoints only where the deployment allows them (allowNonEksEndpoints)`;
}

/** Where {@link parseClusterRecord} accepts an EKS cluster's endpoint. */
export interface ClusterRecordPolicy {
  /**
   * Accept any `https://` endpoint for `eks` auth, not only EKS's own form (the emulated AWS's authenticating
   * proxy, an EKS endpoint behind a private DNS name). Off by default: with it, whoever can write the registry
   * decides where EKS tokens are sent. Serverless parameter `allowNonEksEndpoints`, CLI `--allow-non-eks-endpoint`.
   */
  allowNonEksEndpoints?: boolean;
}

function recordSchema(policy: ClusterRecordPolicy) {
  return z
    .strictObject({
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
    })
    .superRefine((r, ctx) => {
      if (policy.allowNonEksEndpoints || r.auth.type !== 'eks') return;
      if (!URL.canParse(r.endpoint) || new URL(r.endpoint).protocol !== 'https:') return; // reported above
      const problem = eksEndpointProblem(r.endpoint, r.auth.region);
      if (problem) ctx.addIssue({ code: 'custom', path: ['endpoint'], message: problem });
    });
}

/**
 * How to reach one cluster (item `registry` / `cluster#<name>`): API endpoint, CA bundle, and how to
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
 * Validates untrusted input as a {@link ClusterRecord}; unknown fields are rejected. An `eks` record's endpoint
 * must have EKS's form in its region ({@link eksEndpointProblem}) unless `policy.allowNonEksEndpoints`.
 * @returns a new, validated record
 * @throws InvalidClusterRecordError listing every problem with its field path
 */
export function parseClusterRecord(input: unknown, policy: ClusterRecordPolicy = {}): ClusterRecord {
  const parsed = recordSchema(policy).safeParse(input);
  if (!parsed.success) throw new InvalidClusterRecordError(fieldErrorsFromZod(parsed.error));
  return parsed.data;
}

/** The cluster registry port (docs/architecture.md#cluster-registry). */
export interface ClusterRegistry {
  /**
   * Create or replace the record of `c.name`.
   * @returns the record as stored (validated)
   * @throws InvalidClusterRecordError when `c` is invalid under the registry's {@link ClusterRecordPolicy}
   *   (nothing is written)
   * @throws StateStoreError on DynamoDB failures
   */
  put(c: ClusterRecord): Promise<ClusterRecord>;
  /**
   * One eventually consistent GetItem: a record written in the last second may be missed or read in its previous
   * version (the caller's next invocation sees it).
   * @returns the record, or undefined when no cluster has this name
   * @throws InvalidClusterRecordError when the stored record is invalid under the registry's policy
   * @throws StateStoreError on DynamoDB failures
   */
  get(name: string): Promise<ClusterRecord | undefined>;
  /**
   * The names of every registered cluster, sorted, without validating their records (so one bad record fails
   * only its own cluster's {@link get}, not the list): an eventually consistent Query of the registry partition,
   * paginated. For the watch pump and the resync, every minute and every 5 minutes.
   * @throws StateStoreError on DynamoDB failures
   */
  names(): Promise<string[]>;
  /**
   * Every registered cluster, sorted by name: a Query of the registry partition, paginated.
   * @param opts.consistent strongly consistent (default false; the CLI reads its own writes with true)
   * @throws InvalidClusterRecordError when a stored record is invalid under the registry's policy
   * @throws StateStoreError on DynamoDB failures
   */
  list(opts?: { consistent?: boolean }): Promise<ClusterRecord[]>;
}

const StoredRecord = z.object({
  name: z.unknown(),
  endpoint: z.unknown(),
  caData: z.unknown(),
  auth: z.unknown(),
});

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * {@link ClusterRegistry} on the state table: item `registry` / `cluster#<name>` per cluster (./itemKeys.ts
 * {@link REGISTRY_PK}). Registry data is not transient, so these items have no `ttl`.
 */
export class DynamoClusterRegistry implements ClusterRegistry {
  constructor(
    private readonly table: StateTable,
    private readonly policy: ClusterRecordPolicy = {},
    /** Items per Query page at most (tests); default none: DynamoDB ends a page at 1 MB. */
    private readonly pageLimit?: number,
  ) {}

  private fromItem(item: Record<string, unknown>, op: string, sk: string): ClusterRecord {
    const { name, endpoint, caData, auth } = decodeItem(StoredRecord, item, op, REGISTRY_PK, sk);
    return parseClusterRecord({ name, endpoint, caData, auth }, this.policy);
  }

  private query(op: string, consistent: boolean) {
    return this.table.query(op, REGISTRY_PK, CLUSTER_KEY_PREFIX, {
      consistent,
      ...(this.pageLimit === undefined ? {} : { pageLimit: this.pageLimit }),
    });
  }

  async put(c: ClusterRecord): Promise<ClusterRecord> {
    const record = parseClusterRecord(c, this.policy);
    await this.table.put('clusters.put', REGISTRY_PK, clusterKeyString(record.name), { ...record });
    return record;
  }

  async get(name: string): Promise<ClusterRecord | undefined> {
    const op = 'clusters.get';
    const sk = clusterKeyString(name);
    const item = await this.table.get(op, REGISTRY_PK, sk, false);
    return item ? this.fromItem(item, op, sk) : undefined;
  }

  async names(): Promise<string[]> {
    const items = await this.query('clusters.names', false);
    return items.map((item) => String(item.sk).slice(CLUSTER_KEY_PREFIX.length)).sort();
  }

  async list(opts: { consistent?: boolean } = {}): Promise<ClusterRecord[]> {
    const op = 'clusters.list';
    const items = await this.query(op, opts.consistent ?? false);
    return items.map((item) => this.fromItem(item, op, String(item.sk))).sort(byName);
  }
}
