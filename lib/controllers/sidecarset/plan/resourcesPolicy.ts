/**
 * OpenKruise: `applyResourcesPolicy`, `getTargetContainers`, `aggregateResourcesBySum`/`ByMax` and
 * `evaluateResourceExpression` in `pkg/webhook/pod/mutating/sidecarset_resources.go` (v1.9.0): a SidecarSet
 * container's `resourcesPolicy` turns the resources of the pod's own containers into the sidecar's `resources` at pod
 * creation. Pure.
 */
import { goRegExp } from '../../../api/goRegexp.js';
import type { Container, Pod } from '../../../api/types.js';
import { KruiselessError } from '../../../core/errors.js';
import {
  addQuantity,
  cmpQuantity,
  goInt64,
  milliQuantity,
  parseQuantityValue,
  quantityString,
  unitQuantity,
  ZERO_QUANTITY,
  type QuantityValue,
} from '../../../api/quantityValue.js';
import { isNativeSidecar } from '../api/hash.js';
import type { ResourcesPolicy, SidecarContainer } from '../api/types.js';
import { evaluateExpression, ResourceExpressionError, type CalcValue } from './resourceExpression.js';

/** The pod cannot get the sidecar's resources; OpenKruise refuses the pod with this message (HTTP 500). */
export class ResourcesPolicyError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'ResourcesPolicyError';
  }
}

/** `corev1.ResourceRequirements` as the sidecar gets it: only what the policy computed. */
export interface ComputedResources {
  limits?: Record<string, string>;
  requests?: Record<string, string>;
}

/** The aggregated `cpu`/`memory` of the target containers; a missing limit is unlimited. */
interface Aggregated {
  limits: Map<'cpu' | 'memory', QuantityValue>;
  requests: Map<'cpu' | 'memory', QuantityValue>;
}

const RESOURCES = ['cpu', 'memory'] as const;
/** Go's `%q` of a string, for the printable ASCII a container-name regex holds (JSON's quoting there). */
const goQuote = (s: string): string => JSON.stringify(s);

/**
 * `getTargetContainers`: the pod's native-sidecar init containers (`restartPolicy: Always`), then its containers,
 * whose names `regex` finds (unanchored, as Go's `MatchString`), leaving out every container name of the matched
 * SidecarSets (`kruiseSidecarNames`).
 * @throws ResourcesPolicyError when the regex does not compile
 */
export function targetContainers(
  pod: Pod,
  regex: string,
  kruiseSidecarNames: ReadonlySet<string>,
): Container[] {
  let pattern: RegExp;
  try {
    pattern = goRegExp(regex);
  } catch (e) {
    throw new ResourcesPolicyError(
      `failed to get target containers: invalid regex pattern ${goQuote(regex)}: ${(e as Error).message}`,
    );
  }
  const wanted = (c: Container): boolean => !kruiseSidecarNames.has(c.name) && pattern.test(c.name);
  const native = (pod.spec.initContainers ?? []).filter((c) =>
    isNativeSidecar(c as Pick<SidecarContainer, 'restartPolicy'>),
  );
  return [...native.filter(wanted), ...pod.spec.containers.filter(wanted)];
}

function quantityOf(list: Record<string, string> | undefined, name: string): QuantityValue | undefined {
  const text = list?.[name];
  return text === undefined ? undefined : parseQuantityValue(text);
}

/**
 * `aggregateResources`: `sum` adds (from a DecimalSI zero, so the first non-zero addend's format is kept), `max`
 * keeps the first largest; a limit is set only when every target has one (else unlimited); a missing request counts
 * 0, and `sum` leaves a zero request unset. Any other mode aggregates nothing.
 */
export function aggregateResources(containers: readonly Container[], mode: string | undefined): Aggregated {
  const out: Aggregated = { limits: new Map(), requests: new Map() };
  if (mode !== 'sum' && mode !== 'max') return out;
  for (const r of RESOURCES) {
    const limits = containers.map((c) => quantityOf(c.resources?.limits, r));
    const requests = containers
      .map((c) => quantityOf(c.resources?.requests, r))
      .filter((q): q is QuantityValue => q !== undefined);
    if (mode === 'sum') {
      const zero: QuantityValue = { nano: 0n, format: 'DecimalSI' };
      if (limits.every((q) => q !== undefined))
        out.limits.set(
          r,
          limits.reduce<QuantityValue>((a, q) => addQuantity(a, q), zero),
        );
      const request = requests.reduce(addQuantity, zero);
      if (request.nano !== 0n) out.requests.set(r, request);
    } else {
      const largest = (qs: readonly QuantityValue[]): QuantityValue | undefined =>
        qs.reduce<QuantityValue | undefined>(
          (m, q) => (m === undefined || cmpQuantity(q, m) > 0 ? q : m),
          undefined,
        );
      if (limits.every((q) => q !== undefined)) {
        const l = largest(limits);
        if (l) out.limits.set(r, l);
      }
      const q = largest(requests);
      if (q) out.requests.set(r, q);
    }
  }
  return out;
}

