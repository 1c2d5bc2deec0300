/**
 * Kubernetes' checks of container ports (`validateContainerPorts` and `AccumulateUniqueHostPorts` in
 * `pkg/apis/core/validation`, v1.32 as OpenKruise v1.9.0 builds it), with their paths and messages: a port's name,
 * when set, is an IANA service name (≤ 15 characters of `a-z`, `0-9` and `-`, a letter, no `--`, no `-` at either
 * end) unique in the container; `containerPort` is required and in 1–65535, a `hostPort` too when set; `protocol` is
 * required and one of SCTP, TCP, UDP; and no two ports of the checked containers share protocol, host IP and host
 * port.
 */
import type { FieldError } from './errors.js';
import { decodedList, invalid, notSupported, required } from './fieldValidation.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;
const PORT_RANGE_MESSAGE = 'must be between 1 and 65535, inclusive';

interface PortShape {
  name?: string;
  containerPort?: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

const portsOf = (ports: unknown): PortShape[] => decodedList<PortShape>(ports);

/** `IsValidPortName`. */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** `IsValidPortNum` at `p`: 1 to 65535 (a port given by number). */
export function portNumberErrors(port: number, p: string): FieldError[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [invalid(p, port, PORT_RANGE_MESSAGE)];
}

/**
 * The errors of one container's `ports` (see the module doc; host ports across containers: {@link hostPortConflicts}).
 * @param ports the container's `ports` as sent (anything not a list counts as none)
 * @param p the path of the `ports` field, e.g. `spec.containers[0].ports`
 */
export function containerPortErrors(ports: unknown, p: string): FieldError[] {
  const out: FieldError[] = [];
  const names = new Set<string>();
  portsOf(ports).forEach((port, i) => {
    const ip = `${p}[${i}]`;
    const name = port.name ?? '';
    if (name !== '') {
      const errs = portNameErrors(name);
      if (errs.length > 0) out.push(...errs.map((m) => invalid(`${ip}.name`, name, m)));
      else if (names.has(name))
        out.push({ path: `${ip}.name`, message: `Duplicate value: ${JSON.stringify(name)}` });
      else names.add(name);
    }
    const containerPort = port.containerPort ?? 0;
    if (containerPort === 0) out.push(required(`${ip}.containerPort`));
    else out.push(...portNumberErrors(containerPort, `${ip}.containerPort`));
    const hostPort = port.hostPort ?? 0;
    if (hostPort !== 0) out.push(...portNumberErrors(hostPort, `${ip}.hostPort`));
    const protocol = port.protocol ?? '';
    if (protocol === '') out.push(required(`${ip}.protocol`));
    else if (!(PROTOCOLS as readonly string[]).includes(protocol))
      out.push(notSupported(`${ip}.protocol`, protocol, PROTOCOLS));
  });
  return out;
}

/**
 * The host ports `containers` share (`checkHostPortConflicts`): each port with a host port is keyed
 * `<protocol>/<hostIP>/<hostPort>`, and a key seen before is a `Duplicate value` at that port's `hostPort`. Paths
 * index `containers`, as Kubernetes does, so an init container checked alone is always reported as `[0]`.
 * @param containers the containers checked together (all regular containers, or one init container)
 * @param listPath the path of their list, e.g. `spec.containers`
 */
export function hostPortConflicts(
  containers: readonly { readonly [field: string]: unknown }[],
  listPath: string,
): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    portsOf(c.ports).forEach((port, pi) => {
      const hostPort = port.hostPort ?? 0;
      if (hostPort === 0) return;
      const key = `${port.protocol ?? ''}/${port.hostIP ?? ''}/${hostPort}`;
      if (seen.has(key))
        out.push({
          path: `${listPath}[${ci}].ports[${pi}].hostPort`,
          message: `Duplicate value: ${JSON.stringify(key)}`,
        });
      else seen.add(key);
    });
  });
  return out;
}
