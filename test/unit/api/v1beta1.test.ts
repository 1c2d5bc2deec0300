import type { CloneSet } from '../../../lib/api/types.js';
import type { CloneSetV1beta1 } from '../../../lib/api/v1beta1.js';
import { fromV1beta1, toV1beta1 } from '../../../lib/controllers/cloneset/api/versionMapping.js';

const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c' }] } };
const base = (us: CloneSet['spec']['updateStrategy'], extra: Partial<CloneSet> = {}): CloneSet => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'cs' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'a' } },
    template,
    updateStrategy: us,
    scaleStrategy: { disablePVCReuse: true, podsToDelete: ['p'] },
  },
  ...extra,
});

describe('v1alpha1 → v1beta1 (docs/behaviour/cloneset.md#v1beta1-mapping)', () => {
  test.each<[string, CloneSet['spec']['updateStrategy'], string]>([
    ['ReCreate', { type: 'ReCreate' }, 'ReCreate'],
    ['InPlaceIfPossible', { type: 'InPlaceIfPossible' }, 'InPlaceIfPossible'],
    ['InPlaceOnly', { type: 'InPlaceOnly' }, 'InPlaceOnly'],
    ['unknown type', { type: 'Other' as 'ReCreate' }, 'ReCreate'],
  ])('%s becomes RollingUpdate with that podUpdatePolicy', (_n, us, policy) => {
    const out = toV1beta1(base(us));
    expect(out.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: policy },
    });
    expect(out.apiVersion).toBe('apps.kruise.io/v1beta1');
  });

  test('OnDelete has no rolling-update block', () => {
    expect(toV1beta1(base({ type: 'OnDelete', partition: 1 })).spec.updateStrategy).toEqual({
      type: 'OnDelete',
    });
  });

  test('rolling fields move under rollingUpdate; PVC reuse inverts; exclude label and pre-download annotations convert', () => {
    const cs = base(
      {
        type: 'InPlaceIfPossible',
        partition: '50%',
        maxUnavailable: 1,
        maxSurge: 0,
        paused: true,
        priorityStrategy: { orderPriority: [{ orderedKey: 'k' }] },
        scatterStrategy: [{ key: 'z', value: '1' }],
        inPlaceUpdateStrategy: { gracePeriodSeconds: 5 },
      },
      {
        metadata: {
          name: 'cs',
          labels: { 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete': 'true' },
          annotations: {
            'apps.kruise.io/image-predownload-parallelism': '3',
            'apps.kruise.io/image-predownload-timeout-seconds': '600',
            'apps.kruise.io/image-predownload-min-updated-ready-pods': 'x',
          },
        },
      },
    );
    const out = toV1beta1(cs);
    expect(out.spec.scaleStrategy).toEqual({
      // enablePVCReuse false is omitted, as Go's omitempty writes it (OpenKruise's /convert golden answers)
      podsToDelete: ['p'],
      excludePreparingDelete: true,
    });
    expect(out.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: '50%',
        maxUnavailable: 1,
        maxSurge: 0,
        podUpdatePolicy: 'InPlaceIfPossible',
        paused: true,
        priorityStrategy: { orderPriority: [{ orderedKey: 'k' }] },
        scatterStrategy: [{ key: 'z', value: '1' }],
        inPlaceUpdateStrategy: {
          gracePeriodSeconds: 5,
          imagePreDownloadParallelism: 3,
          imagePreDownloadTimeoutSeconds: 600,
        },
      },
    });
    expect(out.spec.template).toEqual(template);
  });

  test('a percent parallelism annotation stays a string', () => {
    const cs = base(
      { type: 'ReCreate' },
      { metadata: { name: 'cs', annotations: { 'apps.kruise.io/image-predownload-parallelism': '50%' } } },
    );
    expect(toV1beta1(cs).spec.updateStrategy?.rollingUpdate?.inPlaceUpdateStrategy).toEqual({
      imagePreDownloadParallelism: '50%',
    });
  });
});

describe('v1beta1 → v1alpha1 (docs/behaviour/cloneset.md#v1beta1-mapping)', () => {
  const beta = (us: CloneSetV1beta1['spec']['updateStrategy']): CloneSetV1beta1 => ({
    kind: 'CloneSet',
    metadata: { name: 'cs' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'a' } },
      template,
      updateStrategy: us,
      scaleStrategy: { enablePVCReuse: true, excludePreparingDelete: true },
    },
    status: {
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      updatedReplicas: 1,
      updatedReadyReplicas: 1,
    },
  });

  test.each<[string, CloneSetV1beta1['spec']['updateStrategy'], string]>([
    ['OnDelete', { type: 'OnDelete' }, 'OnDelete'],
    ['RollingUpdate without block', { type: 'RollingUpdate' }, 'ReCreate'],
    [
      'InPlaceOnly policy',
      { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } },
      'InPlaceOnly',
    ],
    [
      'InPlaceIfPossible policy',
      { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
      'InPlaceIfPossible',
    ],
    ['empty policy', { rollingUpdate: {} }, 'ReCreate'],
  ])('%s → type %s', (_n, us, type) => {
    expect(fromV1beta1(beta(us)).spec.updateStrategy?.type).toBe(type);
  });

  test('pre-download fields become annotations; excludePreparingDelete is dropped; status is kept', () => {
    const out = fromV1beta1(
      beta({
        type: 'RollingUpdate',
        rollingUpdate: {
          partition: 1,
          paused: true,
          scatterStrategy: [{ key: 'k', value: 'v' }],
          inPlaceUpdateStrategy: {
            gracePeriodSeconds: 0,
            imagePreDownloadParallelism: '50%',
            imagePreDownloadMinUpdatedReadyPods: 2,
          },
        },
      }),
    );
    expect(out.spec.updateStrategy).toEqual({
      type: 'ReCreate',
      partition: 1,
      paused: true,
      scatterStrategy: [{ key: 'k', value: 'v' }],
      // a zero grace period is omitted (Go's omitempty), the strategy itself kept for its pre-download content
      inPlaceUpdateStrategy: {},
    });
    expect(out.metadata.annotations).toEqual({
      'apps.kruise.io/image-predownload-parallelism': '50%',
      'apps.kruise.io/image-predownload-min-updated-ready-pods': '2',
    });
    expect(out.spec.scaleStrategy).toEqual({}); // disablePVCReuse false omitted (Go's omitempty)
    expect(out.status?.replicas).toBe(1);
  });

  test('an empty in-place strategy is dropped', () => {
    const out = fromV1beta1(beta({ rollingUpdate: { inPlaceUpdateStrategy: {} } }));
    expect(out.spec.updateStrategy?.inPlaceUpdateStrategy).toBeUndefined();
  });

  test('a v1alpha1 object survives a round trip', () => {
    const cs = base({
      type: 'InPlaceOnly',
      partition: 1,
      maxUnavailable: '20%',
      maxSurge: 0,
      inPlaceUpdateStrategy: { gracePeriodSeconds: 3 },
    });
    expect(fromV1beta1(toV1beta1(cs))).toEqual(cs);
  });
});
