/**
 * The template side of the emulated AWS (lib/emulator/aws): intrinsic functions as CloudFormation documents them
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/intrinsic-function-reference.html), creation
 * order, the schedule expressions the emulator runs, and the refusal of resource types it does not know.
 */
import { describe, expect, it } from '@jest/globals';
import { deployTemplate, UnsupportedResourceError } from '../../../lib/emulator/aws/deploy.js';
import { atMs, rateMs } from '../../../lib/emulator/aws/sources.js';
import {
  conditionsOf,
  creationOrder,
  IntrinsicError,
  parameterDefaults,
  references,
  resolve,
  type Physical,
} from '../../../lib/emulator/aws/template.js';

const ctx = {
  pseudo: { 'AWS::Region': 'us-east-1', 'AWS::AccountId': '123456789012', 'AWS::Partition': 'aws' },
  physical: new Map<string, Physical>([
    [
      'Bus',
      {
        ref: 'kruiseless-dev',
        attrs: { Arn: 'arn:aws:events:us-east-1:123456789012:event-bus/kruiseless-dev' },
      },
    ],
    ['Role', { ref: 'r', attrs: { Arn: 'arn:aws:iam::123456789012:role/r' } }],
  ]),
};

describe('resolve', () => {
  it('resolves Ref, Fn::GetAtt (both spellings), Fn::Sub (both forms) and Fn::Join, deep in objects and arrays', () => {
    expect(
      resolve(
        {
          a: { Ref: 'Bus' },
          b: [{ 'Fn::GetAtt': ['Bus', 'Arn'] }, { 'Fn::GetAtt': 'Role.Arn' }],
          c: { 'Fn::Sub': 'arn:${AWS::Partition}:x:${AWS::Region}:${AWS::AccountId}:${Bus}/${Role.Arn}' },
          d: { 'Fn::Sub': ['${Name}-${Bus}', { Name: { Ref: 'AWS::Region' } }] },
          e: { 'Fn::Join': ['/', ['x', { Ref: 'Bus' }]] },
          f: 7,
        },
        ctx,
      ),
    ).toEqual({
      a: 'kruiseless-dev',
      b: [
        'arn:aws:events:us-east-1:123456789012:event-bus/kruiseless-dev',
        'arn:aws:iam::123456789012:role/r',
      ],
      c: 'arn:aws:x:us-east-1:123456789012:kruiseless-dev/arn:aws:iam::123456789012:role/r',
      d: 'us-east-1-kruiseless-dev',
      e: 'x/kruiseless-dev',
      f: 7,
    });
  });

  it('refuses unknown references, unknown attributes and other functions', () => {
    expect(() => resolve({ Ref: 'Table' }, ctx)).toThrow(
      new IntrinsicError('reference to Table, which is not created (or not in the template)'),
    );
    expect(() => resolve({ 'Fn::GetAtt': ['Bus', 'Name'] }, ctx)).toThrow('Bus has no attribute Name here');
    expect(() => resolve({ 'Fn::GetAZs': '' }, ctx)).toThrow('Fn::GetAZs is not supported by the emulator');
    expect(() => resolve({ 'Fn::If': ['c', 1, 2] }, ctx)).toThrow(
      'condition c used, but the template has none',
    );
  });
});

describe('parameters and conditions', () => {
  // the shapes of serverless.yml's optional alarm topic and VPC settings
  const template = {
    Parameters: {
      AlarmTopicArn: { Type: 'String', Default: '' },
      VpcSubnetIds: { Type: 'CommaDelimitedList', Default: 'subnet-a,subnet-b' },
    },
    Conditions: {
      HasAlarmTopic: { 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'AlarmTopicArn' }, ''] }] },
      InVpc: { 'Fn::Not': [{ 'Fn::Equals': [{ 'Fn::Join': ['', { Ref: 'VpcSubnetIds' }] }, ''] }] },
      Both: { 'Fn::And': [{ Condition: 'HasAlarmTopic' }, { Condition: 'InVpc' }] },
      Either: { 'Fn::Or': [{ Condition: 'HasAlarmTopic' }, { Condition: 'InVpc' }] },
    },
    Resources: {},
  };
  const base = { ...ctx, parameters: parameterDefaults(template) };
  const full = { ...base, condition: conditionsOf(template, base) };

  it('reads parameter defaults (lists split) and evaluates conditions once each', () => {
    expect(base.parameters).toEqual({ AlarmTopicArn: '', VpcSubnetIds: ['subnet-a', 'subnet-b'] });
    expect(['HasAlarmTopic', 'InVpc', 'Both', 'Either'].map((c) => full.condition(c))).toEqual([
      false,
      true,
      false,
      true,
    ]);
  });

  it('drops what AWS::NoValue stands for, in objects and lists, and picks Fn::If branches', () => {
    expect(
      resolve(
        {
          AlarmActions: { 'Fn::If': ['HasAlarmTopic', [{ Ref: 'AlarmTopicArn' }], { Ref: 'AWS::NoValue' }] },
          VpcConfig: {
            'Fn::If': ['InVpc', { SubnetIds: { Ref: 'VpcSubnetIds' } }, { Ref: 'AWS::NoValue' }],
          },
          List: ['a', { 'Fn::If': ['Both', 'b', { Ref: 'AWS::NoValue' }] }],
          First: { 'Fn::Select': [0, { 'Fn::Split': [',', 'x,y'] }] },
          Literal: { 'Fn::Sub': '${!Literal}-${AWS::Region}' },
        },
        full,
      ),
    ).toEqual({
      VpcConfig: { SubnetIds: ['subnet-a', 'subnet-b'] },
      List: ['a'],
      First: 'x',
      Literal: '${Literal}-us-east-1',
    });
  });

  it('refuses unknown conditions and cycles', () => {
    expect(() => full.condition('Nope')).toThrow('condition Nope is not in the template');
    const cyclic = {
      Conditions: { A: { Condition: 'B' }, B: { 'Fn::Not': [{ Condition: 'A' }] } },
      Resources: {},
    };
    expect(() => conditionsOf(cyclic, ctx)('A')).toThrow('condition cycle through A');
  });
});

