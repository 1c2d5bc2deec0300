/**
 * The function roles of serverless.yml keep their IAM contract (infra/iam/contract.ts; review finding 6): the
 * registry read-only, each role's writes confined to its own partition by `dynamodb:LeadingKeys`, no Scan, no
 * unused grant, no EKS action, `sts:AssumeRole` on exactly `clusterRoleArns`. scripts/package-check.sh checks the
 * same contract on the packaged template. Also the evaluator's own rules (infra/iam/policy.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { parseServerlessYml } from '../../../lib/emulator/serverlessRules.js';
import { checkRoleContracts } from '../../../infra/iam/contract.js';
import {
  decide,
  PolicyEvaluationError,
  roleStatements,
  type AuthzRequest,
  type PolicyStatement,
} from '../../../infra/iam/policy.js';

const TABLE = { 'Fn::GetAtt': ['StateTable', 'Arn'] };

function resources(): Record<string, unknown> {
  const yml = parseServerlessYml(
    readFileSync(new URL('../../../serverless.yml', import.meta.url), 'utf8'),
  ) as {
    resources: { Resources: Record<string, unknown> };
  };
  return yml.resources.Resources;
}

const role = (statements: unknown[]) => ({
  Properties: { Policies: [{ PolicyDocument: { Statement: statements } }] },
});

describe('serverless.yml function roles', () => {
  it('keep the IAM contract of infra/iam/contract.ts', () => {
    expect(checkRoleContracts(resources())).toEqual([]);
  });

  it('the contract catches a role that can write the registry, Scan the table and call EKS (the roles before the fix)', () => {
    const before = {
      ...resources(),
      WatchRole: role([
        {
          Effect: 'Allow',
          Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Scan'],
          Resource: TABLE,
        },
        { Effect: 'Allow', Action: 'eks:DescribeCluster', Resource: 'arn:aws:eks:*:*:cluster/*' },
      ]),
    };
    expect(checkRoleContracts(before).filter((p) => p.startsWith('WatchRole'))).toEqual(
      expect.arrayContaining([
        'WatchRole: dynamodb:PutItem on registry items (registry) must be denied',
        'WatchRole: dynamodb:UpdateItem on registry items (registry) must be denied',
        'WatchRole: dynamodb:PutItem on object items (obj#prod#apps.kruise.io/CloneSet#shop#web) must be denied',
        'WatchRole: dynamodb:Query on registry items is needed',
        'WatchRole: dynamodb:Scan of the table must be denied',
        'WatchRole: eks:DescribeCluster must be denied (no function calls EKS)',
        'WatchRole: sts:AssumeRole on clusterRoleArns is needed (clusters registered with roleArn)',
      ]),
    );
  });
});

describe('the IAM evaluator', () => {
  const byLeadingKey: PolicyStatement = {
    Effect: 'Allow',
    Action: ['dynamodb:PutItem', 'dynamodb:Scan'],
    Resource: TABLE,
    Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['obj#*'] } },
  };
  const put = (key?: string[]): AuthzRequest => ({
    action: 'dynamodb:PutItem',
    resource: TABLE,
    context: key ? { 'dynamodb:LeadingKeys': key } : {},
  });

  it('matches dynamodb:LeadingKeys with ForAllValues:StringLike', () => {
    expect(decide([byLeadingKey], put(['obj#a']))).toBe('Allow');
    expect(decide([byLeadingKey], put(['registry']))).toBe('ImplicitDeny');
  });

  it('lets ForAllValues hold for a request without the key, as AWS does (why a Scan must not be granted)', () => {
    expect(decide([byLeadingKey], { action: 'dynamodb:Scan', resource: TABLE })).toBe('Allow');
  });

  it('an explicit Deny wins over an Allow; an action of no statement is implicitly denied', () => {
    const deny: PolicyStatement = { Effect: 'Deny', Action: 'dynamodb:*', Resource: '*' };
    expect(decide([byLeadingKey, deny], put(['obj#a']))).toBe('Deny');
    expect(decide([byLeadingKey], { action: 'dynamodb:GetItem', resource: TABLE })).toBe('ImplicitDeny');
  });

  it('resolves Fn::If statements under the given conditions and refuses what it cannot evaluate', () => {
    const r = role([
      {
        'Fn::If': [
          'HasX',
          { Effect: 'Allow', Action: 'sts:AssumeRole', Resource: 'a' },
          { Ref: 'AWS::NoValue' },
        ],
      },
    ]);
    expect(roleStatements(r, { HasX: true })).toHaveLength(1);
    expect(roleStatements(r, { HasX: false })).toHaveLength(0);
    expect(() => roleStatements(r, {})).toThrow(PolicyEvaluationError);
    const odd: PolicyStatement = {
      Effect: 'Allow',
      Action: 'x:Y',
      Resource: '*',
      Condition: { NumericLessThan: { k: '1' } },
    };
    expect(() => decide([odd], { action: 'x:Y', resource: 'r', context: { k: '0' } })).toThrow(
      'condition operator NumericLessThan is not evaluated',
    );
  });
});
