/**
 * Kubernetes' `ValidateTolerations` (k8s.io/kubernetes v1.32 pkg/apis/core/validation, the version OpenKruise v1.9.0
 * builds with): the rules of a pod's tolerations, with their paths and words, for the webhooks that validate
 * tolerations outside a pod (OpenKruise's WorkloadSpread subsets). Pure.
 */
import type { FieldError } from './errors.js';
import { invalid, labelValueErrors, notSupported, qualifiedNameErrors } from './fieldValidation.js';
import type { Toleration } from './node.js';

/** The taint effects a toleration may name (`validateTaintEffect`; `NoScheduleNoAdmit` is not implemented there). */
const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/**
 * The errors of `tolerations` at `path` (`<path>[i].key`, `.operator`, `.effect`), in Kubernetes' order for each
 * toleration: the key as a label name, an empty key with an operator other than Exists, `tolerationSeconds` without
 * NoExecute, the value for the operator (a label value for Equal or none, empty for Exists, else the operator is
 * unsupported), then a non-empty effect that is not one of {@link EFFECTS}.
 * @param tolerations as stored (`corev1.Toleration`; an absent operator means Equal)
 * @param path the list's field path, e.g. `spec.subsets[0].tolerations`
 * @returns `[]` when every toleration is valid
 */
export function tolerationErrors(tolerations: readonly Toleration[], path: string): FieldError[] {
  const out: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const p = `${path}[${i}]`;
    const key = t.key ?? '';
    const operator = t.operator ?? '';
    const value = t.value ?? '';
    const effect = t.effect ?? '';
    if (key !== '') for (const e of qualifiedNameErrors(key)) out.push(invalid(`${p}.key`, key, e));
    if (key === '' && operator !== 'Exists')
      out.push(
        invalid(
          `${p}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute')
      out.push(invalid(`${p}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    if (operator === 'Equal' || operator === '') {
      const errs = labelValueErrors(value);
      if (errs.length > 0) out.push(invalid(`${p}.operator`, value, errs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '')
        out.push(invalid(`${p}.operator`, value, "value must be empty when `operator` is 'Exists'"));
    } else out.push(notSupported(`${p}.operator`, operator, ['Equal', 'Exists']));
    if (effect !== '' && !(EFFECTS as readonly string[]).includes(effect))
      out.push(notSupported(`${p}.effect`, effect, EFFECTS));
  });
  return out;
}
