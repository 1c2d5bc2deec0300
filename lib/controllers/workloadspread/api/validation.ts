/**
 * OpenKruise: pkg/webhook/workloadspread/validating/workloadspread_validation.go `validateWorkloadSpreadSpec`,
 * `validateWorkloadSpreadSubsets`, `validateWorkloadSpreadConflict` and `validateWorkloadSpreadTargetRefUpdate`
 * (v1.9.0).
 *
 * The rules of the WorkloadSpread validating webhook (`vworkloadspread.kb.io`), pure: the caller passes the stored
 * object on an update and the other WorkloadSpreads of the namespace when it can read them. Messages are Kubernetes'
 * `field.Error` forms. A subset's `patch` is merged into the target's pod template when the caller read it (upstream
 * reads the target and skips the check when it cannot) and the result checked by the part of Kubernetes' pod
 * validation lib/api/podSpecValidation.ts has. A target of another Kind is allowed when the custom-workload whitelist
 * (./customWorkloads.ts) names its group and Kind. Kruiseless gaps: the rest of that validation, and object-metadata
 * update rules are left to the API server.
 */
import type { FieldError } from '../../../api/errors.js';
import { parseGroupVersion } from '../../../api/groupVersion.js';
import {
  goIntOrString,
  invalidPrinted,
  labelValueErrors,
  qualifiedNameErrors,
  required,
} from '../../../api/fieldValidation.js';
import type { NodeSelectorTerm } from '../../../api/node.js';
import { goJson } from '../../../api/goJson.js';
import { defaultPodTemplate } from '../../../api/podTemplateDefaults.js';
import { podSpecErrors } from '../../../api/podSpecValidation.js';
import { tolerationErrors } from '../../../api/tolerationValidation.js';
import type {
  Container,
  IntOrString,
  JsonObject,
  JsonValue,
  LabelSelector,
  PodTemplateSpec,
  Volume,
} from '../../../api/types.js';
import { strategicMergePod } from '../plan/strategicMerge.js';
import { isWhitelistedTarget, type CustomWorkload } from './customWorkloads.js';
import type { WorkloadSpread, WorkloadSpreadSubset, WorkloadSpreadTargetReference } from './types.js';

/** Go's `%#v` of a `v1beta1.TargetReference`. */
function goTargetRef(ref: WorkloadSpreadTargetReference): string {
  return `v1beta1.TargetReference{APIVersion:${JSON.stringify(ref.apiVersion ?? '')}, Kind:${JSON.stringify(
    ref.kind ?? '',
  )}, Name:${JSON.stringify(ref.name ?? '')}}`;
}

/** Go's `%q` of a string slice element list, `%#v` of the slice: `[]string{"a", "b"}` or `[]string(nil)`. */
function goStrings(values: readonly string[] | undefined): string {
  return values && values.length > 0
    ? `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`
    : '[]string(nil)';
}

/** `schema.ParseGroupVersion`'s group, undefined for a string it refuses (more than one slash). */
function groupOfVersion(apiVersion: string): string | undefined {
  const gv = parseGroupVersion(apiVersion);
  return 'error' in gv ? undefined : gv.group;
}

/** The groups each targetable Kind may have, and the words of its refusal. */
const TARGET_GROUPS: Readonly<Record<string, readonly string[]>> = {
  CloneSet: ['apps.kruise.io'],
  Deployment: ['apps'],
  ReplicaSet: ['apps'],
  Job: ['batch'],
  StatefulSet: ['apps', 'apps.kruise.io'],
};

/** Whether a WorkloadSpread's target is of a Kind outside the built-in ones (the whitelist then decides). */
export function isCustomTargetKind(kind: string | undefined): boolean {
  return !TARGET_GROUPS[kind ?? ''];
}

/** The whitelist as the validator got it: the workloads, or why it could not be read or parsed. */
export type CustomWorkloadsRead = readonly CustomWorkload[] | { error: string };

