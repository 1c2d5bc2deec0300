/**
 * The deployment's settings: the Lambda environment serverless.yml writes, and OpenKruise's feature gates and
 * controller flag read from it into planner options.
 */
import { describe, expect, it } from '@jest/globals';
import { ConfigError, controllerSettings, loadConfig } from '../../../lib/runtime/config.js';

const ENV = {
  TABLE_NAME: 'kruiseless-dev',
  EVENT_BUS_NAME: 'kruiseless-dev',
  EVENT_BUS_ARN: 'arn:aws:events:us-east-1:111122223333:event-bus/kruiseless-dev',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::111122223333:role/scheduler',
};

describe('loadConfig', () => {
  it('defaults the gates to none, the flag to false and the write concurrency to 16', () => {
    expect(loadConfig(ENV)).toEqual({
      ...ENV,
      SCHEDULER_GROUP_NAME: 'default',
      KRUISELESS_FEATURE_GATES: '',
      KRUISELESS_SCALING_EXCLUDE_PREPARING_DELETE: 'false',
      KRUISELESS_WRITE_CONCURRENCY: 16,
    });
  });

  it('reads the write concurrency as a whole number from 1 to 256', () => {
    expect(loadConfig({ ...ENV, KRUISELESS_WRITE_CONCURRENCY: '1' }).KRUISELESS_WRITE_CONCURRENCY).toBe(1);
    expect(() => loadConfig({ ...ENV, KRUISELESS_WRITE_CONCURRENCY: '0' })).toThrow(
      new ConfigError(
        'invalid Lambda environment: KRUISELESS_WRITE_CONCURRENCY: Too small: expected number to be >=1',
      ),
    );
    expect(() => loadConfig({ ...ENV, KRUISELESS_WRITE_CONCURRENCY: 'many' })).toThrow(ConfigError);
  });

  it('names every missing or malformed variable', () => {
    expect(() =>
      loadConfig({ ...ENV, EVENT_BUS_ARN: 'bus', KRUISELESS_SCALING_EXCLUDE_PREPARING_DELETE: 'yes' }),
    ).toThrow(
      new ConfigError(
        'invalid Lambda environment: EVENT_BUS_ARN: Invalid string: must start with "arn:"; ' +
          'KRUISELESS_SCALING_EXCLUDE_PREPARING_DELETE: Invalid option: expected one of "true"|"false"',
      ),
    );
  });
});

describe('controllerSettings', () => {
  it('turns gates and the flag into planner options and reports the gates it ignores', () => {
    expect(controllerSettings('CloneSetPartitionRollback=true,KruiseDaemon=false', true)).toEqual({
      plannerOptions: { cloneSetPartitionRollback: true, scalingExcludePreparingDelete: true },
      ignoredGates: ['KruiseDaemon'],
    });
  });

  it('sets nothing for the defaults', () => {
    expect(controllerSettings('', false)).toEqual({ plannerOptions: {}, ignoredGates: [] });
  });

  it('refuses a malformed gate list as a deployment error', () => {
    expect(() => controllerSettings('CloneSetShortHash=maybe', false)).toThrow(
      new ConfigError('invalid feature gates: CloneSetShortHash: "maybe" is not a boolean'),
    );
  });
});
