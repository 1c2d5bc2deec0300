/**
 * Pod creation (docs/behaviour/cloneset.md#pod-creation, docs/behaviour/cloneset.md#new-pods,
 * docs/behaviour/cloneset.md#pvcs): TestCreatePods (scenario 29, docs/behaviour/scenarios.md#s29),
 * TestGetOrGenAvailableIDs (scenario 31), slow start, and C37.
 */
import type { CloneSet, PodTemplateSpec } from '../../../../../lib/api/types.js';
import {
  availableInstanceIds,
  buildPod,
  planCreations,
  PodCreationError,
  slowStartBatch,
} from '../../../../../lib/controllers/cloneset/plan/sync/create.js';
import { shortHash } from '../../../../../lib/podset/pods.js';
import { cloneSet, idSource, NOW, P, phaseContext, pvc } from '../../../support/fixtures.js';

const OWNER = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'CloneSet',
  name: 'foo',
  uid: 'uid-foo',
  controller: true,
  blockOwnerDeletion: true,
};

function tpl(env: boolean): PodTemplateSpec {
  return {
    metadata: { labels: { foo: 'bar' } },
    spec: {
      containers: [
        {
          name: 'nginx',
          image: 'nginx',
          volumeMounts: [
            { name: 'datadir', mountPath: '/tmp/data' },
            { name: 'home', mountPath: '/home' },
          ],
          ...(env ? { env: [{ name: 'e-key', value: 'e-value' }] } : {}),
        },
      ],
      volumes: [{ name: 'home', hostPath: { path: '/tmp', type: '' } }],
    },
  };
}

function fooCloneSet(): CloneSet {
  const cs = cloneSet(3);
  cs.spec.selector = { matchLabels: { foo: 'bar' } };
  cs.spec.template = tpl(true);
  cs.spec.volumeClaimTemplates = [
    {
      metadata: { name: 'datadir' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10' } } },
    },
  ];
  return cs;
}

describe('TestCreatePods (scenario 29, docs/behaviour/scenarios.md#s29)', () => {
  const cs = fooCloneSet();
  const ctx = phaseContext(cs, [], {
    current: 'revision_abc',
    update: 'revision_xyz',
    currentTemplate: tpl(false),
    updateTemplate: tpl(true),
    pvcs: [pvc('id3')],
    newInstanceId: idSource(['id4', 'id1', 'id3']),
  });
  // id3 is free (its PVC has no pod), so it is taken first; then id4, id1 from the generator
  const actions = planCreations(ctx, 3, 1);

  it('creates foo-id1 at the current revision and foo-id3, foo-id4 at the update revision', () => {
    expect(actions.map((a) => a.type === 'CreatePod' && [a.pod.metadata.name, a.revision, a.batch])).toEqual([
      ['foo-id1', 'revision_abc', 0],
      ['foo-id3', 'revision_xyz', 1],
      ['foo-id4', 'revision_xyz', 1],
    ]);
  });

  it('builds each pod exactly (docs/behaviour/cloneset.md#new-pods)', () => {
    const a = actions[0];
    if (a.type !== 'CreatePod') throw new Error('expected CreatePod');
    expect(a.pod).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'foo-id1',
        generateName: 'foo-',
        namespace: 'default',
        labels: {
          foo: 'bar',
          'controller-revision-hash': 'revision_abc',
          'pod-template-hash': 'revision_abc',
          'apps.kruise.io/cloneset-instance-id': 'id1',
          'lifecycle.apps.kruise.io/state': 'PreparingNormal',
        },
        annotations: { 'lifecycle.apps.kruise.io/timestamp': '2024-05-01T08:00:00Z' },
        ownerReferences: [OWNER],
      },
      spec: {
        containers: tpl(false).spec.containers,
        volumes: [
          { name: 'datadir', persistentVolumeClaim: { claimName: 'datadir-foo-id1', readOnly: false } },
          { name: 'home', hostPath: { path: '/tmp', type: '' } },
        ],
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }, { conditionType: 'KruisePodReady' }],
      },
    });
    const b = actions[2];
    expect(b.type === 'CreatePod' && b.pod.spec.containers[0].env).toEqual([
      { name: 'e-key', value: 'e-value' },
    ]);
  });

  it('creates only the PVCs that do not exist yet: datadir-foo-id1, datadir-foo-id4 (docs/behaviour/cloneset.md#pvcs)', () => {
    const pvcs = actions.flatMap((a) => (a.type === 'CreatePod' ? a.pvcs : []));
    expect(pvcs).toEqual(
      ['id1', 'id4'].map((id) => ({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: `datadir-foo-${id}`,
          namespace: 'default',
          labels: { foo: 'bar', 'apps.kruise.io/cloneset-instance-id': id },
          ownerReferences: [OWNER],
        },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10' } } },
      })),
    );
  });

  it('does not modify the CloneSet or the revision templates', () => {
    expect(cs.spec.template).toEqual(tpl(true));
    expect(cs.spec.volumeClaimTemplates?.[0].metadata).toEqual({ name: 'datadir' });
  });
});

