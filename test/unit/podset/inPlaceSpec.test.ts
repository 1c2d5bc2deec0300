import { ANNOTATION_VCT_HASH } from '../../../lib/api/keys.js';
import type { ControllerRevision, PodTemplateSpec } from '../../../lib/api/types.js';
import {
  calculateInPlaceUpdateSpec,
  metadataTwoWayPatch,
  parseQuantity,
  podQosClass,
  type InPlaceSpecOptions,
} from '../../../lib/podset/inplace/spec.js';
import { revision } from '../support/fixtures.js';

const gates = {
  inPlaceUpdateEnvFromMetadata: true,
  inPlaceWorkloadVerticalScaling: false,
  recreatePodWhenChangeVCTInCloneSet: false,
};
const opts: InPlaceSpecOptions = { gracePeriodSeconds: 0, ignoreVolumeClaimTemplatesHashDiff: false, gates };

function t(image: string, meta: PodTemplateSpec['metadata'] = {}, env = false): PodTemplateSpec {
  return {
    metadata: meta,
    spec: {
      containers: [
        {
          name: 'c1',
          image,
          ...(env
            ? { env: [{ name: 'K', valueFrom: { fieldRef: { fieldPath: "metadata.labels['k']" } } }] }
            : {}),
        },
      ],
    },
  };
}
const rev = (name: string, tp: PodTemplateSpec): ControllerRevision => revision(name, tp);

