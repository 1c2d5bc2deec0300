/**
 * OpenKruise's validating webhook for CloneSets (`pkg/webhook/cloneset/validating`, `vcloneset.kb.io`, handler
 * `Handle`) as a {@link Validator}: a CREATE is refused with the rules of ./validation.ts `validateCloneSet`, an
 * UPDATE with those and the update rules (only the listed spec fields may change; InPlaceOnly changes images only),
 * each as `admission.Errored(422, errors.ToAggregate())`. The webhook takes v1alpha1 (the stored version); a write
 * through v1beta1 reaches it converted and is converted back and checked with OpenKruise's v1beta1 rules instead
 * (./validationV1beta1.ts), as OpenKruise's handler picks its rules by the request's version; only such a write may
 * ask for `OnDelete`. The object is defaulted in memory first (as the mutating webhook, where it was called, left it).
 *
 * With {@link CloneSetValidationReads} (kruiseless local), also upstream's `validateScaleStrategy` reads: each name
 * newly added to `scaleStrategy.podsToDelete` must be a pod of the namespace, not terminating, controlled by this
 * CloneSet; those errors go where upstream's spec validation puts them, before the update-strategy ones (a v1alpha1
 * write only: upstream's v1beta1 rules read nothing). Without the reads (the admission function) that rule is
 * skipped, as the controller skips it. Not checked: deletion protection
 * (gate `ResourcesDeletionProtection`, off by default in OpenKruise v1.9.0).
 */
import { isDeepStrictEqual } from 'node:util';
import { verdictOf, withSpecObject, type Validator } from '../../../api/admission/validation.js';
import type { FieldError } from '../../../api/errors.js';
import { invalid } from '../../../api/fieldValidation.js';
import type { CloneSet, Pod } from '../../../api/types.js';
import type { JsonObject } from '../../../api/types.js';
import type { CloneSetV1beta1 } from '../../../api/v1beta1.js';
import { convertCloneSet } from './conversion.js';
import { applyDefaults, applyV1beta1Defaults } from './defaults.js';
import { CLONESET_RESOURCE } from './resource.js';
import { validateCloneSet } from './validation.js';
import { validateCloneSetV1beta1 } from './validationV1beta1.js';

/** What the CloneSet validator reads from the cluster. */
export interface CloneSetValidationReads {
  /**
   * The pod `name` of `namespace`, or `undefined` when there is none.
   * @throws Error (its message shown in the refusal) for any other failed read
   */
  getPod(namespace: string, name: string): Promise<Pod | undefined>;
}

/** Options of {@link cloneSetValidator}. */
export interface CloneSetValidatorOptions {
  /** Gate `TemplateNoDefaults`: the template is validated as stored. */
  templateNoDefaults?: boolean;
  /** The pod reads of the `podsToDelete` rule; absent: that rule is skipped. */
  reads?: CloneSetValidationReads;
}

/**
 * Upstream `validateScaleStrategy`'s reads: the names `cs` lists in `podsToDelete` that `old` did not, in name order,
 * each refused when no such pod exists (`Pod "<name>" not found`, as controller-runtime's client words it), when it is
 * terminating, or when its controller is not `cs` (by UID). Skipped when the list has duplicates (refused already).
 */
export async function podsToDeleteErrors(
  cs: CloneSet,
  old: CloneSet | undefined,
  reads: CloneSetValidationReads,
): Promise<FieldError[]> {
  const names = cs.spec.scaleStrategy?.podsToDelete ?? [];
  if (new Set(names).size !== names.length) return [];
  const before = new Set(old?.spec.scaleStrategy?.podsToDelete ?? []);
  const added = [...new Set(names)].filter((n) => !before.has(n)).sort();
  const namespace = cs.metadata.namespace ?? 'default';
  const path = 'spec.scaleStrategy.podsToDelete';
  const out: FieldError[] = [];
  for (const name of added) {
    const pod = await reads.getPod(namespace, name);
    if (!pod) out.push(invalid(path, name, `find pod ${name} failed: Pod "${name}" not found`));
    else if (pod.metadata.deletionTimestamp)
      out.push(invalid(path, name, `find pod ${name} already terminating`));
    else {
      const owner = pod.metadata.ownerReferences?.find((r) => r.controller === true);
      if (!owner || !cs.metadata.uid || owner.uid !== cs.metadata.uid)
        out.push(invalid(path, name, `find pod ${name} owner is not this CloneSet`));
    }
  }
  return out;
}

