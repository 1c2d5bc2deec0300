/**
 * BroadcastJob in the parity harness: `apps.kruise.io/v1beta1 broadcastjobs` (the version both OpenKruise and
 * Kruiseless's CRD store), pods named `<name>-<5 random characters>` (`generateName`), no instance-id label, no field
 * naming pods to delete, the differences of `deliberate.yaml`, and OpenKruise's v1beta1 BroadcastJob e2e specs.
 * Scenarios: `test/parity/scenarios/broadcastjob/`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import type { ParityKind } from '../../kind.js';
import { DeliberateSchema } from '../../scenario.js';

/** The BroadcastJob's parity entry. */
export const broadcastJob: ParityKind = {
  name: 'broadcastjob',
  kind: 'BroadcastJob',
  resource: { group: 'apps.kruise.io', version: 'v1beta1', plural: 'broadcastjobs' },
  randomNameSuffix: 5,
  // OpenKruise's BroadcastJob records `TooManyActivePods` on every reconcile while active pods exceed parallelism
  perReconcileEventReasons: new Set(['TooManyActivePods']),
  conflictOnlyConditionTypes: new Set(),
  // BroadcastJobStatus has no observedGeneration (apis/apps/v1beta1/broadcastjob_types.go)
  noObservedGeneration: true,
  deliberate: z
    .array(DeliberateSchema)
    .parse(parse(readFileSync(new URL('deliberate.yaml', import.meta.url), 'utf8'))),
  upstreamE2e: { focusFiles: ['test/e2e/apps/v1beta1/broadcastjob.go'] },
};
