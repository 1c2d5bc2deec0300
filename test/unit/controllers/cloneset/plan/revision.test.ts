import {
  ANNOTATION_VCT_HASH,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_REVISION_HASH,
} from '../../../../../lib/api/keys.js';
import { InvalidRevisionDataError } from '../../../../../lib/api/errors.js';
import type { CloneSet, ControllerRevision, Pod } from '../../../../../lib/api/types.js';
import { goJson } from '../../../../../lib/podset/revision/goJson.js';
import {
  applyRevision,
  computeRevisions,
  filterOwnedRevisions,
  newRevision,
  revisionData,
  truncateHistory,
  vctHash,
} from '../../../../../lib/controllers/cloneset/plan/revision/revision.js';

const UID = 'cs-uid';

function cloneSet(image = 'nginx:1.25', extra: Partial<CloneSet['spec']> = {}): CloneSet {
  return {
    metadata: { name: 'test-cs', namespace: 'ns', uid: UID, annotations: { team: 'a' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'demo' } },
      template: {
        metadata: { labels: { app: 'demo' } },
        spec: { containers: [{ name: 'nginx', image }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'pvc-1' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '1Gi' }, limits: { storage: '2Gi' } },
          },
        },
      ],
      revisionHistoryLimit: 10,
      ...extra,
    },
  };
}

/** A listed revision built from a CloneSet with the given image. */
function listed(
  name: string,
  revision: number,
  image: string,
  annotations?: Record<string, string>,
): ControllerRevision {
  const r = newRevision(cloneSet(image), revision, 0);
  return { ...r, metadata: { ...r.metadata, name, annotations }, revision };
}

const SPEC_VECTOR =
  '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"image":"nginx:1.25","name":"nginx","resources":{}}]}}}}';
const ECOSYSTEM_VECTOR =
  '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.25\\u003c\\u0026\\u003e","name":"main","resources":{}}]}}}}';

describe('revision data and hash (docs/behaviour/cloneset.md#revisions)', () => {
  test('revision data wraps the template with $patch replace and Go artefacts, byte for byte', () => {
    expect(goJson(revisionData(cloneSet().spec.template))).toBe(SPEC_VECTOR);
  });

  test('revision data adds resources {} to init containers and keeps an explicit creationTimestamp', () => {
    const data = revisionData({
      metadata: { creationTimestamp: '2024-05-01T08:00:00Z' },
      spec: {
        initContainers: [{ name: 'i' }],
        containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }],
      },
    });
    expect(data).toEqual({
      spec: {
        template: {
          $patch: 'replace',
          metadata: { creationTimestamp: '2024-05-01T08:00:00Z' },
          spec: {
            initContainers: [{ name: 'i', resources: {} }],
            containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }],
          },
        },
      },
    });
  });

  test('the ecosystem vector is what goJson prints for its template (HTML escaping)', () => {
    const data = revisionData({
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.25<&>' }] },
    });
    expect(goJson(data)).toBe(ECOSYSTEM_VECTOR);
  });
});

describe('VCT hash annotation (docs/behaviour/cloneset.md#controller-revisions)', () => {
  const pvc = (name: string, req: string, lim: string) => ({
    metadata: { name, labels: { ignored: 'yes' } },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: req }, limits: { storage: lim } },
    },
  });
  test.each([
    ['no templates', [], ''],
    ['one template (upstream vector)', [pvc('pvc-1', '1Gi', '2Gi')], '1129974074'],
    [
      'two templates (upstream vector)',
      [pvc('pvc-1', '1Gi', '2Gi'), pvc('pvc-2', '2Gi', '4Gi')],
      '510584408',
    ],
    [
      'two templates in reverse order hash the same',
      [pvc('pvc-2', '2Gi', '4Gi'), pvc('pvc-1', '1Gi', '2Gi')],
      '510584408',
    ],
  ])('%s → %p', (_name, vcts, want) => {
    expect(vctHash(cloneSet('x', { volumeClaimTemplates: vcts }))).toBe(want);
  });

  test('all typed PVC spec fields take part in the hash', () => {
    const full = cloneSet('x', {
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            selector: {
              matchLabels: { a: 'b' },
              matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }],
            },
            resources: { requests: { storage: 1 } },
            volumeName: 'pv',
            storageClassName: 'gp3',
            volumeMode: 'Block',
            dataSource: { kind: 'PersistentVolumeClaim', name: 'src' },
            dataSourceRef: { apiGroup: 'snap', kind: 'VolumeSnapshot', name: 's', namespace: 'n' },
            volumeAttributesClassName: 'fast',
          },
        },
      ],
    });
    const h = vctHash(full);
    expect(h).toMatch(/^\d+$/);
    const noMode = structuredClone(full);
    delete (noMode.spec.volumeClaimTemplates![0].spec as Record<string, unknown>).volumeMode;
    expect(vctHash(noMode)).not.toBe(h);
  });
});

