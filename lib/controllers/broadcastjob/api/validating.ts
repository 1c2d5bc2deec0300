/**
 * OpenKruise's validating webhook for BroadcastJobs (`pkg/webhook/broadcastjob/validating`, `vbroadcastjob.kb.io`,
 * handler `Handle`) as a {@link Validator} of v1beta1 (v1alpha1 has the same fields): a CREATE or an UPDATE refused
 * with ./validation.ts `validateBroadcastJob`'s errors as the handler answers them — the validation error returned as
 * the handler's error, so `admission.Errored(500, …)`. The object is defaulted in memory first (./defaults.ts), as
 * `/mutate` stores it.
 */
import { verdictOf, withSpecObject, type Validator } from '../../../api/admission/validation.js';
import { withDefaults } from './defaults.js';
import { BROADCASTJOB_RESOURCE } from './resource.js';
import type { BroadcastJob } from './types.js';
import { validateBroadcastJob } from './validation.js';

/** The BroadcastJob validator (`vbroadcastjob.kb.io`, CREATE and UPDATE of v1beta1 `broadcastjobs`). */
export const broadcastJobValidator: Validator = {
  webhookName: 'vbroadcastjob.kb.io',
  group: BROADCASTJOB_RESOURCE.group,
  resource: BROADCASTJOB_RESOURCE.plural,
  version: BROADCASTJOB_RESOURCE.version,
  operations: ['CREATE', 'UPDATE'],
  validate({ object }) {
    return verdictOf(validateBroadcastJob(withDefaults(withSpecObject<BroadcastJob>(object))), 500);
  },
};