/**
 * `evaluateResourceExpression`: `expr` with the variable `memory` when the word appears in it, else `cpu`, bound to
 * `aggregated`. A number result is milli-cores for `cpu` (`0.5` → `500m`) and whole units for `memory` (truncated).
 * An empty expression is unlimited for a limit (undefined) and 0 for a request.
 * @throws ResourcesPolicyError `failed to parse expression "<expr>": <calculator error>`
 */
export function evaluateResourceExpression(
  expr: string,
  aggregated: QuantityValue,
  isLimit: boolean,
): QuantityValue | undefined {
  if (expr === '') return isLimit ? undefined : unitQuantity(0n);
  const variable = /\bmemory\b/.test(expr) ? 'memory' : 'cpu';
  let result: CalcValue;
  try {
    result = evaluateExpression(expr, new Map([[variable, { kind: 'quantity', quantity: aggregated }]]));
  } catch (e) {
    if (!(e instanceof ResourceExpressionError)) throw e;
    throw new ResourcesPolicyError(`failed to parse expression ${goQuote(expr)}: ${e.message}`);
  }
  if (result.kind === 'quantity') return result.quantity;
  return variable === 'cpu'
    ? milliQuantity(goInt64(result.number * 1000))
    : unitQuantity(goInt64(result.number));
}

/**
 * `applyResourcesPolicy`: the sidecar's resources from `policy` over the pod's target containers. Limits are computed
 * only for an expression whose aggregate is limited; requests from the aggregate or 0.
 * @param kruiseSidecarNames every container and init-container name of the SidecarSets matched for this pod
 * @throws ResourcesPolicyError with OpenKruise's message: `no containers match the regex pattern "<regex>"`,
 *   `failed to evaluate CPU limits expression: …` (`memory limits`, `CPU requests`, `memory requests`), a bad regex
 */
export function resourcesFromPolicy(
  pod: Pod,
  policy: ResourcesPolicy,
  kruiseSidecarNames: ReadonlySet<string>,
): ComputedResources {
  const regex = policy.targetContainersNameRegex ?? '';
  const targets = targetContainers(pod, regex, kruiseSidecarNames);
  if (targets.length === 0)
    throw new ResourcesPolicyError(`no containers match the regex pattern ${goQuote(regex)}`);
  const aggregated = aggregateResources(targets, policy.targetContainersMode);
  const out: ComputedResources = {};
  const label = { cpu: 'CPU', memory: 'memory' } as const;
  const evaluate = (kind: 'limits' | 'requests', r: 'cpu' | 'memory', expr: string, value: QuantityValue) => {
    try {
      return evaluateResourceExpression(expr, value, kind === 'limits');
    } catch (e) {
      if (!(e instanceof ResourcesPolicyError)) throw e;
      throw new ResourcesPolicyError(`failed to evaluate ${label[r]} ${kind} expression: ${e.message}`);
    }
  };
  const limitsExpr = policy.resourcesExpr?.limits;
  if (limitsExpr) {
    const limits: Record<string, string> = {};
    for (const r of RESOURCES) {
      const expr = limitsExpr[r] ?? '';
      const value = aggregated.limits.get(r);
      if (expr === '' || value === undefined) continue;
      const q = evaluate('limits', r, expr, value);
      if (q) limits[r] = quantityString(q);
    }
    if (Object.keys(limits).length > 0) out.limits = limits;
  }
  const requestsExpr = policy.resourcesExpr?.requests;
  if (requestsExpr) {
    const requests: Record<string, string> = {};
    for (const r of RESOURCES) {
      const expr = requestsExpr[r] ?? '';
      if (expr === '') continue;
      const q = evaluate('requests', r, expr, aggregated.requests.get(r) ?? ZERO_QUANTITY);
      if (q) requests[r] = quantityString(q);
    }
    if (Object.keys(requests).length > 0) out.requests = requests;
  }
  return out;
}

/** The names `getTargetContainers` leaves out: every init container and container of the matched SidecarSets. */
export function kruiseSidecarNames(
  sidecarSets: readonly { spec: { initContainers?: SidecarContainer[]; containers?: SidecarContainer[] } }[],
): Set<string> {
  return new Set(
    sidecarSets.flatMap((s) =>
      [...(s.spec.initContainers ?? []), ...(s.spec.containers ?? [])].map((c) => c.name),
    ),
  );
}