describe('newRevision (docs/behaviour/cloneset.md#controller-revisions)', () => {
  test('carries template labels + hash label, CloneSet annotations + VCT hash, controller owner reference', () => {
    const r = newRevision(cloneSet(), 4, 0);
    expect(r).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: 'test-cs-7dd7d4f698',
        namespace: 'ns',
        labels: { app: 'demo', [LABEL_REVISION_HASH]: '7dd7d4f698' },
        annotations: { team: 'a', [ANNOTATION_VCT_HASH]: '1129974074' },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'CloneSet',
            name: 'test-cs',
            uid: UID,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      data: JSON.parse(SPEC_VECTOR),
      revision: 4,
    });
  });
});

describe('filtering revisions (docs/behaviour/cloneset.md#reconcile-order)', () => {
  const r = (name: string, revision: number, ts?: string): ControllerRevision => ({
    metadata: { name, creationTimestamp: ts, labels: { app: 'demo' } },
    revision,
  });
  test('keeps revisions matching the selector whose controller is absent or this CloneSet', () => {
    const mine = {
      ...r('mine', 1),
      metadata: {
        ...r('mine', 1).metadata,
        ownerReferences: [{ apiVersion: 'v', kind: 'CloneSet', name: 'x', uid: UID, controller: true }],
      },
    };
    const other = {
      ...r('other', 1),
      metadata: {
        ...r('other', 1).metadata,
        ownerReferences: [{ apiVersion: 'v', kind: 'CloneSet', name: 'y', uid: 'u2', controller: true }],
      },
    };
    const orphan = r('orphan', 1);
    const foreign: ControllerRevision = {
      metadata: { name: 'foreign', labels: { app: 'else' } },
      revision: 1,
    };
    expect(
      filterOwnedRevisions(cloneSet(), [mine, other, orphan, foreign]).map((x) => x.metadata.name),
    ).toEqual(['mine', 'orphan']);
  });
});

describe('computeRevisions — scenario 52 (TestGetActiveRevisions)', () => {
  const cs = cloneSet('nginx:1.25');
  const right = vctHash(cs);

  test('(a) [equal rev 1 without annotations, different rev 2] → the equal one, VCT hash set, revision bumped to 3', () => {
    const out = computeRevisions(cs, [
      listed('test-cs-equal-1', 1, 'nginx:1.25'),
      listed('test-cs-different-2', 2, 'other'),
    ]);
    expect(out.plan.updateRevision).toBe('test-cs-equal-1');
    expect(out.plan.create).toBeUndefined();
    expect(out.plan.update?.revision).toBe(3);
    expect(out.plan.update?.metadata.annotations).toEqual({ [ANNOTATION_VCT_HASH]: right });
    expect(out.update).toBe(out.plan.update);
  });

  test('(b) [different rev 1, equal rev 2] → the newest equal one, unchanged', () => {
    const equal = listed('test-cs-equal-2', 2, 'nginx:1.25');
    const out = computeRevisions(cs, [listed('test-cs-different-1', 1, 'other'), equal]);
    expect(out.plan).toEqual({
      updateRevision: 'test-cs-equal-2',
      currentRevision: 'test-cs-equal-2',
      collisionCount: 0,
    });
    expect(out.update).toBe(equal);
  });

  test('(c) [different rev 1] → a new revision with revision 2 is created', () => {
    const out = computeRevisions(cs, [listed('test-cs-different-1', 1, 'other')]);
    expect(out.plan.create?.revision).toBe(2);
    expect(out.plan.create?.metadata.name).toBe('test-cs-7dd7d4f698');
    expect(out.plan.updateRevision).toBe('test-cs-7dd7d4f698');
    expect(out.plan.update).toBeUndefined();
  });

  test('(d) equal rev 1 with the right VCT hash + different rev 2 → reused, hash unchanged, revision 3', () => {
    const out = computeRevisions(cs, [
      listed('test-cs-equal-1', 1, 'nginx:1.25', { [ANNOTATION_VCT_HASH]: right, keep: 'me' }),
      listed('test-cs-different-2', 2, 'other'),
    ]);
    expect(out.plan.update?.revision).toBe(3);
    expect(out.plan.update?.metadata.annotations).toEqual({ [ANNOTATION_VCT_HASH]: right, keep: 'me' });
  });

  test('(e) equal rev 1 with VCT hash "wrong-hash" + different rev 2 → hash corrected, revision 3', () => {
    const input = listed('test-cs-equal-1', 1, 'nginx:1.25', { [ANNOTATION_VCT_HASH]: 'wrong-hash' });
    const out = computeRevisions(cs, [input, listed('test-cs-different-2', 2, 'other')]);
    expect(out.plan.update?.metadata.annotations).toEqual({ [ANNOTATION_VCT_HASH]: right });
    expect(out.plan.update?.revision).toBe(3);
    expect(input.metadata.annotations).toEqual({ [ANNOTATION_VCT_HASH]: 'wrong-hash' });
  });

  test('(f) no revisions → a new revision with revision 1', () => {
    const out = computeRevisions(cs, []);
    expect(out.plan.create?.revision).toBe(1);
    expect(out.current).toBe(out.update);
    expect(out.sorted).toEqual([]);
  });
});

