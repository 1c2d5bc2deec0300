/**
 * The deployment's settings: the Lambda environment serverless.yml writes, and OpenKruise's feature gates and
 * controller flag read from it into planner options.
 */
import { describe, expect, it } from '@jest/globals';
import { ConfigError, backoffSettings, controllerSettings, loadConfig } from '../../../lib/runtime/config.js';

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
      KRUISELESS_BACKOFF_BASE_SECONDS: 1,
      KRUISELESS_BACKOFF_MAX_SECONDS: 1000,
      KRUISELESS_REQUEST_TIMEOUT_SECONDS: 20,
      KRUISELESS_ALLOW_NON_EKS_ENDPOINTS: 'false',
      KRUISELESS_WATCH_HTTP2: 'true',
    });
  });

  it('reads the watch transport switch as true/false', () => {
    expect(loadConfig({ ...ENV, KRUISELESS_WATCH_HTTP2: 'false' }).KRUISELESS_WATCH_HTTP2).toBe('false');
    expect(() => loadConfig({ ...ENV, KRUISELESS_WATCH_HTTP2: 'no' })).toThrow(ConfigError);
  });

  it('reads the request timeout as seconds up to 60 and the non-EKS endpoint switch as true/false', () => {
    expect(
      loadConfig({
        ...ENV,
        KRUISELESS_REQUEST_TIMEOUT_SECONDS: '5',
        KRUISELESS_ALLOW_NON_EKS_ENDPOINTS: 'true',
      }),
    ).toMatchObject({ KRUISELESS_REQUEST_TIMEOUT_SECONDS: 5, KRUISELESS_ALLOW_NON_EKS_ENDPOINTS: 'true' });
    expect(() => loadConfig({ ...ENV, KRUISELESS_REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...ENV, KRUISELESS_REQUEST_TIMEOUT_SECONDS: '120' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...ENV, KRUISELESS_ALLOW_NON_EKS_ENDPOINTS: 'yes' })).toThrow(ConfigError);
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

  it('reads the backoff numbers as seconds and refuses ones that are not positive numbers', () => {
    const env = { ...ENV, KRUISELESS_BACKOFF_BASE_SECONDS: '0.5', KRUISELESS_BACKOFF_MAX_SECONDS: '300' };
    expect(loadConfig(env)).toMatchObject({
      KRUISELESS_BACKOFF_BASE_SECONDS: 0.5,
      KRUISELESS_BACKOFF_MAX_SECONDS: 300,
    });
    expect(() => loadConfig({ ...ENV, KRUISELESS_BACKOFF_BASE_SECONDS: 'soon' })).toThrow(
      new ConfigError(
        'invalid Lambda environment: KRUISELESS_BACKOFF_BASE_SECONDS: Invalid input: expected number, received NaN',
      ),
    );
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
    expect(
      controllerSettings('CloneSetPartitionRollback=true,PodWebhook=false', {
        'cloneset-scaling-exclude-preparing-delete': true,
      }),
    ).toEqual({
      settings: {
        broadcastjob: {},
        // PodWebhook off turns off the gates that need the pod webhook (OpenKruise's SetDefaultFeatureGates)
        sidecarset: { patchMetadataDefaultsAllowed: false },
        advancedcronjob: {},
        daemonset: {},
        podunavailablebudget: { deleteGate: false, updateGate: false },
        workloadspread: { gate: false },
        pod: { kruisePodReadinessGate: false },
        cloneset: {
          cloneSetPartitionRollback: true,
          pubUpdateGate: false,
          scalingExcludePreparingDelete: true,
        },
        statefulset: {},
      },
      ignoredGates: [],
    });
  });

  it('reads the PodUnavailableBudget gates', () => {
    expect(
      controllerSettings('PodUnavailableBudgetDeleteGate=false,PodUnavailableBudgetUpdateGate=true', {})
        .settings.podunavailablebudget,
    ).toEqual({ deleteGate: false, updateGate: true });
  });

  it('sets nothing for the defaults', () => {
    expect(controllerSettings('', {})).toEqual({
      settings: {
        broadcastjob: {},
        advancedcronjob: {},
        cloneset: {},
        daemonset: {},
        podunavailablebudget: {},
        workloadspread: {},
        pod: {},
        sidecarset: {},
        statefulset: {},
      },
      ignoredGates: [],
    });
  });

  it('reads KruisePodReadinessGate into the pod registration (the pod webhook), no longer ignored', () => {
    expect(controllerSettings('KruisePodReadinessGate=true,NoSuchGate=true', {})).toMatchObject({
      settings: { pod: { kruisePodReadinessGate: true } },
      ignoredGates: ['NoSuchGate'],
    });
    expect(controllerSettings('AllAlpha=true', {}).settings.pod).toEqual({ kruisePodReadinessGate: true });
    // PodWebhook off turns it off (OpenKruise's SetDefaultFeatureGates)
    expect(controllerSettings('KruisePodReadinessGate=true,PodWebhook=false', {}).settings.pod).toEqual({
      kruisePodReadinessGate: false,
    });
  });

  it('refuses a malformed gate list as a deployment error', () => {
    expect(() => controllerSettings('CloneSetShortHash=maybe', {})).toThrow(
      new ConfigError('invalid feature gates: CloneSetShortHash: "maybe" is not a boolean'),
    );
  });
});

describe('backoffSettings', () => {
  it('passes a valid schedule through', () => {
    expect(backoffSettings(0.005, 1000)).toEqual({ baseSeconds: 0.005, maxSeconds: 1000 });
  });

  it('refuses a cap below the base as a deployment error', () => {
    expect(() => backoffSettings(10, 5)).toThrow(
      new ConfigError('backoff max must be a number of seconds ≥ the base (10), got 5'),
    );
  });
});

describe('controllerSettings: Advanced StatefulSet gates', () => {
  it('sets the statefulset planner options its gates name, and CloneSet ignores them', () => {
    expect(controllerSettings('StatefulSetStartOrdinal=true,StatefulSetAutoDeletePVC=false', {})).toEqual({
      settings: {
        broadcastjob: {},
        sidecarset: {},
        advancedcronjob: {},
        daemonset: {},
        podunavailablebudget: {},
        workloadspread: {},
        pod: {},
        cloneset: {},
        statefulset: { statefulSetStartOrdinal: true, statefulSetAutoDeletePVC: false },
      },
      ignoredGates: [],
    });
  });
});