describe('calculateInPlaceUpdateSpec (docs/behaviour/cloneset.md#in-place-update, scenario 55)', () => {
  it('(a) unknown old revision cannot be updated in place', () => {
    expect(calculateInPlaceUpdateSpec(undefined, rev('new', t('foo2')), opts)).toBeUndefined();
  });

  it('(b) image change records containerImages', () => {
    expect(calculateInPlaceUpdateSpec(rev('old', t('foo1')), rev('new', t('foo2')), opts)).toEqual({
      revision: 'new',
      containerImages: { c1: 'foo2' },
      containerRefMetadata: {},
      containerResources: {},
      updateEnvFromMetadata: false,
      graceSeconds: 0,
    });
  });

  it('(c) identical metadata gives the same spec as (b)', () => {
    const m = { labels: { a: 'b' } };
    const spec = calculateInPlaceUpdateSpec(rev('old', t('foo1', m)), rev('new', t('foo2', m)), opts);
    expect(spec?.metaDataPatch).toBeUndefined();
    expect(spec?.containerImages).toEqual({ c1: 'foo2' });
  });

  it('(d) an added template label becomes the metadata patch', () => {
    const spec = calculateInPlaceUpdateSpec(
      rev('old', t('foo1', { labels: { a: 'b' } })),
      rev('new', t('foo2', { labels: { a: 'b', k1: 'v1' } })),
      opts,
    );
    expect(spec?.metaDataPatch).toBe('{"metadata":{"labels":{"k1":"v1"}}}');
  });

  it('(e) a label read by env goes to containerRefMetadata, the rest to the patch', () => {
    const spec = calculateInPlaceUpdateSpec(
      rev('old', t('foo1', { labels: { k: 'v' } }, true)),
      rev('new', t('foo2', { labels: { k: 'v2', k1: 'v1' } }, true)),
      { ...opts, gracePeriodSeconds: 5 },
    );
    expect(spec).toEqual({
      revision: 'new',
      containerImages: { c1: 'foo2' },
      containerRefMetadata: { c1: { labels: { k: 'v2' } } },
      containerResources: {},
      updateEnvFromMetadata: true,
      metaDataPatch: '{"metadata":{"labels":{"k1":"v1"}}}',
      graceSeconds: 5,
    });
  });

  it('(e) without the env-from-metadata gate the referenced label is a plain metadata change', () => {
    const spec = calculateInPlaceUpdateSpec(
      rev('old', t('foo1', { labels: { k: 'v' } }, true)),
      rev('new', t('foo2', { labels: { k: 'v2' } }, true)),
      { ...opts, gates: { ...gates, inPlaceUpdateEnvFromMetadata: false } },
    );
    expect(spec?.updateEnvFromMetadata).toBe(false);
    expect(spec?.metaDataPatch).toBe('{"metadata":{"labels":{"k":"v2"}}}');
  });

  it('(f) label removal and finalizer removal use strategic-merge directives', () => {
    const spec = calculateInPlaceUpdateSpec(
      rev('old', t('foo1', { labels: { k: 'v', k2: 'v2' }, finalizers: ['fz1', 'fz2'] })),
      rev('new', t('foo2', { labels: { k: 'v', k1: 'v1' }, finalizers: ['fz2'] })),
      opts,
    );
    expect(spec?.metaDataPatch).toBe(
      '{"metadata":{"$deleteFromPrimitiveList/finalizers":["fz1"],"$setElementOrder/finalizers":["fz2"],"labels":{"k1":"v1","k2":null}}}',
    );
  });

  it('(g) an env added to the spec cannot be done in place', () => {
    const next = t('foo2');
    next.spec.containers[0].env = [{ name: 'A', value: 'b' }];
    expect(calculateInPlaceUpdateSpec(rev('old', t('foo1')), rev('new', next), opts)).toBeUndefined();
  });

  it('scenario 35: malformed revision data cannot be done in place', () => {
    const bad: ControllerRevision = { metadata: { name: 'new' }, revision: 2, data: 'not json' };
    expect(calculateInPlaceUpdateSpec(rev('old', t('foo1')), bad, opts)).toBeUndefined();
    const noTemplate: ControllerRevision = { metadata: { name: 'new' }, revision: 2, data: { spec: {} } };
    expect(calculateInPlaceUpdateSpec(noTemplate, noTemplate, opts)).toBeUndefined();
  });

  it('C31: annotation-only change is in place with an annotation patch', () => {
    const spec = calculateInPlaceUpdateSpec(
      rev('old', t('v1', { annotations: { 'example.io/note': 'a' } })),
      rev('new', t('v1', { labels: { tier: 'web' }, annotations: { 'example.io/note': 'b' } })),
      opts,
    );
    expect(spec?.containerImages).toEqual({});
    expect(spec?.metaDataPatch).toBe(
      '{"metadata":{"annotations":{"example.io/note":"b"},"labels":{"tier":"web"}}}',
    );
  });

  it('C32: an annotation read by env restarts the container, metadata patch is {}', () => {
    const mk = (v: string): PodTemplateSpec => ({
      metadata: { annotations: { 'example.io/restart-token': v } },
      spec: {
        containers: [
          {
            name: 'main',
            image: 'v1',
            env: [
              {
                name: 'RESTART_TOKEN',
                valueFrom: { fieldRef: { fieldPath: "metadata.annotations['example.io/restart-token']" } },
              },
            ],
          },
        ],
      },
    });
    const spec = calculateInPlaceUpdateSpec(rev('old', mk('1')), rev('new', mk('2')), opts);
    expect(spec?.containerRefMetadata).toEqual({
      main: { annotations: { 'example.io/restart-token': '2' } },
    });
    expect(spec?.updateEnvFromMetadata).toBe(true);
    expect(spec?.metaDataPatch).toBe('{}');
  });

  describe('VCT hash rule (gate RecreatePodWhenChangeVCTInCloneSetGate, C34)', () => {
    const withHash = (name: string, image: string, hash?: string) => {
      const r = rev(name, t(image));
      if (hash !== undefined) r.metadata.annotations = { [ANNOTATION_VCT_HASH]: hash };
      return r;
    };
    const on = { ...opts, gates: { ...gates, recreatePodWhenChangeVCTInCloneSet: true } };
    it('differing hashes force recreate', () => {
      expect(
        calculateInPlaceUpdateSpec(withHash('o', 'a', '1'), withHash('n', 'b', '2'), on),
      ).toBeUndefined();
    });
    it('InPlaceOnly ignores the hash', () => {
      const spec = calculateInPlaceUpdateSpec(withHash('o', 'a', '1'), withHash('n', 'b', '2'), {
        ...on,
        ignoreVolumeClaimTemplatesHashDiff: true,
      });
      expect(spec?.containerImages).toEqual({ c1: 'b' });
    });
    it('a missing hash or the gate off keeps in place', () => {
      expect(calculateInPlaceUpdateSpec(withHash('o', 'a'), withHash('n', 'b', '2'), on)).toBeDefined();
      expect(
        calculateInPlaceUpdateSpec(withHash('o', 'a', '1'), withHash('n', 'b', '2'), opts),
      ).toBeDefined();
    });
  });

  describe('vertical scaling (gate InPlaceWorkloadVerticalScaling, scenario 79)', () => {
    const res = (cpu: string, mem: string, lcpu = cpu, lmem = mem): PodTemplateSpec => ({
      metadata: {},
      spec: {
        containers: [
          {
            name: 'c1',
            image: 'a',
            resources: { requests: { cpu, memory: mem }, limits: { cpu: lcpu, memory: lmem } },
          },
        ],
      },
    });
    const on = { ...opts, gates: { ...gates, inPlaceWorkloadVerticalScaling: true } };
    it('cpu replace is in place when the QoS class is unchanged', () => {
      const spec = calculateInPlaceUpdateSpec(
        rev('o', res('1', '1Gi', '2', '2Gi')),
        rev('n', res('500m', '1Gi', '2', '2Gi')),
        on,
      );
      expect(spec?.containerResources).toEqual({ c1: { requests: { cpu: '500m' } } });
    });
    it('the QoS class changing forces recreate', () => {
      expect(
        calculateInPlaceUpdateSpec(rev('o', res('1', '1Gi', '2', '2Gi')), rev('n', res('2', '2Gi')), on),
      ).toBeUndefined();
    });
    it('without the gate a resources change is not in place', () => {
      expect(
        calculateInPlaceUpdateSpec(
          rev('o', res('1', '1Gi', '2', '2Gi')),
          rev('n', res('500m', '1Gi', '2', '2Gi')),
          opts,
        ),
      ).toBeUndefined();
    });
    it('adding resources to a container without any is not in place (add op)', () => {
      expect(calculateInPlaceUpdateSpec(rev('o', t('a')), rev('n', res('1', '1Gi')), on)).toBeUndefined();
    });
    it('other resource names or invalid quantities are not in place', () => {
      const a = res('1', '1Gi', '2', '2Gi');
      const b = res('1', '1Gi', '2', '2Gi');
      a.spec.containers[0].resources = { requests: { 'nvidia.com/gpu': '1' } };
      b.spec.containers[0].resources = { requests: { 'nvidia.com/gpu': '2' } };
      expect(calculateInPlaceUpdateSpec(rev('o', a), rev('n', b), on)).toBeUndefined();
      expect(
        calculateInPlaceUpdateSpec(
          rev('o', res('1', '1Gi', '2', '2Gi')),
          rev('n', res('x', '1Gi', '2', '2Gi')),
          on,
        ),
      ).toBeUndefined();
    });
  });
});

