/**
 * SidecarSet ControllerRevisions (lib/controllers/sidecarset/plan/revision.ts, ./history.ts): the revision OpenKruise
 * v1.9.0's `NewRevision` builds (golden, ./golden/README.md), the choice of the latest revision, the custom-version
 * label and the history truncation of `registerLatestRevision` / `truncateHistory`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControllerRevision, Pod } from '../../../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import {
  customVersionToLabel,
  newSidecarSetRevision,
  planSidecarSetRevision,
  revisionsToTruncate,
  sidecarSetRevisionData,
} from '../../../../../lib/controllers/sidecarset/plan/index.js';
import { goJson } from '../../../../../lib/podset/revision/goJson.js';

const golden = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');
const lines = (f: string): unknown[] =>
  fs
    .readFileSync(path.join(golden, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

describe("SidecarSet revisions against OpenKruise v1.9.0's NewRevision (golden)", () => {
  const inputs = lines('revisions.input.jsonl') as SidecarSet[];
  const theirs = lines('revisions.openkruise.jsonl') as ControllerRevision[];
  const collided = lines('revisions-collision-1.openkruise.jsonl') as ControllerRevision[];

  it('has five cases', () => {
    expect([inputs.length, theirs.length, collided.length]).toEqual([5, 5, 5]);
  });

  inputs.forEach((input, i) => {
    it(`${input.metadata.name} #${i}: name, labels, annotations, data and number are OpenKruise's`, () => {
      const ours = newSidecarSetRevision(mutateSidecarSet(input), 1, 0);
      expect(ours.metadata.name).toBe(theirs[i].metadata.name);
      expect(ours.metadata.namespace).toBe('kruise-system');
      expect(ours.metadata.labels).toEqual(theirs[i].metadata.labels);
      expect(ours.metadata.annotations).toEqual(theirs[i].metadata.annotations);
      expect(goJson(ours.data)).toBe(goJson(theirs[i].data));
      expect(ours.revision).toBe(1);
      // deliberate: the version Kruiseless's CRD serves, where OpenKruise names the v1beta1 it reads
      expect(ours.metadata.ownerReferences).toEqual(
        theirs[i].metadata.ownerReferences?.map((o) => ({ ...o, apiVersion: 'apps.kruise.io/v1alpha1' })),
      );
      expect(newSidecarSetRevision(mutateSidecarSet(input), 1, 1).metadata.name).toBe(
        collided[i].metadata.name,
      );
    });
  });

  it('the exact names and the data bytes of the simplest case', () => {
    expect(theirs.map((r) => r.metadata.name)).toEqual([
      'log-9c7dddd9c',
      'log-5b7b58d5bb',
      'sc-status-9c7dddd9c',
      'sc-not-upgradable-74f5c449b5',
      'every-797c844447',
    ]);
    expect(goJson(sidecarSetRevisionData(mutateSidecarSet(inputs[0])))).toBe(
      '{"spec":{"$patch":"replace","containers":[{"image":"fluentd:1","imagePullPolicy":"IfNotPresent",' +
        '"name":"logger","podInjectPolicy":"BeforeAppContainer","resources":{},"shareVolumePolicy":' +
        '{"type":"disabled"},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",' +
        '"upgradeStrategy":{"upgradeType":"ColdUpgrade"}}],"imagePullSecrets":null,"initContainers":null,' +
        '"patchPodMetadata":null,"volumes":null}}',
    );
  });
});

const stored = (image: string, extra: Partial<SidecarSet['spec']> = {}, labels?: Record<string, string>) => {
  const s = mutateSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'log', uid: 'uid-log', ...(labels ? { labels } : {}) },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image }], ...extra },
  });
  return s;
};

/** A stored revision of `image`'s spec with number `revision`. */
const revisionOf = (image: string, revision: number, created: string): ControllerRevision => {
  const r = newSidecarSetRevision(stored(image), revision, 0);
  return { ...r, metadata: { ...r.metadata, creationTimestamp: created, resourceVersion: `${revision}` } };
};

const podOn = (revision: string): Pod => ({
  metadata: {
    name: `p-${revision}`,
    annotations: {
      'kruise.io/sidecarset-hash': JSON.stringify({
        log: { hash: 'h', sidecarSetName: 'log', controllerRevision: revision },
      }),
    },
  },
  spec: { containers: [] },
});

