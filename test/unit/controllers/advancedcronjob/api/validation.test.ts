/**
 * lib/controllers/advancedcronjob/api/validation.ts: what OpenKruise v1.9.0's validating webhook for
 * AdvancedCronJobs (`validateAdvancedCronJobSpec`) refuses, with its paths and messages.
 */
import { describe, expect, it } from '@jest/globals';
import { withDefaults } from '../../../../../lib/controllers/advancedcronjob/api/defaults.js';
import type { AdvancedCronJob } from '../../../../../lib/controllers/advancedcronjob/api/types.js';
import { validateAdvancedCronJob } from '../../../../../lib/controllers/advancedcronjob/api/validation.js';

const podTemplate = { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } };
const acj = (spec: Partial<AdvancedCronJob['spec']> = {}, name = 'hello'): AdvancedCronJob =>
  withDefaults({
    metadata: { name, namespace: 'ns' },
    spec: {
      schedule: '*/5 * * * *',
      template: { jobTemplate: { spec: { template: podTemplate } } },
      ...spec,
    },
  });
const errors = (a: AdvancedCronJob) => validateAdvancedCronJob(a).map((e) => `${e.path}: ${e.message}`);

describe('validateAdvancedCronJob', () => {
  it('takes a job template, a BroadcastJob template, @every, a TZ prefix, an IANA timeZone', () => {
    expect(errors(acj())).toEqual([]);
    expect(errors(acj({ template: { broadcastJobTemplate: { spec: { template: podTemplate } } } }))).toEqual(
      [],
    );
    expect(errors(acj({ schedule: '@every 90s' }))).toEqual([]);
    expect(errors(acj({ schedule: 'CRON_TZ=Asia/Shanghai 0 8 * * *' }))).toEqual([]);
    expect(errors(acj({ timeZone: 'Europe/Berlin' }))).toEqual([]);
  });

  it('refuses an empty or unparsable schedule with robfig’s words, and a TZ prefix beside timeZone', () => {
    expect(errors(acj({ schedule: '' }))).toEqual([
      'spec.schedule: Invalid value: "": schedule cannot be empty, please provide valid cron schedule.',
      'spec.schedule: Invalid value: "": empty spec string',
    ]);
    expect(errors(acj({ schedule: '61 * * * *' }))).toEqual([
      'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
    ]);
    expect(errors(acj({ schedule: 'TZ=UTC * * * * *', timeZone: 'UTC' }))).toEqual([
      'spec.schedule: Invalid value: "TZ=UTC * * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
    ]);
  });

  it('refuses an empty, Local or unknown timeZone', () => {
    expect(errors(acj({ timeZone: '' }))).toEqual([
      'spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string',
    ]);
    expect(errors(acj({ timeZone: 'Local' }))).toEqual([
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ]);
    expect(errors(acj({ timeZone: 'local' }))).toEqual([
      'spec.timeZone: Invalid value: "local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      'spec.timeZone: Invalid value: "local": unknown time zone local',
    ]);
  });

  it('refuses no template, two templates, an ImageListPullJob template under Allow, negative numbers, a bad name', () => {
    expect(errors(acj({ template: {} }))).toEqual([
      'spec.template: Forbidden: spec must have one template, either JobTemplate or BroadcastJobTemplate or ImageListPullJobTemplate should be provided',
    ]);
    expect(
      errors(
        acj({
          template: {
            jobTemplate: { spec: { template: podTemplate } },
            imageListPullJobTemplate: { spec: {} },
          },
          concurrencyPolicy: 'Allow',
        }),
      ),
    ).toEqual([
      'spec.spec.concurrencyPolicy: Invalid value: "Allow": concurrencyPolicy should be Replace or Forbid, but current value is: Allow',
      'spec.template: Forbidden: spec can have only one template, either JobTemplate or BroadcastJobTemplate or ImageListPullJobTemplate should be provided',
    ]);
    expect(
      errors(
        acj({ startingDeadlineSeconds: -1, successfulJobsHistoryLimit: -2, failedJobsHistoryLimit: -3 }),
      ),
    ).toEqual([
      'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.successfulJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
      'spec.failedJobsHistoryLimit: Invalid value: -3: must be greater than or equal to 0',
    ]);
    expect(errors(acj({}, 'hello.world'))).toEqual([
      `metadata.name: Invalid value: "hello.world": AdvancedCronJob name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')`,
    ]);
  });
});
