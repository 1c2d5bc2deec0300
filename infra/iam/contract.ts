/**
 * What each function role of serverless.yml may and may not do on AWS (review finding 6), checked with ./policy.ts
 * on serverless.yml itself (test/unit/infra/iam.test.ts) and on the packaged CloudFormation template
 * (scripts/package-check.sh through ./check.ts):
 * - the state table's partitions (docs/architecture.md#state-table) by IAM's `dynamodb:LeadingKeys`: the reconciler
 *   writes only `obj#…` items, the watch pump only its `cluster#…` checkpoints; the cluster registry (`registry`,
 *   where EKS tokens are sent) is read-only for every function; no function may Scan the table;
 * - every DynamoDB action a role is granted is one its code calls (no unused grant);
 * - no `eks:` action (no function calls EKS; `kruiseless cluster add` does, with the operator's credentials);
 * - `sts:AssumeRole` on exactly the deployment's `clusterRoleArns` (cross-account clusters registered with
 *   `roleArn`), for the functions that sign EKS tokens, and only when the parameter is set.
 */
import { errorMessage } from '../../lib/core/errors.js';
import { decide, roleStatements, type AuthzRequest, type PolicyStatement } from './policy.js';

/** The table as the template names it. */
const TABLE = { 'Fn::GetAtt': ['StateTable', 'Arn'] };
/** The assumable roles as the template names them (the `ClusterRoleArns` parameter). */
const CLUSTER_ROLES = { Ref: 'ClusterRoleArns' };

/** An item of each partition of the state table. */
const PARTITION = {
  object: 'obj#prod#apps.kruise.io/CloneSet#shop#web',
  checkpoints: 'cluster#prod',
  registry: 'registry',
} as const;
type Partition = keyof typeof PARTITION;

/** DynamoDB actions that change items. */
const WRITES = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:TransactWriteItems',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
];
/** DynamoDB actions that read items. */
const READS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:PartiQLSelect'];

/** What one function role's code does on the state table, by partition (lib/state). */
interface RoleContract {
  /** Actions the role must be allowed, per partition; every other table action must be denied. */
  table: Partial<Record<Partition, string[]>>;
  /** Whether it signs EKS tokens (calls a cluster), and so may assume `clusterRoleArns`. */
  signsEksTokens: boolean;
}

/** The contract of every function role (logical ids of serverless.yml). */
export const ROLE_CONTRACTS: Record<string, RoleContract> = {
  // lib/state/dynamo/watches.ts (take, save, release: UpdateItem; a refused take reads the item), the registry's
  // names (Query) and records (GetItem, lib/runtime/registryClusters.ts)
  WatchRole: {
    table: {
      checkpoints: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      registry: ['dynamodb:GetItem', 'dynamodb:Query'],
    },
    signsEksTokens: true,
  },
  // the registry's names and records; publishes to the bus only
  ResyncRole: { table: { registry: ['dynamodb:GetItem', 'dynamodb:Query'] }, signsEksTokens: true },
  // lease, fences, expectations and ledger of objects (GetItem, PutItem, UpdateItem); the cluster's record
  ReconcileRole: {
    table: {
      object: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      registry: ['dynamodb:GetItem'],
    },
    signsEksTokens: true,
  },
  // publishes to the bus, reads its SSM parameter; `/mutate-pod` and `/validate-pod` reach the cluster their path
  // names (the record, lib/runtime/registryClusters.ts, and an EKS token as the group kruiseless:admission, infra/rbac)
  AdmissionRole: { table: { registry: ['dynamodb:GetItem'] }, signsEksTokens: true },
};

/** A role of a CloudFormation template, as far as the check reads it. */
type Role = Parameters<typeof roleStatements>[0];

function request(action: string, resource: unknown, leadingKey?: string): AuthzRequest {
  return {
    action,
    resource,
    context: leadingKey === undefined ? {} : { 'dynamodb:LeadingKeys': [leadingKey] },
  };
}

/**
 * Checks every function role of `resources` against {@link ROLE_CONTRACTS}, with the `HasClusterRoles`
 * condition both false and true.
 * @param resources the template's `Resources` (serverless.yml `resources.Resources`, or the packaged template's)
 * @returns one line per violation; empty when the roles keep the contract
 */
export function checkRoleContracts(resources: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [id, contract] of Object.entries(ROLE_CONTRACTS)) {
    const role = resources[id] as Role | undefined;
    if (!role) {
      problems.push(`${id}: no such role`);
      continue;
    }
    for (const hasClusterRoles of [false, true]) {
      const conditions = { HasClusterRoles: hasClusterRoles, InVpc: false };
      let statements: PolicyStatement[];
      try {
        statements = roleStatements(role, conditions);
      } catch (e) {
        problems.push(`${id}: ${errorMessage(e)}`);
        continue;
      }
      problems.push(...checkRole(id, contract, statements, hasClusterRoles));
    }
  }
  return [...new Set(problems)];
}

function checkRole(
  id: string,
  contract: RoleContract,
  statements: PolicyStatement[],
  hasClusterRoles: boolean,
): string[] {
  const problems: string[] = [];
  const allowed = (r: AuthzRequest) => {
    try {
      return decide(statements, r) === 'Allow';
    } catch (e) {
      problems.push(`${id}: ${errorMessage(e)}`);
      return false;
    }
  };
  for (const partition of Object.keys(PARTITION) as Partition[]) {
    const needed = contract.table[partition] ?? [];
    for (const action of [...READS, ...WRITES]) {
      const ok = allowed(request(action, TABLE, PARTITION[partition]));
      if (needed.includes(action) && !ok) problems.push(`${id}: ${action} on ${partition} items is needed`);
      if (!needed.includes(action) && ok)
        problems.push(`${id}: ${action} on ${partition} items (${PARTITION[partition]}) must be denied`);
    }
  }
  if (allowed(request('dynamodb:Scan', TABLE)))
    problems.push(`${id}: dynamodb:Scan of the table must be denied`);
  for (const action of ['eks:DescribeCluster', 'eks:ListClusters', 'eks:AccessKubernetesApi'])
    if (allowed(request(action, 'arn:aws:eks:us-east-1:123456789012:cluster/prod')))
      problems.push(`${id}: ${action} must be denied (no function calls EKS)`);
  const assume = allowed(request('sts:AssumeRole', CLUSTER_ROLES));
  if (contract.signsEksTokens && hasClusterRoles && !assume)
    problems.push(`${id}: sts:AssumeRole on clusterRoleArns is needed (clusters registered with roleArn)`);
  if ((!contract.signsEksTokens || !hasClusterRoles) && assume)
    problems.push(`${id}: sts:AssumeRole must be denied${hasClusterRoles ? '' : ' without clusterRoleArns'}`);
  if (allowed(request('sts:AssumeRole', 'arn:aws:iam::999999999999:role/anything')))
    problems.push(`${id}: sts:AssumeRole on roles outside clusterRoleArns must be denied`);
  return problems;
}