describe('planSidecarSetRevision (registerLatestRevision)', () => {
  const v1 = revisionOf('fluentd:1', 1, '2026-12-01T00:00:00Z');
  const v2 = revisionOf('fluentd:2', 2, '2026-12-01T00:01:00Z');

  it('no history: create revision 1 with collision count 0', () => {
    const plan = planSidecarSetRevision(stored('fluentd:1'), []);
    expect(plan.choice.action).toBe('create');
    expect(plan.choice.revision.metadata.name).toBe('log-9c7dddd9c');
    expect(plan.choice.revision.revision).toBe(1);
    expect(plan.collisionCount).toBe(0);
  });

  it('the newest revision holds the spec: reuse it', () => {
    const plan = planSidecarSetRevision(stored('fluentd:2'), [v2, v1]);
    expect(plan.choice).toEqual({ action: 'reuse', revision: v2 });
    expect(plan.sorted.map((r) => r.metadata.name)).toEqual(['log-9c7dddd9c', 'log-5b7b58d5bb']);
  });

  it('an older revision holds the spec (roll back): renumber it to 3', () => {
    const plan = planSidecarSetRevision(stored('fluentd:1'), [v1, v2]);
    expect(plan.choice.action).toBe('renumber');
    expect(plan.choice.revision).toEqual({ ...v1, revision: 3 });
  });

  it('a new spec after two: create revision 3, the stored collision count in its name', () => {
    const s = { ...stored('fluentd:3'), status: { collisionCount: 1 } };
    const plan = planSidecarSetRevision(s, [v1, v2]);
    expect(plan.choice.action).toBe('create');
    expect(plan.choice.revision.revision).toBe(3);
    expect(plan.collisionCount).toBe(1);
    expect(plan.choice.revision.metadata.name).toBe(newSidecarSetRevision(s, 3, 1).metadata.name);
  });

  it("another SidecarSet's revision (controller owner with another UID) is not in the history", () => {
    const foreign = {
      ...v2,
      metadata: { ...v2.metadata, ownerReferences: [{ ...v2.metadata.ownerReferences![0], uid: 'other' }] },
    };
    const plan = planSidecarSetRevision(stored('fluentd:1'), [v1, foreign]);
    expect(plan.choice).toEqual({ action: 'reuse', revision: v1 });
  });
});

describe('customVersionToLabel (updateCustomVersionLabel)', () => {
  const v1 = revisionOf('fluentd:1', 1, '2026-12-01T00:00:00Z');
  it('labels the latest revision with the SidecarSet’s custom version when it differs', () => {
    const s = stored('fluentd:1', {}, { 'apps.kruise.io/sidecarset-custom-version': 'v7' });
    expect(customVersionToLabel(s, v1)).toBe('v7');
    const labelled = {
      ...v1,
      metadata: {
        ...v1.metadata,
        labels: { ...v1.metadata.labels, 'apps.kruise.io/sidecarset-custom-version': 'v7' },
      },
    };
    expect(customVersionToLabel(s, labelled)).toBeUndefined();
    expect(customVersionToLabel(stored('fluentd:1'), v1)).toBeUndefined();
  });
});

describe('revisionsToTruncate (truncateHistory)', () => {
  const history = [1, 2, 3, 4].map((n) => revisionOf(`fluentd:${n}`, n, `2026-12-01T00:0${n}:00Z`));
  const names = history.map((r) => r.metadata.name ?? '');

  it('within the limit: nothing', () => {
    expect(revisionsToTruncate(stored('fluentd:4', { revisionHistoryLimit: 4 }), history, [])).toEqual([]);
  });

  it('limit 2: the two oldest unused go, oldest first', () => {
    const s = stored('fluentd:4', { revisionHistoryLimit: 2 });
    expect(revisionsToTruncate(s, history, []).map((r) => r.metadata.name)).toEqual([names[0], names[1]]);
  });

  it('a revision a pod runs or the injection pins is kept; the next unused one goes instead', () => {
    const s = stored('fluentd:4', {
      revisionHistoryLimit: 2,
      injectionStrategy: { revision: { revisionName: names[1] } },
    });
    expect(revisionsToTruncate(s, history, [podOn(names[0])]).map((r) => r.metadata.name)).toEqual([
      names[2],
    ]);
  });

  it('limit 0 counts as 1 and the latest is never deleted', () => {
    const s = stored('fluentd:4', { revisionHistoryLimit: 0 });
    expect(revisionsToTruncate(s, history, []).map((r) => r.metadata.name)).toEqual(names.slice(0, 3));
  });

  it('a customVersion pin keeps the newest revision labelled with it', () => {
    const labelled = history.map((r, i) =>
      i === 0 || i === 1
        ? {
            ...r,
            metadata: {
              ...r.metadata,
              labels: { ...r.metadata.labels, 'apps.kruise.io/sidecarset-custom-version': 'canary' },
            },
          }
        : r,
    );
    const s = stored('fluentd:4', {
      revisionHistoryLimit: 2,
      injectionStrategy: { revision: { customVersion: 'canary' } },
    });
    expect(revisionsToTruncate(s, labelled, []).map((r) => r.metadata.name)).toEqual([names[0], names[2]]);
  });
});
