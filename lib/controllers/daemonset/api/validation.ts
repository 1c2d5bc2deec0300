/**
 * OpenKruise: pkg/webhook/daemonset/validating/daemonset_validation.go `validateDaemonSetV1beta1` and
 * `validateDaemonSetSpecV1beta1` (v1.9.0), on the v1beta1 object after the mutating webhook's defaults (./defaults.ts).
 *
 * What OpenKruise's validating webhook refuses at create. No DaemonSet validating webhook answers in Kruiseless, so
 * the pass runs these rules on the DaemonSet it reads and reports an invalid one (a `FailedValidation` condition and
 * Warning Event) instead of acting on it. Of Kubernetes' `ValidatePodTemplateSpec` only the template's labels are
 * checked: the API server validates each pod it is asked to create, and refuses it with its own message
 * (`FailedCreate`). Field paths are upstream's, `rollingUpdate.rollingUpdate.type` and `.partition` included.
 */
import type { FieldError } from '../../../api/errors.js';
import { goLabelSelector, goStringMap } from '../../../api/goPrint.js';
import {
  forbidden,
  invalid,
  invalidPrinted,
  goIntOrString,
  labelsErrors,
  nonNegative,
  notMoreThan100PercentErrors,
  notSupported,
  percentValue,
  positiveIntOrPercentErrors,
  required,
  selectorErrors,
  subdomainErrors,
} from '../../../api/fieldValidation.js';
import { InvalidSelectorError, isEmptySelector, selectorMatches } from '../../../api/selector.js';
import type { IntOrString } from '../../../api/types.js';
import type { DaemonSet, DaemonSetSpec, RollingUpdateDaemonSet } from './types.js';

/** Upstream `getIntOrPercentValue`: a valid percentage's number, else the value as an integer (0 for other text). */
function intOrPercentValue(v: IntOrString): number {
  if (typeof v === 'number') return v;
  const pct = percentValue(v);
  if (pct !== undefined) return pct;
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** The selector and template-label rules: valid, matching the template's labels, not empty. */
function selectorRules(spec: DaemonSetSpec): FieldError[] {
  const out: FieldError[] = [];
  const sel = spec.selector;
  const labels = spec.template?.metadata?.labels;
  if (sel) out.push(...selectorErrors(sel, 'spec.selector'));
  let matches = false; // an absent selector selects nothing
  let parsed = true;
  if (sel) {
    try {
      matches = selectorMatches(sel, labels);
    } catch (e) {
      if (!(e instanceof InvalidSelectorError)) throw e;
      parsed = false;
    }
  }
  if (parsed && !matches)
    out.push(
      invalidPrinted(
        'spec.template.metadata.labels',
        goStringMap(labels),
        '`selector` does not match template `labels`',
      ),
    );
  if (sel && isEmptySelector(sel))
    out.push(
      invalidPrinted('spec.selector', goLabelSelector(sel), 'empty selector is invalid for daemonset'),
    );
  out.push(...labelsErrors(labels, 'spec.template.metadata.labels'));
  return out;
}

/** Upstream `validateRollingUpdateDaemonSetV1beta1`. */
function rollingUpdateRules(ru: RollingUpdateDaemonSet): FieldError[] {
  const p = 'spec.updateStrategy.rollingUpdate';
  const out: FieldError[] = [];
  const unavailable = ru.maxUnavailable !== undefined && intOrPercentValue(ru.maxUnavailable) !== 0;
  const surge = ru.maxSurge !== undefined && intOrPercentValue(ru.maxSurge) !== 0;
  for (const [set, value, path] of [
    [unavailable, ru.maxUnavailable, `${p}.maxUnavailable`],
    [surge, ru.maxSurge, `${p}.maxSurge`],
  ] as const) {
    if (!set || value === undefined) continue;
    out.push(...positiveIntOrPercentErrors(value, path), ...notMoreThan100PercentErrors(value, path));
  }
  if (unavailable && surge && ru.maxSurge !== undefined)
    out.push(
      invalidPrinted(
        `${p}.maxSurge`,
        goIntOrString(ru.maxSurge),
        'may not be set when maxUnavailable is non-zero',
      ),
    );
  if (!unavailable && !surge) out.push(required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  const type = ru.rollingUpdateType ?? '';
  if (type === 'InPlaceIfPossible') {
    if (surge) out.push(required(`${p}.maxSurge`, 'must be 0 for InPlaceIfPossible type'));
  } else if (type !== '' && type !== 'Standard') {
    out.push(notSupported(`${p}.rollingUpdate.type`, type, ['Standard', 'InPlaceIfPossible']));
  }
  if (ru.partition !== undefined) {
    const path = `${p}.rollingUpdate.partition`;
    out.push(
      ...(typeof ru.partition === 'number'
        ? nonNegative(ru.partition, path)
        : positiveIntOrPercentErrors(ru.partition, path)),
      ...notMoreThan100PercentErrors(ru.partition, path),
    );
  }
  return out;
}

/** Upstream `validateDaemonSetUpdateStrategyV1beta1`. */
function updateStrategyRules(spec: DaemonSetSpec): FieldError[] {
  const strategy = spec.updateStrategy ?? {};
  if (strategy.type === 'OnDelete') return [];
  if (strategy.type === 'RollingUpdate')
    return strategy.rollingUpdate
      ? rollingUpdateRules(strategy.rollingUpdate)
      : [required('spec.updateStrategy.rollingUpdate')];
  return [notSupported('spec.updateStrategy', strategy, ['RollingUpdate', 'OnDelete'])];
}

/**
 * The webhook's errors for `ds` (defaults applied), in its order: the name (a DNS subdomain); the selector (valid,
 * matching the template's labels, not empty) and the template's labels; the template's `restartPolicy` (empty is the
 * `Always` the webhook's validation defaults first) and `activeDeadlineSeconds`; `minReadySeconds` ≥ 0; the update
 * strategy (`maxUnavailable` / `maxSurge` exactly one non-zero, each a valid int or percentage up to 100%; `maxSurge`
 * 0 for `InPlaceIfPossible`; type `Standard` or `InPlaceIfPossible`; `partition` ≥ 0 and up to 100%);
 * `revisionHistoryLimit` ≥ 0; no `lifecycle.inPlaceUpdate` hook.
 * @returns the errors, empty for a valid DaemonSet
 */
export function validateDaemonSet(ds: DaemonSet): FieldError[] {
  const spec = ds.spec;
  const name = ds.metadata.name ?? '';
  const out: FieldError[] = subdomainErrors(name).map((e) => invalid('metadata.name', name, e));
  out.push(...selectorRules(spec));
  const restartPolicy = spec.template?.spec?.restartPolicy || 'Always';
  if (restartPolicy !== 'Always')
    out.push(notSupported('spec.template.spec.restartPolicy', restartPolicy, ['Always']));
  const deadline = spec.template?.spec?.activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null)
    out.push(
      forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        'activeDeadlineSeconds in DaemonSet is not Supported',
      ),
    );
  out.push(...nonNegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'));
  out.push(...updateStrategyRules(spec));
  if (spec.revisionHistoryLimit !== undefined)
    out.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (spec.lifecycle?.inPlaceUpdate)
    out.push(forbidden('spec.lifecycle.inPlaceUpdate', 'inPlaceUpdate hook has not supported yet'));
  return out;
}