function targetRefErrors(
  ref: WorkloadSpreadTargetReference | undefined,
  customWorkloads: CustomWorkloadsRead,
): FieldError[] {
  const path = 'spec.targetRef';
  if (!ref) return [required(path, 'no targetRef defined in WorkloadSpread')];
  if (!ref.apiVersion || !ref.name || !ref.kind)
    return [invalidPrinted(path, goTargetRef(ref), 'empty TargetReference is not valid for WorkloadSpread.')];
  const groups = TARGET_GROUPS[ref.kind];
  if (!groups) {
    // upstream's field.InternalError when the whitelist cannot be read
    if ('error' in customWorkloads) return [{ path, message: `Internal error: ${customWorkloads.error}` }];
    const group = groupOfVersion(ref.apiVersion);
    return group !== undefined && isWhitelistedTarget(customWorkloads, group, ref.kind)
      ? []
      : [invalidPrinted(path, goTargetRef(ref), "TargetReference's GroupKind is not permitted.")];
  }
  const group = groupOfVersion(ref.apiVersion);
  return group !== undefined && groups.includes(group)
    ? []
    : [invalidPrinted(path, goTargetRef(ref), `TargetReference is not valid for ${ref.kind}.`)];
}

/** Kubernetes' `ValidateNodeSelectorRequirement` and `ValidateNodeFieldSelectorRequirement` over one term. */
function nodeSelectorTermErrors(term: NodeSelectorTerm, path: string, labelValues: boolean): FieldError[] {
  const out: FieldError[] = [];
  (term.matchExpressions ?? []).forEach((r, j) => {
    const p = `${path}.matchExpressions[${j}]`;
    const n = r.values?.length ?? 0;
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (n === 0)
          out.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (n > 0)
          out.push({
            path: `${p}.values`,
            message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          });
        break;
      case 'Gt':
      case 'Lt':
        if (n !== 1)
          out.push(required(`${p}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        break;
      default:
        out.push(
          invalidPrinted(`${p}.operator`, JSON.stringify(r.operator), 'not a valid selector operator'),
        );
    }
    for (const e of qualifiedNameErrors(r.key ?? ''))
      out.push(invalidPrinted(`${p}.key`, JSON.stringify(r.key ?? ''), e));
    if (labelValues)
      (r.values ?? []).forEach((v, k) => {
        for (const e of labelValueErrors(v))
          out.push(invalidPrinted(`${p}.values[${k}]`, JSON.stringify(v), e));
      });
  });
  (term.matchFields ?? []).forEach((r, j) => {
    const p = `${path}.matchFields[${j}]`;
    if (r.operator !== 'In' && r.operator !== 'NotIn')
      out.push(invalidPrinted(`${p}.operator`, JSON.stringify(r.operator), 'not a valid selector operator'));
    else if ((r.values?.length ?? 0) !== 1)
      out.push(
        required(
          `${p}.values`,
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
    if (r.key !== 'metadata.name')
      out.push({
        path: `${p}.key`,
        message: `Unsupported value: ${JSON.stringify(r.key)}: supported values: "metadata.name"`,
      });
  });
  return out;
}

/**
 * `intstr.GetValueFromIntOrPercent(v, 100, true)` (the deprecated form: every `%` removed, the rest read as a
 * percentage): undefined where Go errors.
 */
function valueOf100(v: IntOrString): number | undefined {
  if (typeof v === 'number') return v;
  const body = v.replaceAll('%', '');
  if (!/^[+-]?\d+$/.test(body)) return undefined;
  return Number(body);
}

/**
 * The target's pod template as upstream's webhook reads it for the patch check: the template, with a volume for each
 * of the target's `volumeClaimTemplates` appended (its `withVolumeClaimTemplates`).
 */
export interface WorkloadSpreadTargetTemplate {
  template: JsonObject;
  volumeClaimTemplates?: readonly { metadata?: { name?: string } }[];
}

/** The Go type name of a JSON value, as `json: cannot unmarshal <type> into …` words it. */
function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

/**
 * Upstream's patch check of one subset: the patch merged into the target's template (strategic merge, as for a pod),
 * read back as a pod, and its spec validated under `path` (lib/api/podSpecValidation.ts). A merged spec whose lists
 * are not lists is upstream's unmarshal error.
 */
function patchErrors(patch: JsonObject, target: WorkloadSpreadTargetTemplate, path: string): FieldError[] {
  const template = target.template;
  const spec = (template.spec ?? {}) as JsonObject;
  const claims = (target.volumeClaimTemplates ?? []).map((c) => ({
    name: c.metadata?.name ?? '',
    persistentVolumeClaim: { claimName: c.metadata?.name ?? '' },
  }));
  const withClaims: JsonObject = {
    ...template,
    spec: { ...spec, volumes: [...((spec.volumes as JsonValue[] | undefined) ?? []), ...claims] },
  };
  const merged = strategicMergePod(withClaims, patch);
  const mergedSpec = merged.spec;
  const raw = JSON.stringify(goJson(patch));
  if (
    mergedSpec !== undefined &&
    (mergedSpec === null || typeof mergedSpec !== 'object' || Array.isArray(mergedSpec))
  )
    return [
      invalidPrinted(
        path,
        raw,
        `failed to unmarshal: json: cannot unmarshal ${goJsonType(mergedSpec)} into Go struct field Pod.spec of type v1.PodSpec`,
      ),
    ];
  // `convertor.ConvertPod` defaults the pod spec first (OpenKruise's `SetDefaultPodSpec`): a container the patch adds
  // without a pull or termination-message policy gets them
  const podSpec = defaultPodTemplate({ spec: (mergedSpec ?? {}) as PodTemplateSpec['spec'] })
    .spec as unknown as JsonObject;
  for (const [field, type] of [
    ['volumes', 'Volume'],
    ['containers', 'Container'],
    ['initContainers', 'Container'],
  ] as const) {
    const v = podSpec[field];
    if (v !== undefined && v !== null && !Array.isArray(v))
      return [
        invalidPrinted(
          path,
          raw,
          `failed to unmarshal: json: cannot unmarshal ${goJsonType(v)} into Go struct field PodSpec.spec.${field} of type []v1.${type}`,
        ),
      ];
  }
  return podSpecErrors(
    {
      volumes: (podSpec.volumes ?? []) as unknown as Volume[],
      containers: (podSpec.containers ?? []) as unknown as Container[],
      initContainers: (podSpec.initContainers ?? []) as unknown as Container[],
      ...(typeof podSpec.terminationGracePeriodSeconds === 'number'
        ? { terminationGracePeriodSeconds: podSpec.terminationGracePeriodSeconds }
        : {}),
      ...(typeof podSpec.restartPolicy === 'string' ? { restartPolicy: podSpec.restartPolicy } : {}),
      ...(podSpec.securityContext !== null && typeof podSpec.securityContext === 'object'
        ? { securityContext: podSpec.securityContext as { hostUsers?: boolean } }
        : {}),
    },
    { prefix: path },
  );
}

function subsetErrors(
  ws: WorkloadSpread,
  subsets: readonly WorkloadSpreadSubset[],
  target: WorkloadSpreadTargetTemplate | undefined,
): FieldError[] {
  const path = 'spec.subsets';
  if (subsets.length === 0) return [required(path, 'subsets number must >= 1 in WorkloadSpread')];
  const out: FieldError[] = [];
  const names = new Set<string>();
  let firstType: 'int' | 'string' | undefined;
  let sum = 0;
  for (const [i, subset] of subsets.entries()) {
    const p = `${path}[${i}]`;
    if (!subset.name) out.push({ path: `${p}.name`, message: 'Invalid value: ""' });
    else {
      if (names.has(subset.name))
        out.push(
          invalidPrinted(`${p}.name`, JSON.stringify(subset.name), `duplicated subset name ${subset.name}`),
        );
      names.add(subset.name);
    }
    if (subset.requiredNodeSelector)
      out.push(...nodeSelectorTermErrors(subset.requiredNodeSelector, `${p}.requiredNodeSelector`, true));
    (subset.preferredNodeSelector ?? []).forEach((t, j) => {
      const tp = `${p}.preferredNodeSelector[${j}]`;
      if (!(t.weight >= 1 && t.weight <= 100))
        out.push(invalidPrinted(`${tp}.weight`, String(t.weight), 'must be in the range 1-100'));
      out.push(...nodeSelectorTermErrors(t.preference ?? {}, `${tp}.preference`, false));
    });
    if (subset.tolerations) out.push(...tolerationErrors(subset.tolerations, `${p}.tolerations`));
    if (subset.patch !== undefined && subset.patch !== null && target)
      out.push(...patchErrors(subset.patch, target, `${p}.patch`));
    const max = subset.maxReplicas;
    if (max === undefined) continue;
    const type = typeof max === 'number' ? 'int' : 'string';
    const mp = `${p}.maxReplicas`;
    if (firstType === undefined) firstType = type;
    else if (type !== firstType)
      return [
        ...out,
        invalidPrinted(mp, goIntOrString(max), 'the maxReplicas type of all subsets must be the same'),
      ];
    if (ws.spec.targetRef?.kind === 'StatefulSet' && type !== 'int')
      return [
        ...out,
        invalidPrinted(mp, goIntOrString(max), 'the maxReplicas type must be Int for StatefulSet'),
      ];
    const value = valueOf100(max);
    if (value === undefined || value < 0)
      return [...out, invalidPrinted(mp, goIntOrString(max), 'maxReplicas is not valid for subset')];
    if (type === 'string') {
      sum += value;
      if (sum > 100)
        return [
          ...out,
          invalidPrinted(
            mp,
            goIntOrString(max),
            "the sum of all subset's maxReplicas exceeds 100% is no permitted",
          ),
        ];
    }
  }
  const first = subsets[0]?.maxReplicas;
  if (firstType === 'string' && sum < 100 && subsets[subsets.length - 1]?.maxReplicas !== undefined)
    out.push(
      invalidPrinted(
        `${path}[0].maxReplicas`,
        first === undefined ? '"null"' : goIntOrString(first),
        'maxReplicas sum of all subsets must equal 100% when type is specified as percent',
      ),
    );
  return out;
}

function scheduleStrategyErrors(ws: WorkloadSpread): FieldError[] {
  const strategy = ws.spec.scheduleStrategy ?? {};
  const path = 'spec.scheduleStrategy';
  const out: FieldError[] = [];
  const type = strategy.type ?? '';
  if (type !== '' && type !== 'Fixed' && type !== 'Adaptive')
    out.push(invalidPrinted(`${path}.type`, JSON.stringify(type), "ScheduleStrategy's type is not valid"));
  const adaptive = strategy.adaptive;
  if (!adaptive) return out;
  const seconds = adaptive.rescheduleCriticalSeconds;
  const shown = seconds === undefined ? '"null"' : String(seconds);
  if (type !== 'Adaptive')
    out.push(
      invalidPrinted(
        `${path}.type`,
        shown,
        "the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy",
      ),
    );
  const subsets = ws.spec.subsets;
  if (subsets.length > 1 && subsets[subsets.length - 1]?.maxReplicas !== undefined)
    out.push(
      invalidPrinted(
        `${path}.adaptive`,
        shown,
        "the last subset's maxReplicas must be not specified when using adaptive scheduleStrategy",
      ),
    );
  const allowed = subsets.length > 1 ? Math.trunc(295 / (subsets.length - 1)) : 2_147_483_647;
  if (seconds !== undefined && (seconds < 0 || seconds > allowed))
    out.push(
      invalidPrinted(
        `${path}.adaptive.rescheduleCriticalSeconds`,
        shown,
        `rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > ${allowed} is not permitted`,
      ),
    );
  return out;
}

/** `metav1.LabelSelectorAsSelector`'s error for a selector, undefined when it converts. */
export function labelSelectorConversionError(selector: LabelSelector | undefined): string | undefined {
  if (!selector) return undefined;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    const e = qualifiedNameErrors(key)[0];
    if (e) return `key: Invalid value: ${JSON.stringify(key)}: ${e}`;
    const v = labelValueErrors(value)[0];
    if (v) return `values[0][${key}]: Invalid value: ${JSON.stringify(value)}: ${v}`;
  }
  for (const r of selector.matchExpressions ?? []) {
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(r.operator))
      return `${JSON.stringify(r.operator)} is not a valid label selector operator`;
    const keyError = qualifiedNameErrors(r.key ?? '')[0];
    if (keyError) return `key: Invalid value: ${JSON.stringify(r.key ?? '')}: ${keyError}`;
    const n = r.values?.length ?? 0;
    if ((r.operator === 'In' || r.operator === 'NotIn') && n === 0)
      return `values: Invalid value: ${goStrings(r.values)}: for 'in', 'notin' operators, values set can't be empty`;
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0)
      return `values: Invalid value: ${goStrings(r.values)}: values set must be empty for exists and does not exist`;
    for (const [k, v] of (r.values ?? []).entries()) {
      const e = labelValueErrors(v)[0];
      if (e) return `values[${k}][${r.key}]: Invalid value: ${JSON.stringify(v)}: ${e}`;
    }
  }
  return undefined;
}

/**
 * The errors upstream's webhook refuses `ws` with (see the module doc), in its order: the spec (target, subsets,
 * schedule strategy, target filter), then a conflict with another WorkloadSpread of the namespace (when `others` is
 * given), then on an update a changed target.
 * @param options.old the stored object (an UPDATE)
 * @param options.others the WorkloadSpreads of the namespace; absent: the conflict rule is skipped
 * @param options.target the target's pod template; absent (not read, or not found): the patch check is skipped, as
 *   upstream skips it for a target it cannot get
 * @param options.customWorkloads the custom-workload whitelist (./customWorkloads.ts), for a target of another Kind;
 *   absent: none (every other Kind refused)
 */
export function validateWorkloadSpread(
  ws: WorkloadSpread,
  options: {
    old?: WorkloadSpread;
    others?: readonly WorkloadSpread[];
    target?: WorkloadSpreadTargetTemplate;
    customWorkloads?: CustomWorkloadsRead;
  } = {},
): FieldError[] {
  const spec = ws.spec ?? { subsets: [] };
  const refErrors = targetRefErrors(spec.targetRef, options.customWorkloads ?? []);
  const out = [
    ...refErrors,
    ...subsetErrors(ws, spec.subsets ?? [], refErrors.length === 0 ? options.target : undefined),
    ...scheduleStrategyErrors({ ...ws, spec: { ...spec, subsets: spec.subsets ?? [] } }),
  ];
  const filterError = spec.targetFilter
    ? labelSelectorConversionError(spec.targetFilter.selector)
    : undefined;
  if (filterError !== undefined)
    out.push(
      invalidPrinted(
        'spec.targetFilter',
        `v1beta1.TargetFilter{Selector:(*v1.LabelSelector)(…), ReplicasPathList:${goStrings(spec.targetFilter?.replicasPathList)}}`,
        filterError,
      ),
    );
  const ref = spec.targetRef;
  if (ref && options.others) {
    const group = groupOfVersion(ref.apiVersion) ?? '';
    const other = options.others.find((o) => {
      const r = o.spec?.targetRef;
      return (
        o.metadata.name !== ws.metadata.name &&
        r !== undefined &&
        (groupOfVersion(r.apiVersion) ?? '') === group &&
        r.kind === ref.kind &&
        r.name === ref.name
      );
    });
    if (other)
      out.push(
        invalidPrinted(
          'spec.targetRef',
          goTargetRef(ref),
          `ws.spec.targetRef is in conflict with other WorkloadSpread ${other.metadata.name ?? ''}`,
        ),
      );
  }
  const oldRef = options.old?.spec?.targetRef;
  if (ref && oldRef) {
    if (
      (groupOfVersion(ref.apiVersion) ?? '') !== (groupOfVersion(oldRef.apiVersion) ?? '') ||
      ref.kind !== oldRef.kind ||
      ref.name !== oldRef.name
    )
      out.push(
        invalidPrinted(
          'spec.targetRef',
          goTargetRef(ref),
          'change TargetReference is not permitted for WorkloadSpread',
        ),
      );
  }
  return out;
}