describe('helpers', () => {
  it('parseQuantity handles decimal, binary and exponent suffixes', () => {
    expect(parseQuantity('500m')).toBe(0.5);
    expect(parseQuantity('1Gi')).toBe(1073741824);
    expect(parseQuantity('2k')).toBe(2000);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity('abc')).toBeUndefined();
  });
  it('podQosClass follows Kubernetes', () => {
    expect(podQosClass({ containers: [{ name: 'a' }] })).toBe('BestEffort');
    expect(
      podQosClass({
        containers: [
          {
            name: 'a',
            resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } },
          },
        ],
      }),
    ).toBe('Guaranteed');
    expect(podQosClass({ containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }] })).toBe(
      'Burstable',
    );
    expect(podQosClass(undefined)).toBe('BestEffort');
  });
  it('metadataTwoWayPatch handles whole-field adds, removals and scalar changes', () => {
    expect(metadataTwoWayPatch({}, {})).toEqual({});
    expect(metadataTwoWayPatch({ labels: { a: '1' } }, {})).toEqual({ metadata: { labels: { a: null } } });
    expect(metadataTwoWayPatch({ annotations: { app: 'test', b: '2' } }, { labels: { x: 'y' } })).toEqual({
      metadata: { annotations: { app: null, b: null }, labels: { x: 'y' } },
    });
    expect(metadataTwoWayPatch({ ownerReferences: [], generateName: 'g' }, {})).toEqual({
      metadata: { generateName: null },
    });
    expect(metadataTwoWayPatch({}, { finalizers: ['x'] })).toEqual({ metadata: { finalizers: ['x'] } });
    expect(metadataTwoWayPatch({ finalizers: ['x'] }, { finalizers: ['x', 'y'] })).toEqual({
      metadata: { finalizers: ['y'], '$setElementOrder/finalizers': ['x', 'y'] },
    });
    expect(metadataTwoWayPatch({ name: 'a' }, { name: 'b' })).toEqual({ metadata: { name: 'b' } });
  });
});
