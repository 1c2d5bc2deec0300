/**
 * The parity harness creates a scenario's object through the version its manifest names (test/parity/cluster.ts
 * `versionOf`), so a CloneSet written as `apps.kruise.io/v1beta1` is stored through v1beta1 on both sides.
 */
import { versionOf } from '../../parity/cluster.js';

const cloneSets = { group: 'apps.kruise.io', version: 'v1alpha1' };

test("another version of the kind's group is created through that version", () => {
  expect(versionOf({ apiVersion: 'apps.kruise.io/v1beta1' }, cloneSets)).toBe('v1beta1');
  expect(versionOf({ apiVersion: 'apps.kruise.io/v1alpha1' }, cloneSets)).toBe('v1alpha1');
});

test("another group, no version or no apiVersion keeps the kind's own version", () => {
  expect(versionOf({ apiVersion: 'apps/v1' }, cloneSets)).toBe('v1alpha1');
  expect(versionOf({ apiVersion: 'apps.kruise.io' }, cloneSets)).toBe('v1alpha1');
  expect(versionOf({}, cloneSets)).toBe('v1alpha1');
  expect(versionOf({ apiVersion: 7 }, cloneSets)).toBe('v1alpha1');
});