describe('availableInstanceIds (scenario 31, docs/behaviour/scenarios.md#s31)', () => {
  const withId = (id: string) => P('r', 'Normal', true, false, { instanceId: id });

  it('pods {a, b}, PVCs {b, c}, need 2 → {c, <generated>}', () => {
    const ids = availableInstanceIds(
      2,
      [withId('a'), withId('b')],
      [pvc('b'), pvc('c')],
      idSource(['a', 'b', 'c', 'x7k2q']),
    );
    expect(ids).toEqual(['c', 'x7k2q']);
  });

  it('takes free PVC ids in ascending order and returns the set sorted', () => {
    expect(availableInstanceIds(2, [], [pvc('q'), pvc('d'), pvc('m')], idSource())).toEqual(['d', 'm']);
    expect(availableInstanceIds(3, [], [pvc('z')], idSource(['c', 'b']))).toEqual(['b', 'c', 'z']);
  });

  it('ignores ids of inactive pods and never returns an id twice', () => {
    const gone = P('r', 'Normal', false, false, { instanceId: 'a', phase: 'Failed' });
    expect(availableInstanceIds(2, [gone], [pvc('a')], idSource(['b', 'b', 'c']))).toEqual(['a', 'b']);
  });

  it('throws when the generator keeps returning used ids', () => {
    expect(() => availableInstanceIds(1, [withId('a')], [], () => 'a')).toThrow(PodCreationError);
  });
});

describe('pod details', () => {
  it('short hash gate writes only the suffix into controller-revision-hash', () => {
    const p = buildPod(cloneSet(1), tpl(false), 'foo-7dd7d4f698', 'abcde', true, NOW);
    expect(p.metadata.labels).toMatchObject({
      'controller-revision-hash': '7dd7d4f698',
      'pod-template-hash': '7dd7d4f698',
    });
    expect(shortHash('foo-7dd7d4f698')).toBe('7dd7d4f698');
  });

  it('keeps an existing InPlaceUpdateReady gate (KruisePodReady appended after it), copies finalizers and annotations, replaces a same-named volume', () => {
    const cs = cloneSet(1);
    cs.spec.volumeClaimTemplates = [
      { metadata: { name: 'home', labels: { tier: 'db' } }, spec: {}, status: { phase: 'Bound' } },
    ];
    const t: PodTemplateSpec = {
      metadata: { labels: { app: 'foo' }, annotations: { a: '1' }, finalizers: ['f/1'] },
      spec: {
        containers: [{ name: 'c' }],
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        volumes: [{ name: 'home', emptyDir: {} }],
      },
    };
    const p = buildPod(cs, t, 'foo-1', 'abcde', false, NOW);
    expect(p.spec.readinessGates).toEqual([
      { conditionType: 'InPlaceUpdateReady' },
      { conditionType: 'KruisePodReady' },
    ]);
    expect(p.metadata.finalizers).toEqual(['f/1']);
    expect(p.metadata.annotations).toEqual({
      a: '1',
      'lifecycle.apps.kruise.io/timestamp': '2024-05-01T08:00:00Z',
    });
    expect(p.spec.volumes).toEqual([
      { name: 'home', persistentVolumeClaim: { claimName: 'home-foo-abcde', readOnly: false } },
    ]);
    const noVolumes = buildPod(cloneSet(1), { spec: { containers: [{ name: 'c' }] } }, 'r', 'x', false, NOW);
    expect(noVolumes.spec.volumes).toBeUndefined();
    expect(noVolumes.metadata.labels).toEqual({
      'controller-revision-hash': 'r',
      'pod-template-hash': 'r',
      'apps.kruise.io/cloneset-instance-id': 'x',
      'lifecycle.apps.kruise.io/state': 'PreparingNormal',
    });
  });

  it('PVC labels come from the VCT, the selector and the instance id; status is dropped', () => {
    const cs = cloneSet(1);
    cs.spec.volumeClaimTemplates = [
      { metadata: { name: 'home', labels: { tier: 'db' } }, spec: {}, status: { phase: 'Bound' } },
    ];
    const actions = planCreations(phaseContext(cs, [], { newInstanceId: idSource(['k']) }), 1, 0);
    const a = actions[0];
    if (a.type !== 'CreatePod') throw new Error('expected CreatePod');
    expect(a.pvcs[0].metadata.labels).toEqual({
      tier: 'db',
      app: 'foo',
      'apps.kruise.io/cloneset-instance-id': 'k',
    });
    expect(a.pvcs[0].status).toBeUndefined();
  });

  it('slow-start batches are 0, 1, 1, 2, 2, 2, 2, 3 (sizes 1, 2, 4, 8)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(slowStartBatch)).toEqual([0, 1, 1, 2, 2, 2, 2, 3]);
  });

  it('plans nothing for count 0; falls back to the live template when the update revision has no data', () => {
    const ctx = phaseContext(cloneSet(1), []);
    expect(planCreations(ctx, 0, 0)).toEqual([]);
    delete ctx.updateRevision.data;
    const a = planCreations(ctx, 1, 0)[0];
    expect(a.type === 'CreatePod' && a.pod.spec.containers).toEqual(
      ctx.cloneSet.spec.template.spec.containers,
    );
  });

  it('throws when the current revision has no template', () => {
    const ctx = phaseContext(cloneSet(1), []);
    delete ctx.currentRevision.data;
    expect(() => planCreations(ctx, 1, 1)).toThrow();
  });
});
