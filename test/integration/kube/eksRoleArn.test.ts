/**
 * A cluster registered with `roleArn` (cross-account): the token is signed with the credentials of the assumed
 * role (lib/kube/config.ts `signEksToken`, STS AssumeRole), here against moto's STS, which then names the assumed
 * role as the caller of the token's GetCallerIdentity, as EKS's authenticator would (lib/emulator/aws/eksAuthProxy.ts
 * asks the same question). serverless.yml grants the AssumeRole through the `clusterRoleArns` parameter. Skipped,
 * with the reason printed, only when moto cannot be installed.
 */
import { sts } from '../../../lib/emulator/aws/awsCall.js';
import type { LocalDynamo } from '../../../lib/emulator/localDynamo.js';
import { startMoto } from '../../../lib/emulator/moto.js';
import { signEksToken } from '../../../lib/kube/config.js';
import { EKS_TOKEN_PREFIX } from '../../../lib/kube/eksToken.js';
import { motoSuite } from '../support/moto.js';

const describeIfMoto = motoSuite('test/integration/kube/eksRoleArn.test.ts');

const ROLE = 'arn:aws:iam::123456789012:role/kruiseless-access';
const ENV = [
  'AWS_ENDPOINT_URL',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_REGION',
];

describeIfMoto('signEksToken with roleArn', () => {
  let moto: LocalDynamo | undefined;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    moto = await startMoto();
    for (const k of ENV) saved[k] = process.env[k];
    Object.assign(process.env, {
      AWS_ENDPOINT_URL: moto.endpoint,
      AWS_ACCESS_KEY_ID: 'AKIDLAMBDAROLE000000',
      AWS_SECRET_ACCESS_KEY: 'lambda-role-secret',
      AWS_REGION: 'us-east-1',
    });
    delete process.env.AWS_SESSION_TOKEN;
  }, 60_000);

  afterAll(async () => {
    for (const k of ENV)
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    await moto?.close();
  });

  test('signs with the assumed role, whom STS then names as the caller of the token', async () => {
    const { token } = await signEksToken({
      type: 'eks',
      clusterName: 'prod',
      region: 'us-east-1',
      roleArn: ROLE,
    });
    const url = new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString('utf8'));
    const accessKeyId = (url.searchParams.get('X-Amz-Credential') ?? '').split('/')[0];
    expect(accessKeyId).not.toBe('AKIDLAMBDAROLE000000');
    expect(url.searchParams.get('X-Amz-Security-Token')).toBeTruthy();
    const who = await sts(
      {
        url: moto!.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId, secretAccessKey: 'unchecked' },
      },
      'GetCallerIdentity',
      {},
    );
    expect(who.Arn).toBe('arn:aws:sts::123456789012:assumed-role/kruiseless-access/kruiseless');
  });

  test('without roleArn signs with the function role itself', async () => {
    const { token } = await signEksToken({ type: 'eks', clusterName: 'prod', region: 'us-east-1' });
    const url = new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString('utf8'));
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDLAMBDAROLE000000\//);
  });
});
