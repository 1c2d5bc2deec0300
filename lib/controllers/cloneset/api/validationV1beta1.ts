/**
 * OpenKruise v1.9.0's validation of a CloneSet written through `v1beta1` (pkg/webhook/cloneset/validating/validation.go
 * `ValidateCloneSetV1beta1`, `ValidateCloneSetUpdateV1beta1`; its webhook's `Handle` picks them by the request's
 * version): the spec rules v1alpha1 shares (./validation.ts `sharedSpecErrors`, `frozenSpecErrors`) and v1beta1's own
 * update strategy. It has none of v1alpha1's progressDeadlineSeconds rule, InPlaceOnly images-only update rule or
 * `podsToDelete` reads. Pure.
 */
import type { FieldError } from '../../../api/errors.js';
import {
  goIntOrStringPointer,
  invalid,
  invalidPrinted,
  nonNegative,
  priorityStrategyError,
  required,
  scatterStrategyError,
  subdomainErrors,
} from '../../../api/fieldValidation.js';
import { parseInt32, parseInt32Error } from '../../../api/int32.js';
import type { IntOrString } from '../../../api/types.js';
import type { CloneSetUpdateStrategyV1beta1, CloneSetV1beta1 } from '../../../api/v1beta1.js';
import { frozenSpecErrors, scaled, sharedSpecErrors } from './validation.js';

const RU = 'spec.updateStrategy.rollingUpdate';
const PRE_DOWNLOAD = `${RU}.inPlaceUpdateStrategy`;

/** `imagePreDownloadParallelism`: an integer ≥ 0, or a string of one; never a percentage. */
function parallelismErrors(value: IntOrString): FieldError[] {
  const path = `${PRE_DOWNLOAD}.imagePreDownloadParallelism`;
  if (typeof value === 'number')
    return value < 0 ? [invalid(path, value, 'imagePreDownloadParallelism must be non-negative')] : [];
  if (value.endsWith('%'))
    return [invalid(path, value, 'imagePreDownloadParallelism does not support percentage value')];
  const n = parseInt32(value);
  if (n === undefined)
    return [
      invalid(path, value, `imagePreDownloadParallelism must be a valid integer: ${parseInt32Error(value)}`),
    ];
  return n < 0 ? [invalid(path, value, 'imagePreDownloadParallelism must be non-negative')] : [];
}

/**
 * v1beta1's `updateStrategy` (upstream `validateUpdateStrategyV1beta1`): `type` RollingUpdate, OnDelete or empty; and
 * only when a `rollingUpdate` block is present, its `podUpdatePolicy`, partition (a missing one is refused, as
 * upstream's scaler refuses nil), priority and scatter strategies, maxUnavailable and maxSurge (not both below 1 when
 * replicas > 0; no maxSurge with InPlaceOnly) and the pre-download fields.
 */
function updateStrategyErrors(us: CloneSetUpdateStrategyV1beta1, replicas: number): FieldError[] {
  const out: FieldError[] = [];
  if (us.type !== undefined && us.type !== '' && us.type !== 'RollingUpdate' && us.type !== 'OnDelete')
    out.push(invalid('spec.updateStrategy.type', us.type, "must be 'RollingUpdate' or 'OnDelete'"));
  const ru = us.rollingUpdate;
  if (!ru) return out;
  const policy = ru.podUpdatePolicy;
  if (policy && policy !== 'ReCreate' && policy !== 'InPlaceIfPossible' && policy !== 'InPlaceOnly')
    out.push(
      invalid(`${RU}.podUpdatePolicy`, policy, "must be 'ReCreate', 'InPlaceIfPossible' or 'InPlaceOnly'"),
    );
  let partition = 0;
  if (ru.partition === undefined || ru.partition === null)
    out.push(
      invalid(
        `${RU}.partition`,
        '<nil>',
        'failed GetScaledValueFromIntOrPercent for partition: nil value for IntOrString',
      ),
    );
  else partition = scaled(ru.partition, replicas, `${RU}.partition`, 'partition', out);
  out.push(...nonNegative(partition, `${RU}.partition`));
  const pe = priorityStrategyError(ru.priorityStrategy);
  if (pe) out.push(required(`${RU}.priorityStrategy`, pe));
  const se = scatterStrategyError(ru.scatterStrategy);
  if (se) out.push(required(`${RU}.scatterStrategy`, se));
  const mu = scaled(ru.maxUnavailable, replicas, `${RU}.maxUnavailable`, 'maxUnavailable', out);
  const ms = scaled(ru.maxSurge, replicas, `${RU}.maxSurge`, 'maxSurge', out);
  if (ru.maxSurge !== undefined && policy === 'InPlaceOnly' && ms > 0)
    out.push(
      invalid(`${RU}.maxSurge`, String(ru.maxSurge), 'can not use maxSurge with podUpdatePolicy InPlaceOnly'),
    );
  if (replicas > 0 && mu < 1 && ms < 1)
    out.push(
      invalidPrinted(
        `${RU}.maxUnavailable`,
        goIntOrStringPointer(ru.maxUnavailable),
        'maxUnavailable and maxSurge should not both be less than 1',
      ),
    );
  const ips = ru.inPlaceUpdateStrategy;
  if (ips) {
    if (ips.imagePreDownloadParallelism !== undefined && ips.imagePreDownloadParallelism !== null)
      out.push(...parallelismErrors(ips.imagePreDownloadParallelism));
    if (typeof ips.imagePreDownloadTimeoutSeconds === 'number')
      out.push(
        ...nonNegative(ips.imagePreDownloadTimeoutSeconds, `${PRE_DOWNLOAD}.imagePreDownloadTimeoutSeconds`),
      );
    if (typeof ips.imagePreDownloadMinUpdatedReadyPods === 'number')
      out.push(
        ...nonNegative(
          ips.imagePreDownloadMinUpdatedReadyPods,
          `${PRE_DOWNLOAD}.imagePreDownloadMinUpdatedReadyPods`,
        ),
      );
  }
  return out;
}

/**
 * Every error OpenKruise's webhook reports for a CloneSet written through v1beta1, in its order; `[]` when valid.
 * With `old` (an UPDATE): first the fields that may not change (the same list as v1alpha1's), then the rules of a
 * create. Checks the object's name (a DNS subdomain), the spec rules both versions share, and v1beta1's update
 * strategy. Expects the v1beta1 defaults applied (./defaults.ts `applyV1beta1Defaults`), as the mutating webhook
 * leaves the object before validation.
 * @param cs the CloneSet as written, in v1beta1's shape
 * @param old the stored CloneSet in v1beta1's shape (UPDATE)
 */
export function validateCloneSetV1beta1(cs: CloneSetV1beta1, old?: CloneSetV1beta1): FieldError[] {
  const out: FieldError[] = old ? frozenSpecErrors(cs.spec, old.spec) : [];
  const name = cs.metadata?.name;
  if (name !== undefined) for (const e of subdomainErrors(name)) out.push(invalid('metadata.name', name, e));
  out.push(...sharedSpecErrors(cs.spec));
  out.push(...updateStrategyErrors(cs.spec.updateStrategy ?? {}, cs.spec.replicas ?? 1));
  return out;
}
