/**
 * Advanced DaemonSet in the parity harness: `apps.kruise.io/v1beta1 daemonsets` (the version both OpenKruise and
 * Kruiseless's CRD store), pods named `<name>-<5 random characters>` (`generateName`), no instance-id label, no field
 * naming pods to delete, the differences of `deliberate.yaml`, and OpenKruise's DaemonSet e2e specs: the v1alpha1 and
 * the v1beta1 file (7 specs each, with the same names: their rows are named by file), in one suite run.
 * Scenarios: `test/parity/scenarios/daemonset/`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import type { ParityKind } from '../../kind.js';
import { DeliberateSchema } from '../../scenario.js';

/** The Advanced DaemonSet's parity entry. */
export const daemonSet: ParityKind = {
  name: 'daemonset',
  kind: 'DaemonSet',
  resource: { group: 'apps.kruise.io', version: 'v1beta1', plural: 'daemonsets' },
  randomNameSuffix: 5,
  perReconcileEventReasons: new Set(),
  conflictOnlyConditionTypes: new Set(),
  deliberate: z
    .array(DeliberateSchema)
    .parse(parse(readFileSync(new URL('deliberate.yaml', import.meta.url), 'utf8'))),
  upstreamE2e: {
    focusFiles: ['test/e2e/apps/v1alpha1/daemonset.go', 'test/e2e/apps/v1beta1/daemonset.go'],
  },
};