/** `errors` with `inserted` placed before the first update-strategy or progress-deadline error, as upstream orders them. */
function beforeUpdateStrategy(errors: FieldError[], inserted: FieldError[]): FieldError[] {
  const at = errors.findIndex(
    (e) => e.path.startsWith('spec.updateStrategy') || e.path.startsWith('spec.progressDeadlineSeconds'),
  );
  return at < 0 ? [...errors, ...inserted] : [...errors.slice(0, at), ...inserted, ...errors.slice(at)];
}

/**
 * `errors` without those the stored object already has, word for word (`stored`: its create-time errors), as the API
 * server ratchets a CRD's rules: a v1alpha1 UPDATE that leaves an old breach as it was is not refused for it. A
 * CloneSet written through v1beta1 may break v1alpha1's rules (`OnDelete`, a progressDeadlineSeconds not above
 * minReadySeconds: OpenKruise's v1beta1 rules let both through), and Kruiseless's controller writes through v1alpha1
 * (its `podsToDelete` truncation) where OpenKruise's writes through v1beta1. Applied only to such a write
 * ({@link onlyPodsToDeleteDropped}): any other v1alpha1 edit of the object is refused for the old breach, as
 * OpenKruise's webhook refuses it.
 */
function ratcheted(errors: FieldError[], stored: readonly FieldError[]): FieldError[] {
  const known = new Set(stored.map((e) => `${e.path}\n${e.message}`));
  return errors.filter((e) => !known.has(`${e.path}\n${e.message}`));
}

/**
 * True when `cs`'s spec is `old`'s with some names dropped from `scaleStrategy.podsToDelete` and nothing else
 * changed: the write of the controller's truncation (../write.ts `patchCloneSetPodsToDelete`, a merge patch of
 * that list alone, `null` when it empties). Metadata is not compared (the API server moves it on every write).
 */
export function onlyPodsToDeleteDropped(cs: CloneSet, old: CloneSet): boolean {
  const names = cs.spec.scaleStrategy?.podsToDelete ?? [];
  const before = old.spec.scaleStrategy?.podsToDelete ?? [];
  const kept = new Set(before);
  if (names.length >= before.length || !names.every((n) => kept.has(n))) return false;
  return isDeepStrictEqual(withoutPodsToDelete(cs.spec), withoutPodsToDelete(old.spec));
}

/** `spec` without `scaleStrategy.podsToDelete` (and without a `scaleStrategy` left empty by its removal). */
function withoutPodsToDelete(spec: CloneSet['spec']): CloneSet['spec'] {
  const { scaleStrategy, ...rest } = spec;
  if (!scaleStrategy) return rest;
  const { podsToDelete: _dropped, ...strategy } = scaleStrategy;
  return Object.keys(strategy).length > 0 ? { ...rest, scaleStrategy: strategy } : rest;
}

/** The CloneSet validator (`vcloneset.kb.io`, CREATE and UPDATE of v1alpha1 `clonesets`). */
export function cloneSetValidator(options: CloneSetValidatorOptions = {}): Validator {
  const templateNoDefaults = options.templateNoDefaults ?? false;
  const defaulted = (o: unknown): CloneSet =>
    applyDefaults(withSpecObject<CloneSet>(o), { templateNoDefaults });
  // a v1beta1 write reaches the webhook converted to v1alpha1 by Kruiseless's /convert, whose marker makes the way
  // back exact: the object as written, defaulted as the mutating webhook left it
  const asV1beta1 = (o: unknown): CloneSetV1beta1 =>
    applyV1beta1Defaults(
      convertCloneSet(withSpecObject<JsonObject>(o), 'v1alpha1', 'v1beta1') as unknown as CloneSetV1beta1,
      { templateNoDefaults },
    );
  return {
    webhookName: 'vcloneset.kb.io',
    group: CLONESET_RESOURCE.group,
    resource: CLONESET_RESOURCE.plural,
    version: 'v1alpha1',
    operations: ['CREATE', 'UPDATE'],
    async validate({ operation, object, oldObject, requestVersion }) {
      if (requestVersion === 'v1beta1') {
        const old = operation === 'UPDATE' && oldObject ? asV1beta1(oldObject) : undefined;
        return verdictOf(validateCloneSetV1beta1(asV1beta1(object), old));
      }
      const opts = { allowOnDelete: false };
      const cs = defaulted(object);
      const old = operation === 'UPDATE' && oldObject ? defaulted(oldObject) : undefined;
      const errors = !old
        ? validateCloneSet(cs, undefined, opts)
        : onlyPodsToDeleteDropped(cs, old)
          ? ratcheted(validateCloneSet(cs, old, opts), validateCloneSet(old, undefined, opts))
          : validateCloneSet(cs, old, opts);
      const reads = options.reads;
      if (!reads) return verdictOf(errors);
      return verdictOf(beforeUpdateStrategy(errors, await podsToDeleteErrors(cs, old, reads)));
    },
  };
}