describe('computeRevisions — collisions and current revision', () => {
  test('a listed revision with our name but other data bumps collisionCount and renames', () => {
    const squatter = listed('test-cs-7dd7d4f698', 1, 'other');
    const out = computeRevisions(cloneSet(), [squatter]);
    expect(out.plan.collisionCount).toBe(1);
    expect(out.plan.create?.metadata.name).toBe('test-cs-7dd7d4f699');
    expect(out.plan.create?.metadata.labels?.[LABEL_REVISION_HASH]).toBe('7dd7d4f698');
  });

  test('a non-owned listed revision with our name and the same data is used as is', () => {
    const same = listed('test-cs-7dd7d4f698', 1, 'nginx:1.25');
    same.metadata.ownerReferences = [
      { apiVersion: 'v', kind: 'CloneSet', name: 'o', uid: 'other', controller: true },
    ];
    const out = computeRevisions(cloneSet(), [same]);
    expect(out.plan).toEqual({
      updateRevision: 'test-cs-7dd7d4f698',
      currentRevision: 'test-cs-7dd7d4f698',
      collisionCount: 0,
    });
    expect(out.sorted).toEqual([]);
  });

  test('collisionCount starts from status.collisionCount', () => {
    const cs = {
      ...cloneSet(),
      status: {
        replicas: 0,
        readyReplicas: 0,
        availableReplicas: 0,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        collisionCount: 1,
      },
    };
    expect(computeRevisions(cs, []).plan).toMatchObject({
      collisionCount: 1,
      updateRevision: 'test-cs-7dd7d4f699',
    });
  });

  test('current revision is the listed revision named status.currentRevision', () => {
    const old = listed('test-cs-old', 1, 'old');
    const cs = {
      ...cloneSet(),
      status: {
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        currentRevision: 'test-cs-old',
      },
    };
    const out = computeRevisions(cs, [old]);
    expect(out.current).toBe(old);
    expect(out.plan.currentRevision).toBe('test-cs-old');
    expect(out.plan.updateRevision).toBe('test-cs-7dd7d4f698');
  });

  test('an unknown status.currentRevision falls back to the update revision', () => {
    const cs = {
      ...cloneSet(),
      status: {
        replicas: 0,
        readyReplicas: 0,
        availableReplicas: 0,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        currentRevision: 'gone',
      },
    };
    expect(computeRevisions(cs, []).plan.currentRevision).toBe('test-cs-7dd7d4f698');
  });
});

describe('truncateHistory (docs/behaviour/cloneset.md#revisions)', () => {
  const revs = Array.from({ length: 6 }, (_, i) => listed(`test-cs-r${i + 1}`, i + 1, `img${i}`));
  const pod = (rev: string): Pod => ({
    metadata: { name: 'p', labels: { [LABEL_CONTROLLER_REVISION_HASH]: rev } },
    spec: { containers: [] },
  });

  test('limit 2 keeps current, update, pod-referenced and the 2 newest other revisions', () => {
    const cs = cloneSet('x', { revisionHistoryLimit: 2 });
    expect(truncateHistory(cs, revs, [pod('test-cs-r2')], 'test-cs-r1', 'test-cs-r6')).toEqual([
      'test-cs-r3',
    ]);
  });

  test('within the limit nothing is deleted; absent limit means 10', () => {
    const cs = cloneSet('x');
    delete cs.spec.revisionHistoryLimit;
    expect(truncateHistory(cs, revs, [], 'test-cs-r5', 'test-cs-r6')).toEqual([]);
  });

  test('limit 0 deletes every non-live revision oldest first', () => {
    const cs = cloneSet('x', { revisionHistoryLimit: 0 });
    expect(truncateHistory(cs, revs, [pod('r3')], 'test-cs-r6', 'test-cs-r6')).toEqual([
      'test-cs-r1',
      'test-cs-r2',
      'test-cs-r4',
      'test-cs-r5',
    ]);
  });
});

describe('applyRevision (docs/behaviour/cloneset.md#revisions)', () => {
  test('replaces the template wholesale and keeps everything else live', () => {
    const cs = cloneSet('new', { replicas: 7 });
    const out = applyRevision(cs, listed('r', 1, 'old'));
    expect(out.spec.template).toEqual({
      metadata: { creationTimestamp: null, labels: { app: 'demo' } },
      spec: { containers: [{ name: 'nginx', image: 'old', resources: {} }] },
    });
    expect(out.spec.replicas).toBe(7);
    expect(cs.spec.template.spec.containers[0].image).toBe('new');
  });

  test('data without spec.template is an InvalidRevisionDataError', () => {
    expect(() =>
      applyRevision(cloneSet(), { metadata: { name: 'bad' }, revision: 1, data: { spec: {} } }),
    ).toThrow(InvalidRevisionDataError);
    expect(() => applyRevision(cloneSet(), { metadata: {}, revision: 1 })).toThrow(/has invalid data/);
  });
});
