/**
 * OpenKruise's mutating webhook for Advanced DaemonSets (`pkg/webhook/daemonset/mutating`, `Handle`) as a
 * {@link Mutator}: a v1beta1 DaemonSet (a v1alpha1 request reaches it converted, the API server's `Equivalent` match)
 * that `SetDefaultsDaemonSetV1beta1` (./defaults.ts `withSpecDefaults`) changes is stored with those defaults as the
 * webhook's Go round trip writes it (lib/api/admission/templateDefaulting.ts: canonical quantities, the template's
 * `creationTimestamp: null` and `resources: {}`, no empty `omitempty` field). One the defaults leave unchanged is
 * allowed as sent, zeros and all, as the webhook answers it without a patch. Unlike the Advanced StatefulSet's, this
 * webhook does not default the pod template, and it compares the status too (which it does not change).
 */
import type { Mutator } from '../../../api/admission/mutation.js';
import { goDefaultingMutator } from '../../../api/admission/templateDefaulting.js';
import { withSpecDefaults } from './defaults.js';
import { DAEMONSET_RESOURCE } from './resource.js';
import type { DaemonSet } from './types.js';

/** The Advanced DaemonSet mutator (no gate changes its defaults in OpenKruise v1.9.0). */
export const daemonSetMutator: Mutator = goDefaultingMutator<DaemonSet>({
  group: DAEMONSET_RESOURCE.group,
  version: DAEMONSET_RESOURCE.version,
  resource: DAEMONSET_RESOURCE.plural,
  specType: 'v1beta1.DaemonSetSpec',
  specDefaults: withSpecDefaults,
  clearsStatus: false,
});
