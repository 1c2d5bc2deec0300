/**
 * Kubernetes' checks of a container's probes and lifecycle hooks (`validateLivenessProbe`, `validateReadinessProbe`,
 * `validateStartupProbe`, `validateProbe`, `validateLifecycle` and `validateHandler` in `pkg/apis/core/validation`,
 * v1.32 as OpenKruise v1.9.0 builds it, with `AllowPodLifecycleSleepActionZeroValue` off as in its
 * `DefaultPodValidationOptions`), with their paths and messages:
 * - a handler names exactly one action (a probe: `exec`, `httpGet`, `tcpSocket`, `grpc`; a hook: `exec`, `httpGet`,
 *   `tcpSocket`, `sleep`), each further one forbidden; `exec` has a command; `httpGet` a path, a port (number in range
 *   or service name), scheme HTTP or HTTPS and valid header names; `tcpSocket` and `grpc` a valid port; `sleep`
 *   lasts more than 0 and at most the pod's grace period, when that is known;
 * - a probe's delays, timeout, period and thresholds are not negative, a probe's own `terminationGracePeriodSeconds`
 *   is above 0; liveness and startup probes succeed at exactly 1; a readiness probe has no grace period of its own.
 * Values are read as Go decodes them: an absent number is 0, an absent string empty. Each webhook applies its
 * defaults first, so e.g. a SidecarSet's startup probe without `successThreshold` fails (OpenKruise defaults only
 * the liveness and readiness probes of a sidecar).
 */
import type { FieldError } from './errors.js';
import { forbidden, invalid, nonNegative, notSupported, regexError, required } from './fieldValidation.js';
import { portNameErrors, portNumberErrors } from './containerPortValidation.js';
import { isJsonObject } from './types.js';

/** The three probes of a container, by field. */
export type ProbeField = 'livenessProbe' | 'readinessProbe' | 'startupProbe';

const HEADER_NAME_FORMAT = '[-A-Za-z0-9]+';
const HEADER_NAME = new RegExp(`^${HEADER_NAME_FORMAT}$`);
const HEADER_NAME_MESSAGE = regexError(
  "a valid HTTP header must consist of alphanumeric characters or '-'",
  HEADER_NAME_FORMAT,
  'X-Header-Name',
);
const SCHEMES = ['HTTP', 'HTTPS'] as const;

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | undefined => (isJsonObject(v) ? v : undefined);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `ValidatePortNumOrName`: a number in range, or a service name. */
function portErrors(port: unknown, p: string): FieldError[] {
  if (typeof port === 'string') return portNameErrors(port).map((m) => invalid(p, port, m));
  return portNumberErrors(num(port), p);
}

/** `validateHTTPGetAction`. */
function httpGetErrors(action: Json, p: string): FieldError[] {
  const out: FieldError[] = [];
  if (str(action.path) === '') out.push(required(`${p}.path`));
  out.push(...portErrors(action.port, `${p}.port`));
  const scheme = str(action.scheme);
  if (!(SCHEMES as readonly string[]).includes(scheme))
    out.push(notSupported(`${p}.scheme`, scheme, SCHEMES));
  for (const header of Array.isArray(action.httpHeaders) ? (action.httpHeaders as unknown[]) : []) {
    const name = str(asObject(header)?.name);
    if (!HEADER_NAME.test(name)) out.push(invalid(`${p}.httpHeaders`, name, HEADER_NAME_MESSAGE));
  }
  return out;
}

/** `validateSleepAction` without `AllowPodLifecycleSleepActionZeroValue`. */
function sleepErrors(action: Json, p: string, gracePeriod: number | undefined): FieldError[] {
  const seconds = num(action.seconds);
  if (gracePeriod === undefined || (seconds > 0 && seconds <= gracePeriod)) return [];
  return [
    invalid(
      p,
      seconds,
      `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
    ),
  ];
}

type Action = 'exec' | 'httpGet' | 'tcpSocket' | 'grpc' | 'sleep';
const PROBE_ACTIONS: readonly Action[] = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const HOOK_ACTIONS: readonly Action[] = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

/** `validateHandler` over the actions the handler's Go type has. */
function handlerErrors(
  handler: Json,
  actions: readonly Action[],
  p: string,
  gracePeriod: number | undefined,
): FieldError[] {
  const out: FieldError[] = [];
  let found = 0;
  for (const action of actions) {
    const value = asObject(handler[action]);
    if (!value) continue;
    const ap = `${p}.${action}`;
    if (found > 0) {
      out.push(forbidden(ap, 'may not specify more than 1 handler type'));
      continue;
    }
    found++;
    if (action === 'exec') {
      if (!Array.isArray(value.command) || value.command.length === 0) out.push(required(`${ap}.command`));
    } else if (action === 'httpGet') out.push(...httpGetErrors(value, ap));
    else if (action === 'tcpSocket' || action === 'grpc') out.push(...portErrors(value.port, `${ap}.port`));
    else out.push(...sleepErrors(value, ap, gracePeriod));
  }
  if (found === 0) out.push(required(p, 'must specify a handler type'));
  return out;
}

/**
 * The errors of one probe of a container (see the module doc); none when it is absent.
 * @param field which probe (its own rules differ)
 * @param probe the probe as sent
 * @param p the path of the probe, e.g. `spec.containers[0].livenessProbe`
 * @param gracePeriod the pod's `terminationGracePeriodSeconds`, if known
 */
export function probeErrors(
  field: ProbeField,
  probe: unknown,
  p: string,
  gracePeriod: number | undefined,
): FieldError[] {
  const pr = asObject(probe);
  if (!pr) return [];
  const out = handlerErrors(pr, PROBE_ACTIONS, p, gracePeriod);
  for (const f of [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold',
  ])
    out.push(...nonNegative(num(pr[f]), `${p}.${f}`));
  const own = pr.terminationGracePeriodSeconds;
  if (typeof own === 'number' && own <= 0)
    out.push(invalid(`${p}.terminationGracePeriodSeconds`, own, 'must be greater than 0'));
  if (field !== 'readinessProbe' && num(pr.successThreshold) !== 1)
    out.push(invalid(`${p}.successThreshold`, num(pr.successThreshold), 'must be 1'));
  if (field === 'readinessProbe' && typeof own === 'number')
    out.push(invalid(`${p}.terminationGracePeriodSeconds`, own, 'must not be set for readinessProbes'));
  return out;
}

/**
 * The errors of a container's `lifecycle` (`postStart`, then `preStop`); none when it is absent.
 * @param p the path of the `lifecycle` field
 * @param gracePeriod the pod's `terminationGracePeriodSeconds`, if known (bounds a `sleep`)
 */
export function lifecycleErrors(
  lifecycle: unknown,
  p: string,
  gracePeriod: number | undefined,
): FieldError[] {
  const lc = asObject(lifecycle);
  if (!lc) return [];
  const out: FieldError[] = [];
  for (const hook of ['postStart', 'preStop'] as const) {
    const h = asObject(lc[hook]);
    if (h) out.push(...handlerErrors(h, HOOK_ACTIONS, `${p}.${hook}`, gracePeriod));
  }
  return out;
}
