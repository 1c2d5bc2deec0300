/**
 * OpenKruise's validating webhook for PodUnavailableBudgets (`pkg/webhook/podunavailablebudget/validating`,
 * `vpodunavailablebudget.kb.io`, handler `Handle`, v1.9.0) as a {@link Validator} of v1beta1: a CREATE or UPDATE
 * refused with ./validation.ts `validatePodUnavailableBudget`'s errors as the handler answers them — HTTP 400
 * (`admission.Errored(http.StatusBadRequest, …)`). A write through v1alpha1 (the CRD stores v1beta1 with no conversion
 * webhook, so it arrives here as v1beta1 with `requestVersion` v1alpha1) is read as upstream's v1alpha1 branch reads
 * it: the deprecated annotations moved into the spec first, a failed move answered `failed to convert [old ]v1alpha1
 * PUB to v1beta1: …`. With both PUB gates off every write is refused, as upstream's. The other PUBs of the namespace
 * (the conflict rule) come from {@link PubValidationReads}; without them (the admission function where its role is not
 * bound, lib/runtime/validationReads.ts) that rule is skipped.
 */
import { verdictOf, withSpecObject, type Validator } from '../../../api/admission/validation.js';
import { isNotFound, listAll, type KubeClient } from '../../../kube/index.js';
import type { PubSettings } from '../settings.js';
import { PUB_RESOURCE } from './resource.js';
import type { PodUnavailableBudget } from './types.js';
import { PubConversionError, pubFromV1alpha1, validatePodUnavailableBudget } from './validation.js';

/** What the PUB validator reads from the cluster, as upstream's handler reads it. */
export interface PubValidationReads {
  /** The PUBs of `namespace`. @throws KubeApiError */
  pubs(namespace: string): Promise<PodUnavailableBudget[]>;
}

/** {@link PubValidationReads} over a cluster client; a missing CRD reads as no PUB. */
export function kubePubValidationReads(kube: Pick<KubeClient, 'list'>): PubValidationReads {
  return {
    pubs: (namespace) =>
      listAll(kube, PUB_RESOURCE, { namespace }).then(
        (l) => l.items,
        (e: unknown) => {
          if (isNotFound(e)) return [];
          throw e;
        },
      ),
  };
}

/** Options of {@link pubValidator}. */
export interface PubValidatorOptions {
  /** The PUB gates (absent: OpenKruise's defaults, deletions on). */
  settings?: PubSettings;
  /** The cluster reads; absent: the conflict rule is skipped. */
  reads?: PubValidationReads;
}

/** The message upstream answers every write with when both PUB gates are off. */
export const PUB_GATES_OFF_MESSAGE =
  'feature PodUnavailableBudget is invalid, please open via feature-gate(PodUnavailableBudgetDeleteGate, PodUnavailableBudgetUpdateGate)';

/** The PUB validator (`vpodunavailablebudget.kb.io`, CREATE and UPDATE of v1beta1 `podunavailablebudgets`). */
export function pubValidator(options: PubValidatorOptions = {}): Validator {
  return {
    webhookName: 'vpodunavailablebudget.kb.io',
    group: PUB_RESOURCE.group,
    resource: PUB_RESOURCE.plural,
    version: PUB_RESOURCE.version,
    operations: ['CREATE', 'UPDATE'],
    async validate({ operation, object, oldObject, requestVersion }) {
      const gates = options.settings ?? {};
      if (!(gates.deleteGate ?? true) && !(gates.updateGate ?? false))
        return { allowed: false, code: 400, message: PUB_GATES_OFF_MESSAGE };
      const alpha = requestVersion === 'v1alpha1';
      const read = (o: unknown, which: string): PodUnavailableBudget | string => {
        const pub = withSpecObject<PodUnavailableBudget>(o);
        const withMeta = { ...pub, metadata: pub.metadata ?? {} };
        if (!alpha) return withMeta;
        try {
          return pubFromV1alpha1(withMeta);
        } catch (e) {
          if (e instanceof PubConversionError)
            return `failed to convert ${which}v1alpha1 PUB to v1beta1: ${e.message}`;
          throw e;
        }
      };
      const pub = read(object, '');
      if (typeof pub === 'string') return { allowed: false, code: 400, message: pub };
      let old: PodUnavailableBudget | undefined;
      if (operation === 'UPDATE' && oldObject) {
        const o = read(oldObject, 'old ');
        if (typeof o === 'string') return { allowed: false, code: 400, message: o };
        old = o;
      }
      const others = options.reads ? await options.reads.pubs(pub.metadata.namespace ?? '') : undefined;
      const errors = validatePodUnavailableBudget(pub, {
        ...(old ? { old } : {}),
        ...(others ? { others } : {}),
      });
      return verdictOf(errors, 400);
    },
  };
}
