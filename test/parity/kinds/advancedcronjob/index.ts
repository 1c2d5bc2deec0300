/**
 * AdvancedCronJob in the parity harness: `apps.kruise.io/v1beta1 advancedcronjobs` (the version OpenKruise and
 * Kruiseless's CRD store); its Jobs are named `<name>-<Unix seconds of the scheduled time>` and their pods
 * `<name>-<seconds>-<5 random characters>`, both normalised to `<name>-<id>` (the scheduled time is the clock's);
 * no instance-id label, no field naming pods to delete, the differences of `deliberate.yaml`, and OpenKruise's
 * v1beta1 AdvancedCronJob e2e specs. Scenarios: `test/parity/scenarios/advancedcronjob/`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import type { ParityKind } from '../../kind.js';
import { DeliberateSchema } from '../../scenario.js';

/** The AdvancedCronJob's parity entry. */
export const advancedCronJob: ParityKind = {
  name: 'advancedcronjob',
  kind: 'AdvancedCronJob',
  resource: { group: 'apps.kruise.io', version: 'v1beta1', plural: 'advancedcronjobs' },
  nameSuffixPattern: '\\d{9,11}(?:-[a-z0-9]{5})?',
  noObservedGeneration: true,
  perReconcileEventReasons: new Set(),
  conflictOnlyConditionTypes: new Set(),
  deliberate: z
    .array(DeliberateSchema)
    .parse(parse(readFileSync(new URL('deliberate.yaml', import.meta.url), 'utf8'))),
  upstreamE2e: { focusFiles: ['test/e2e/apps/v1beta1/advancedcronjob.go'] },
};
