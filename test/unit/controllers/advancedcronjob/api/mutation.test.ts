/**
 * lib/controllers/advancedcronjob/api/mutation.ts through lib/api/admission/mutation.ts: the JSON Patch an
 * AdmissionReview for a v1beta1 AdvancedCronJob gets, as OpenKruise v1.9.0's
 * `pkg/webhook/advancedcronjob/mutating` stores it (`SetDefaultsAdvancedCronJob`, the templates' pod-spec defaults on
 * CREATE or a template change unless `TemplateNoDefaults`), and the mutators registered under the gates.
 */
import { describe, expect, it } from '@jest/globals';
import { handleMutationReview, type Mutator } from '../../../../../lib/api/admission/mutation.js';
import { advancedCronJobMutator } from '../../../../../lib/controllers/advancedcronjob/api/mutation.js';
import { admissionMutators } from '../../../../../lib/controllers/mutations.js';
import { reviewBody } from '../../../support/admissionReview.js';

const podTemplate = { spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], restartPolicy: 'Never' } };
const acj = (spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'AdvancedCronJob',
  metadata: { name: 'a', namespace: 'ns' },
  spec: { schedule: '*/1 * * * *', template: { jobTemplate: { spec: { template: podTemplate } } }, ...spec },
});
const review = (operation: string, object: unknown, oldObject?: unknown) =>
  reviewBody({
    uid: 'u-1',
    resource: { group: 'apps.kruise.io', version: 'v1beta1', resource: 'advancedcronjobs' },
    operation,
    object,
    ...(oldObject ? { oldObject } : {}),
  });
type Op = { op: string; path: string; value?: unknown };
const patchOf = (body: string, mutator: Mutator = advancedCronJobMutator()): Op[] => {
  const { statusCode, review: r } = handleMutationReview(body, [mutator]);
  expect(statusCode).toBe(200);
  expect(r.response).toMatchObject({ uid: 'u-1', allowed: true });
  return r.response.patch
    ? (JSON.parse(Buffer.from(r.response.patch, 'base64').toString('utf8')) as Op[])
    : [];
};
const paths = (ops: Op[]) => ops.map((o) => o.path).sort();
/** The spec defaults, and the templates as Go's round trip writes them back (none of their defaults). */
const specDefaults = [
  '/spec/concurrencyPolicy',
  '/spec/failedJobsHistoryLimit',
  '/spec/paused',
  '/spec/successfulJobsHistoryLimit',
  '/spec/template/jobTemplate/metadata',
  '/spec/template/jobTemplate/spec/template/metadata',
  '/spec/template/jobTemplate/spec/template/spec/containers/0/resources',
];

describe('the AdvancedCronJob mutator', () => {
  it("CREATE: the four spec defaults and the job template's pod-spec defaults", () => {
    const ops = patchOf(review('CREATE', acj()));
    const byPath = Object.fromEntries(ops.map((o) => [o.path, o.value]));
    expect(byPath).toMatchObject({
      '/spec/concurrencyPolicy': 'Allow',
      '/spec/paused': false,
      '/spec/successfulJobsHistoryLimit': 3,
      '/spec/failedJobsHistoryLimit': 1,
      '/spec/template/jobTemplate/spec/template/spec/containers/0/imagePullPolicy': 'Always',
      '/spec/template/jobTemplate/spec/template/spec/dnsPolicy': 'ClusterFirst',
    });
  });

  it('a broadcastJobTemplate is defaulted the same way', () => {
    const ops = patchOf(
      review('CREATE', acj({ template: { broadcastJobTemplate: { spec: { template: podTemplate } } } })),
    );
    expect(paths(ops)).toContain(
      '/spec/template/broadcastJobTemplate/spec/template/spec/containers/0/imagePullPolicy',
    );
  });

  it('UPDATE without a template change, or under TemplateNoDefaults: the spec defaults, no template default', () => {
    expect(paths(patchOf(review('UPDATE', acj({ schedule: '@hourly' }), acj())))).toEqual(specDefaults);
    expect(
      paths(patchOf(review('CREATE', acj()), advancedCronJobMutator({ templateNoDefaults: true }))),
    ).toEqual(specDefaults);
  });

  it('a fully defaulted object gets no patch', () => {
    const full = acj({
      concurrencyPolicy: 'Forbid',
      paused: false,
      successfulJobsHistoryLimit: 0,
      failedJobsHistoryLimit: 0,
    });
    expect(patchOf(review('UPDATE', full, full))).toEqual([]);
  });

  it("admissionMutators passes each controller's TemplateNoDefaults to its mutator", () => {
    const body = review('CREATE', acj());
    const under = (settings: Record<string, unknown>) => {
      const { review: r } = handleMutationReview(body, admissionMutators(settings));
      return paths(
        JSON.parse(Buffer.from(r.response.patch ?? '', 'base64').toString('utf8') || '[]') as Op[],
      );
    };
    expect(under({ advancedcronjob: { templateNoDefaults: true } })).toEqual(specDefaults);
    expect(under({}).length).toBeGreaterThan(specDefaults.length);
  });
});
