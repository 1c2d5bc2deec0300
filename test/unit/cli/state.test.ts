import { describe, expect, it } from '@jest/globals';
import { openState } from '../../../lib/cli/connect.js';
import { CliError } from '../../../lib/cli/io.js';

// A new user ran `kruiseless plan <cs> --table kruiseless-dev` and got
// "DynamoDB ledger.get (GetItem) … failed: Error: Region is missing" from the AWS SDK.
describe('openState', () => {
  const noAws = { HOME: '/nonexistent-home', AWS_CONFIG_FILE: '/nonexistent-home/.aws/config' };

  it('is undefined without a table', () => {
    expect(openState({}, noAws)).toBeUndefined();
  });

  it('refuses a table without any region, saying how to give one', () => {
    expect(() => openState({ table: 'kruiseless-dev' }, noAws)).toThrow(
      new CliError(
        '--table kruiseless-dev needs its AWS region: pass --region (or set AWS_REGION), or --dynamodb-endpoint for a local table',
      ),
    );
  });

  it.each([
    ['--region', { table: 't', region: 'eu-west-1' }, noAws],
    ['AWS_REGION', { table: 't' }, { ...noAws, AWS_REGION: 'eu-west-1' }],
    ['--dynamodb-endpoint', { table: 't', dynamodbEndpoint: 'http://127.0.0.1:1' }, noAws],
  ])('opens the table with %s', (_what, opts, env) => {
    expect(openState(opts, env)?.table).toBe('t');
  });
});
