/**
 * Advanced StatefulSet in the parity harness: `apps.kruise.io/v1beta1 statefulsets` (the version both OpenKruise and
 * Kruiseless's CRD store), pods named `<name>-<ordinal>` and PVCs `<template>-<pod>` (nothing random: names are
 * compared as they are), no instance-id label, no field naming pods to delete (specified delete is the
 * `apps.kruise.io/specified-delete` pod label, a `label` step), the differences of `deliberate.yaml`, and OpenKruise's
 * v1beta1 StatefulSet e2e specs. Scenarios: `test/parity/scenarios/statefulset/`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse } from 'yaml';
import type { ParityKind } from '../../kind.js';
import { DeliberateSchema } from '../../scenario.js';

/** The Advanced StatefulSet's parity entry. */
export const statefulSet: ParityKind = {
  name: 'statefulset',
  kind: 'StatefulSet',
  resource: { group: 'apps.kruise.io', version: 'v1beta1', plural: 'statefulsets' },
  // OpenKruise's StatefulSet records no Event on every reconcile while a limit holds
  perReconcileEventReasons: new Set(),
  // OpenKruise: `updateStatefulSetStatus`'s FailedUpdatePod condition (pkg/controller/statefulset/
  // stateful_set_control.go) keeps the API server's conflict message when a pod update met a stale cache
  conflictOnlyConditionTypes: new Set(['FailedUpdatePod']),
  deliberate: z
    .array(DeliberateSchema)
    .parse(parse(readFileSync(new URL('deliberate.yaml', import.meta.url), 'utf8'))),
  upstreamE2e: { focusFiles: ['test/e2e/apps/v1beta1/statefulset.go'] },
};
