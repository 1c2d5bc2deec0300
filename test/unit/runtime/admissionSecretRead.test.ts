/**
 * The admission function's read of its SSM parameter through the AWS runtime (lib/runtime/aws.ts; review finding 7):
 * a read that fails is retried with backoff and never kept, so one throttled GetParameter on a cold start does not
 * turn the container's every later call into a failure.
 */
import { describe, expect, it } from '@jest/globals';
import { awsRuntimeWith } from '../../../lib/runtime/aws.js';

const ENV = {
  TABLE_NAME: 'kruiseless-test',
  EVENT_BUS_NAME: 'kruiseless-test',
  EVENT_BUS_ARN: 'arn:aws:events:eu-west-1:111122223333:event-bus/kruiseless-test',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::111122223333:role/scheduler',
  ADMISSION_SECRET_PARAM: '/kruiseless/test/admission-path-secret',
  AWS_REGION: 'eu-west-1',
};

describe('the AWS runtime reads the admission secret', () => {
  it('retries a failed GetParameter and does not keep the failure: one throttle, then the value', async () => {
    Object.assign(process.env, ENV);
    const reads: string[] = [];
    let failures = 1;
    const runtime = awsRuntimeWith({
      readParameter: async (name) => {
        reads.push(name);
        if (failures-- > 0) throw new Error('ThrottlingException: Rate exceeded');
        return 'master';
      },
    })();
    expect(await runtime.admissionSecret()).toBe('master');
    expect(await runtime.admissionSecret()).toBe('master');
    // the value is kept once read: two reads in all, the throttled one and the good one
    expect(reads).toEqual([ENV.ADMISSION_SECRET_PARAM, ENV.ADMISSION_SECRET_PARAM]);
  });
});
