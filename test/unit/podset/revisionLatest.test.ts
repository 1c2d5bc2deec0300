/**
 * The newest-revision choice every history-keeping workload makes (lib/podset/revision/latest.ts; Kubernetes'
 * `FindEqualRevisions` and `EqualRevision` as OpenKruise's SidecarSet `registerLatestRevision` uses them): reuse,
 * renumber (roll back) or create, and the history order after the write.
 */
import { LABEL_REVISION_HASH } from '../../../lib/api/keys.js';
import type { ControllerRevision } from '../../../lib/api/types.js';
import {
  chooseLatestRevision,
  historyAfter,
  nextRevisionNumber,
} from '../../../lib/podset/revision/latest.js';

const rev = (name: string, revision: number, image: string, hashLabel = name): ControllerRevision => ({
  metadata: { name, labels: { [LABEL_REVISION_HASH]: hashLabel }, resourceVersion: '7' },
  revision,
  data: { spec: { containers: [{ name: 'c', image }] } },
});

const a = rev('s-a', 1, 'img:a');
const b = rev('s-b', 2, 'img:b');

describe('nextRevisionNumber', () => {
  test('1 for no history, else 1 + the highest', () => {
    expect(nextRevisionNumber([])).toBe(1);
    expect(nextRevisionNumber([a, b])).toBe(3);
  });
});

describe('chooseLatestRevision', () => {
  test('no history: create the candidate', () => {
    const candidate = rev('s-a', 1, 'img:a');
    expect(chooseLatestRevision([], candidate)).toEqual({ action: 'create', revision: candidate });
  });

  test('the newest holds the data: reuse it as stored', () => {
    expect(chooseLatestRevision([a, b], rev('s-b2', 3, 'img:b', 'other'))).toEqual({
      action: 'reuse',
      revision: b,
    });
  });

  test('an older one holds the data: renumber it to the candidate’s number, resourceVersion kept', () => {
    expect(chooseLatestRevision([a, b], rev('s-a', 3, 'img:a'))).toEqual({
      action: 'renumber',
      revision: { ...a, revision: 3 },
      from: a,
    });
  });

  test('hash labels that parse as int32 and differ make equal data unequal', () => {
    const old = rev('s-1', 1, 'img:a', '12');
    const candidate = rev('s-2', 2, 'img:a', '13');
    expect(chooseLatestRevision([old], candidate).action).toBe('create');
  });

  test('new data: create the candidate', () => {
    const candidate = rev('s-c', 3, 'img:c');
    expect(chooseLatestRevision([a, b], candidate)).toEqual({ action: 'create', revision: candidate });
  });
});

describe('historyAfter', () => {
  test('reuse keeps the order; create appends; renumber moves the revision to the end', () => {
    const names = (l: ControllerRevision[]) => l.map((r) => `${r.metadata.name}#${r.revision}`);
    expect(names(historyAfter([a, b], { action: 'reuse', revision: b }, b))).toEqual(['s-a#1', 's-b#2']);
    const c = rev('s-c', 3, 'img:c');
    expect(names(historyAfter([a, b], { action: 'create', revision: c }, c))).toEqual([
      's-a#1',
      's-b#2',
      's-c#3',
    ]);
    const a3 = { ...a, revision: 3 };
    expect(names(historyAfter([a, b], { action: 'renumber', revision: a3, from: a }, a3))).toEqual([
      's-b#2',
      's-a#3',
    ]);
  });
});
