/** History table, revision choice for undo, and Go durations: exact text and errors. */
import { describe, expect, it } from '@jest/globals';
import type { CloneSet, ControllerRevision } from '../../../lib/api/types.js';
import { parseDuration } from '../../../lib/cli/duration.js';
import { controlledRevisions, findRevision, historyTable } from '../../../lib/cli/history.js';

const owner = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'web',
  uid: 'u1',
  controller: true,
};
const rev = (revision: number, cause?: string, uid = 'u1'): ControllerRevision => ({
  metadata: {
    name: `web-${revision}`,
    ownerReferences: [{ ...owner, uid }],
    ...(cause ? { annotations: { 'kubernetes.io/change-cause': cause } } : {}),
  },
  data: {},
  revision,
});

describe('history', () => {
  it('keeps the revisions the CloneSet controls, ascending', () => {
    const cs = { metadata: { uid: 'u1' } } as CloneSet;
    expect(
      controlledRevisions(cs, [rev(3), rev(1), rev(2, undefined, 'other')]).map((r) => r.revision),
    ).toEqual([1, 3]);
  });

  it('prints the kubectl table (2-space padding after the widest REVISION cell)', () => {
    expect(historyTable([rev(1), rev(12, 'kubectl set image cloneset/web nginx=nginx:1.19')])).toBe(
      'REVISION  CHANGE-CAUSE\n1         <none>\n12        kubectl set image cloneset/web nginx=nginx:1.19\n',
    );
    expect(historyTable([])).toBe('No rollout history found.\n');
  });

  it('undo picks the previous revision, or the one asked for', () => {
    const list = [rev(1), rev(2), rev(3)];
    expect(findRevision(list, 0).revision).toBe(2);
    expect(findRevision(list, 1).revision).toBe(1);
    expect(() => findRevision(list, 7)).toThrow('unable to find specified revision 7 in history');
    expect(() => findRevision([rev(1)], 0)).toThrow('no last revision to roll back to');
  });
});

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['1.5s', 1500],
  ])('%s = %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '5', 'm', '5x', '5m junk'])('rejects %j', (text) => {
    expect(() => parseDuration(text)).toThrow(`invalid duration "${text}"`);
  });
});