describe('creationOrder', () => {
  it('puts every resource after what it refers to or DependsOn, pseudo parameters aside', () => {
    const template = {
      Resources: {
        Fn: { Type: 'T', Properties: { Role: { 'Fn::Sub': '${Role.Arn}' }, B: { Ref: 'AWS::Region' } } },
        Rule: { Type: 'T', Properties: { Target: { 'Fn::GetAtt': ['Fn', 'Arn'] } }, DependsOn: 'Bus' },
        Role: { Type: 'T' },
        Bus: { Type: 'T' },
      },
    };
    expect(references(template.Resources.Fn.Properties)).toEqual(new Set(['Role']));
    expect(creationOrder(template)).toEqual(['Role', 'Fn', 'Bus', 'Rule']);
  });

  it('refuses a cycle', () => {
    expect(() =>
      creationOrder({
        Resources: { A: { Type: 'T', Properties: { x: { Ref: 'B' } } }, B: { Type: 'T', DependsOn: ['A'] } },
      }),
    ).toThrow('reference cycle through A');
  });
});

describe('schedule expressions', () => {
  it('runs rate() rules and fires at() schedules in UTC only', () => {
    expect([rateMs('rate(1 minute)'), rateMs('rate(5 minutes)'), rateMs('rate(2 hours)')]).toEqual([
      60_000, 300_000, 7_200_000,
    ]);
    expect(() => rateMs('cron(0 12 * * ? *)')).toThrow(
      'schedule expression cron(0 12 * * ? *) is not emulated',
    );
    expect(atMs('at(2026-12-01T06:30:00)')).toBe(Date.UTC(2026, 11, 1, 6, 30, 0));
    expect(atMs('at(2026-12-01T06:30:00)', 'Europe/Paris')).toBeUndefined();
    expect(atMs('rate(1 minute)')).toBeUndefined();
  });
});

describe('deployTemplate', () => {
  it('refuses a resource type it neither creates nor skips before calling anything', async () => {
    await expect(
      deployTemplate({
        ep: {
          url: 'http://127.0.0.1:1',
          region: 'us-east-1',
          credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
        },
        template: {
          Resources: { Table: { Type: 'AWS::DynamoDB::Table' }, Api: { Type: 'AWS::ApiGateway::RestApi' } },
        },
        artifactDir: '.serverless',
        stackName: 's',
      }),
    ).rejects.toThrow(UnsupportedResourceError);
  });

  it('creates nothing for a resource whose condition is false, and says why', async () => {
    const stack = await deployTemplate({
      ep: {
        url: 'http://127.0.0.1:1',
        region: 'us-east-1',
        credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      },
      template: {
        Conditions: { Never: { 'Fn::Equals': ['a', 'b'] } },
        Resources: { Queue: { Type: 'AWS::SQS::Queue', Condition: 'Never' } },
      },
      artifactDir: '.serverless',
      stackName: 's',
    });
    expect(stack.skipped).toEqual([
      { id: 'Queue', type: 'AWS::SQS::Queue', why: 'condition Never is false' },
    ]);
    expect(stack.physical.size).toBe(0);
  });

  it('skips the provisioned-concurrency alias of a template packaged with admissionProvisionedConcurrency, and says why', async () => {
    const stack = await deployTemplate({
      ep: {
        url: 'http://127.0.0.1:1',
        region: 'us-east-1',
        credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      },
      template: {
        Resources: {
          AdmissionProvConcLambdaAlias: {
            Type: 'AWS::Lambda::Alias',
            Properties: {
              Name: 'provisioned',
              ProvisionedConcurrencyConfig: { ProvisionedConcurrentExecutions: 2 },
            },
          },
        },
      },
      artifactDir: '.serverless',
      stackName: 's',
    });
    expect(stack.skipped).toEqual([
      {
        id: 'AdmissionProvConcLambdaAlias',
        type: 'AWS::Lambda::Alias',
        why: '$LATEST is invoked (provisioned concurrency, the one alias the template may have, is not emulated)',
      },
    ]);
  });
});
