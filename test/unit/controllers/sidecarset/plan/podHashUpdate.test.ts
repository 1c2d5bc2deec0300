/**
 * The hash annotations an in-place update writes (lib/controllers/sidecarset/plan/podHashUpdate.ts), with OpenKruise's
 * `TestUpdatePodSidecarSetHash` cases (`pkg/control/sidecarcontrol/util_test.go`) as data: a current-form
 * annotation, the older `{name: hash}` form (both annotations converted), and an unreadable one.
 */
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { updatePodSidecarSetHash } from '../../../../../lib/controllers/sidecarset/plan/podHashUpdate.js';
import { upgradePodSidecars } from '../../../../../lib/controllers/sidecarset/plan/upgradePod.js';

const NOW = new Date('2026-12-02T10:20:30.456Z');
const TS = '2026-12-02T10:20:30Z';
const HASH = 'kruise.io/sidecarset-hash';
const WITHOUT = 'kruise.io/sidecarset-hash-without-image';

const base = mutateSidecarSet({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'test-sidecarset' },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    containers: [
      { name: 'cold-sidecar', image: 'cold-image:v1' },
      {
        name: 'hot-sidecar',
        image: 'hot-image:v1',
        upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'hotupgrade:empty' },
      },
    ],
  },
});
const sidecarSet: SidecarSet = {
  ...base,
  metadata: {
    ...base.metadata,
    annotations: { ...base.metadata.annotations, [HASH]: 'bbb', [WITHOUT]: 'without-image-aaa' },
  },
};
const entry = (hash: string, extra = '') =>
  `{"updateTimestamp":"${TS}","hash":"${hash}","sidecarSetName":"test-sidecarset","sidecarList":${extra || 'null'}}`;
const OURS = `{"test-sidecarset":${entry('bbb', '["cold-sidecar","hot-sidecar"]')}}`;

const cases: { name: string; hash: string; without: string; expectHash: string; expectWithout: string }[] = [
  {
    name: 'normal sidecarSet revision',
    hash: '{"test-sidecarset":{"hash":"aaa"}}',
    without: '{"test-sidecarset":{"hash":"without-image-aaa"}}',
    expectHash: OURS,
    expectWithout: '{"test-sidecarset":{"hash":"without-image-aaa"}}',
  },
  {
    name: 'older sidecarSet revision',
    hash: '{"test-sidecarset": "aaa"}',
    without: '{"test-sidecarset": "without-image-aaa"}',
    expectHash: OURS,
    expectWithout: `{"test-sidecarset":${entry('without-image-aaa')}}`,
  },
  {
    name: 'failed sidecarSet revision',
    hash: 'failed-sidecarset-hash',
    without: 'failed-sidecarset-hash',
    expectHash: OURS,
    expectWithout: 'failed-sidecarset-hash',
  },
];

describe('UpdatePodSidecarSetHash', () => {
  it.each(cases)('$name', ({ hash, without, expectHash, expectWithout }) => {
    // through the in-place update that writes them (no sidecar container here, so no image changes)
    const pod = upgradePodSidecars(
      sidecarSet,
      {
        metadata: { name: 'p', annotations: { [HASH]: hash, [WITHOUT]: without } },
        spec: { containers: [] },
      },
      NOW,
    );
    const out = pod.metadata.annotations ?? {};
    expect(out[HASH]).toBe(expectHash);
    expect(out[WITHOUT]).toBe(expectWithout);
  });

  it("older-form entries of other SidecarSets are stamped now and named after this one (upstream's conversion)", () => {
    const out = updatePodSidecarSetHash(
      { [HASH]: '{"other":"h1","test-sidecarset":"aaa"}', [WITHOUT]: '{"other":"w1"}' },
      sidecarSet,
      NOW,
    );
    expect(out[HASH]).toBe(
      `{"other":${entry('h1')},"test-sidecarset":${entry('bbb', '["cold-sidecar","hot-sidecar"]')}}`,
    );
    // both older maps are read into one: the hash annotation's entries stay unless the without-image one names them
    expect(out[WITHOUT]).toBe(`{"other":${entry('w1')},"test-sidecarset":${entry('aaa')}}`);
  });

  it('no hash annotation and a current-form without-image one: only the hash entry is written', () => {
    const without =
      '{"test-sidecarset":{"updateTimestamp":null,"hash":"x","sidecarSetName":"test-sidecarset","sidecarList":null}}';
    const out = updatePodSidecarSetHash({ [WITHOUT]: without }, sidecarSet, NOW);
    expect(out[HASH]).toBe(OURS);
    expect(out[WITHOUT]).toBe(without);
  });
});
