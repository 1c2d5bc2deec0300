/**
 * CloneSet in the parity harness: `apps.kruise.io/v1alpha1` (the version Kruiseless's CRD serves), pods named
 * `<CloneSet name>-<instance id>` and labelled with that id, `ScaleUpLimited` recorded on every limited reconcile,
 * `scaleStrategy.podsToDelete`, the differences of `deliberate.yaml`, and OpenKruise's v1alpha1 CloneSet e2e specs.
 * Scenarios: `test/parity/scenarios/cloneset/`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import type { ParityKind } from '../../kind.js';
import { DeliberateSchema } from '../../scenario.js';

/** The CloneSet's parity entry. */
export const cloneSet: ParityKind = {
  name: 'cloneset',
  kind: 'CloneSet',
  resource: { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'clonesets' },
  // OpenKruise: `appspub.CloneSetInstanceID` in apis/apps/pub/cloneset.go
  instanceIdLabel: 'apps.kruise.io/cloneset-instance-id',
  // pod and PVC names end in `<CloneSet name>-<5-character instance id>` (revision names have 10 characters)
  randomNameSuffix: 5,
  perReconcileEventReasons: new Set(['ScaleUpLimited']),
  // OpenKruise's CloneSet controller keeps a FailedUpdate condition with the conflict until the next real failure,
  // and a FailedScale one when it recreated a deleted pod under its name before the old one was gone
  conflictOnlyConditionTypes: new Set(['FailedUpdate', 'FailedScale']),
  deletePodsPatch: (names, replicas) => ({
    spec: { ...(replicas === undefined ? {} : { replicas }), scaleStrategy: { podsToDelete: names } },
  }),
  deliberate: z
    .array(DeliberateSchema)
    .parse(parse(readFileSync(new URL('deliberate.yaml', import.meta.url), 'utf8'))),
  // v1.9.0 names its CloneSet specs `CloneSet …` in both apps/v1alpha1 and apps/v1beta1 (the `[apps] CloneSet`
  // prefix of v1.8.2 is gone), so the file, not the name, picks the v1alpha1 ones
  upstreamE2e: { focusFiles: ['test/e2e/apps/v1alpha1/cloneset.go'] },
};
