/**
 * Kubernetes' checks of a container's `resources` (`ValidateContainerResourceRequirements`,
 * `validateResourceRequirements` and `validateContainerResourceName` in `pkg/apis/core/validation`, v1.32 as
 * OpenKruise v1.9.0 builds it, with `AllowIndivisibleHugePagesValues` on as in its `DefaultPodValidationOptions`),
 * with their paths and messages, limits first, then requests:
 * - a resource name is a qualified name; without a domain it is `cpu`, `memory`, `ephemeral-storage` or
 *   `hugepages-<size>`; with one outside `kubernetes.io` it is an extended resource name;
 * - a quantity is not negative (printed in Go's canonical form);
 * - a request is at most its limit, and equals it for the resources that cannot be overcommitted (extended resources
 *   and hugepages), which need a limit;
 * - hugepages come with cpu or memory.
 * A resource name prints unquoted in a message (`Invalid value: gpu: …`): Kubernetes' `ResourceName` is a
 * `fmt.Stringer`, which `field.Error` prints with `String()`; plain strings print quoted.
 * Not checked: that an extended resource is a whole number (Go prints that error's value as a raw struct), and
 * `claims`. Go walks the two maps in random order, so with several errors OpenKruise's order varies; here they
 * follow the object's keys. An entry that is not a quantity is left to the API server's decoding.
 */
import type { FieldError } from './errors.js';
import {
  decodedList,
  forbidden,
  invalid,
  invalidPrinted,
  notSupported,
  qualifiedNameErrors,
  required,
} from './fieldValidation.js';
import {
  cmpQuantity,
  parseQuantityValue,
  quantityString,
  ZERO_QUANTITY,
  type QuantityValue,
} from './quantityValue.js';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
/** `standardResources` of Kubernetes' core helpers: the names a domain-less resource may have. */
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);
const HUGEPAGES = 'hugepages-';

const isHugePages = (name: string) => name.startsWith(HUGEPAGES);
/** `IsNativeResource`: no domain, or one in `kubernetes.io`. */
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
/** `IsExtendedResourceName`. */
const isExtended = (name: string) =>
  !isNative(name) && !name.startsWith('requests.') && qualifiedNameErrors(`requests.${name}`).length === 0;
/** `IsOvercommitAllowed`. */
const overcommitAllowed = (name: string) => isNative(name) && !isHugePages(name);

/**
 * A resource name as a field error prints it: unquoted, since Kubernetes' `ResourceName` is a `fmt.Stringer`.
 */
const invalidName = (p: string, name: string, detail: string): FieldError => invalidPrinted(p, name, detail);

/** `validateResourceName`: a qualified name, and without a domain a standard (or hugepages quota) one. */
function resourceNameErrors(name: string, p: string): FieldError[] {
  const qualified = qualifiedNameErrors(name).map((m) => invalidName(p, name, m));
  if (qualified.length > 0) return qualified;
  const standard =
    STANDARD_RESOURCES.has(name) || isHugePages(name) || name.startsWith(`requests.${HUGEPAGES}`);
  return name.includes('/') || standard
    ? []
    : [invalidName(p, name, 'must be a standard resource type or fully qualified')];
}

/** `validateContainerResourceName`: the above, then a container's own rule (both may report). */
function nameErrors(name: string, p: string): FieldError[] {
  const out = resourceNameErrors(name, p);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name))
      out.push(invalidName(p, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name))
    out.push(invalidName(p, name, "doesn't follow extended resource name standard"));
  return out;
}

/** The entries of a resource list that parse as quantities, in key order. */
function quantities(list: unknown): [string, QuantityValue][] {
  if (list === null || typeof list !== 'object' || Array.isArray(list)) return [];
  const out: [string, QuantityValue][] = [];
  for (const [name, value] of Object.entries(list as Record<string, unknown>)) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    try {
      out.push([name, parseQuantityValue(String(value))]);
    } catch {
      // not a quantity: the API server's decoding refuses it
    }
  }
  return out;
}

/**
 * The errors of a container's `resources` (see the module doc).
 * @param resources the container's `resources` as sent (after the webhook's defaults)
 * @param p the path of the field, e.g. `spec.containers[0].resources`
 */
export function resourceRequirementsErrors(resources: unknown, p: string): FieldError[] {
  const r = resources !== null && typeof resources === 'object' ? (resources as Record<string, unknown>) : {};
  const limits = quantities(r.limits);
  const requests = quantities(r.requests);
  const limitOf = new Map(limits);
  const out: FieldError[] = [];
  const negative = (q: QuantityValue, path: string) =>
    cmpQuantity(q, ZERO_QUANTITY) < 0
      ? [invalid(path, quantityString(q), 'must be greater than or equal to 0')]
      : [];
  let computeResource = false;
  let hugePages = false;
  for (const [name, q] of limits) {
    const path = `${p}.limits[${name}]`;
    out.push(...nameErrors(name, path), ...negative(q, path));
    hugePages ||= isHugePages(name);
    computeResource ||= name === 'cpu' || name === 'memory';
  }
  for (const [name, q] of requests) {
    const path = `${p}.requests[${name}]`;
    out.push(...nameErrors(name, path), ...negative(q, path));
    const limit = limitOf.get(name);
    if (limit) {
      const cmp = cmpQuantity(q, limit);
      if (cmp !== 0 && !overcommitAllowed(name))
        out.push(
          invalid(
            `${p}.requests`,
            quantityString(q),
            `must be equal to ${name} limit of ${quantityString(limit)}`,
          ),
        );
      else if (cmp > 0)
        out.push(
          invalid(
            `${p}.requests`,
            quantityString(q),
            `must be less than or equal to ${name} limit of ${quantityString(limit)}`,
          ),
        );
    } else if (!overcommitAllowed(name))
      out.push(required(`${p}.limits`, 'Limit must be set for non overcommitable resources'));
    hugePages ||= isHugePages(name);
    computeResource ||= name === 'cpu' || name === 'memory';
  }
  if (hugePages && !computeResource) out.push(forbidden(p, 'HugePages require cpu or memory'));
  return out;
}

const RESIZE_RESOURCES = ['cpu', 'memory'] as const;
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer'] as const;

interface ResizePolicyShape {
  resourceName?: string;
  restartPolicy?: string;
}

const resizePoliciesOf = (v: unknown): ResizePolicyShape[] => decodedList<ResizePolicyShape>(v);

/**
 * The errors of a container's `resizePolicy` (`validateResizePolicy`): each resource once, `cpu` or `memory`, each
 * policy `NotRequired` or `RestartContainer`, and only `NotRequired` in a pod that never restarts. Errors other than
 * a duplicate are reported at the list's path, as Kubernetes reports them.
 * @param p the path of the field, e.g. `spec.containers[0].resizePolicy`
 * @param podRestartPolicy the pod's `restartPolicy` (after defaults)
 */
export function resizePolicyErrors(resizePolicy: unknown, p: string, podRestartPolicy: string): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  resizePoliciesOf(resizePolicy).forEach((policy, i) => {
    const name = typeof policy.resourceName === 'string' ? policy.resourceName : '';
    const restart = typeof policy.restartPolicy === 'string' ? policy.restartPolicy : '';
    // a resource name prints unquoted (a `fmt.Stringer`)
    if (seen.has(name)) out.push({ path: `${p}[${i}]`, message: `Duplicate value: ${name}` });
    seen.add(name);
    if (name === '') out.push(required(p));
    else if (!(RESIZE_RESOURCES as readonly string[]).includes(name))
      out.push({
        path: p,
        message: `Unsupported value: ${name}: supported values: ${RESIZE_RESOURCES.map((r) => JSON.stringify(r)).join(', ')}`,
      });
    if (restart === '') out.push(required(p));
    else if (!(RESIZE_POLICIES as readonly string[]).includes(restart))
      out.push(notSupported(p, restart, RESIZE_POLICIES));
    if (podRestartPolicy === 'Never' && restart !== 'NotRequired')
      out.push(invalid(p, restart, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return out;
}

/**
 * An init container's `resizePolicy` refused (`validateInitContainers` without `AllowSidecarResizePolicy`), its value
 * printed as Go's `%#v` of the list; none when the list is empty.
 * @param p the path of the field
 */
export function initResizePolicyErrors(resizePolicy: unknown, p: string): FieldError[] {
  const policies = resizePoliciesOf(resizePolicy);
  if (policies.length === 0) return [];
  const items = policies.map(
    (x) =>
      `core.ContainerResizePolicy{ResourceName:${JSON.stringify(x.resourceName ?? '')}, RestartPolicy:${JSON.stringify(x.restartPolicy ?? '')}}`,
  );
  return [
    invalidPrinted(
      p,
      `[]core.ContainerResizePolicy{${items.join(', ')}}`,
      'must not be set for init containers',
    ),
  ];
}
