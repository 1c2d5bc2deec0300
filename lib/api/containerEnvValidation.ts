/**
 * Kubernetes' checks of a container's `env` and `envFrom` (`ValidateEnv`, `validateEnvVarValueFrom` and
 * `ValidateEnvFrom` in `pkg/apis/core/validation`, v1.32 as OpenKruise v1.9.0 builds it), with their paths and
 * messages, under the strict variable-name rule (OpenKruise's `DefaultPodValidationOptions` leaves
 * `AllowRelaxedEnvironmentVariableValidation` off):
 * - a variable's name is required and matches `[-._a-zA-Z][-._a-zA-Z0-9]*`, not `.`, `..` or starting with `..`;
 * - a `valueFrom` names exactly one of `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef`, and not
 *   beside a `value`; a `fieldRef` has an `apiVersion` (`v1`) and one of the downward API's pod fields, a label or
 *   annotation by a qualified name; a `resourceFieldRef` one of the container resources (a `divisor` is not checked);
 *   a key reference a DNS-1123 subdomain name and a config key;
 * - an `envFrom` source has a valid `prefix` (the name rule) and exactly one of `configMapRef` / `secretRef`, named
 *   by a DNS-1123 subdomain (a trailing `-` allowed, as a generated-name prefix).
 */
import type { FieldError } from './errors.js';
import {
  decodedList,
  invalid,
  isNonNil,
  notSupported,
  qualifiedNameErrors,
  regexError,
  required,
  subdomainErrors,
} from './fieldValidation.js';

const ENV_NAME_FORMAT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_NAME = new RegExp(`^${ENV_NAME_FORMAT}$`);
const ENV_NAME_MESSAGE = regexError(
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
  ENV_NAME_FORMAT,
  'my.env-name',
  'MY_ENV.NAME',
  'MyEnvName1',
);
const CONFIG_KEY_FORMAT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY = new RegExp(`^${CONFIG_KEY_FORMAT}$`);
const CONFIG_KEY_MESSAGE = regexError(
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
  CONFIG_KEY_FORMAT,
  'key.name',
  'KEY_NAME',
  'key-name',
);

/** The pod fields a `fieldRef` of an env var may name (sorted, as Kubernetes lists them). */
const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
] as const;

/** The labels `ConvertDownwardAPIFieldLabel` accepts for v1 pods without a subscript (`spec.host` is `spec.nodeName`). */
const CONVERTIBLE_FIELD_PATHS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);

/** The container resources a `resourceFieldRef` may name (sorted), besides the hugepages prefixes. */
const RESOURCE_FIELDS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
] as const;
const HUGEPAGES_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'] as const;

/** `hasChDirPrefix` of apimachinery's validation. */
function chDirErrors(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** `IsEnvVarName`. */
export function envVarNameErrors(value: string): string[] {
  return [...(ENV_NAME.test(value) ? [] : [ENV_NAME_MESSAGE]), ...chDirErrors(value)];
}

/** `IsConfigMapKey`. */
function configKeyErrors(value: string): string[] {
  return [
    ...(value.length > 253 ? ['must be no more than 253 characters'] : []),
    ...(CONFIG_KEY.test(value) ? [] : [CONFIG_KEY_MESSAGE]),
    ...chDirErrors(value),
  ];
}

/** `NameIsDNSSubdomain(name, prefix)`: a trailing `-` is masked when the name is a prefix. */
function nameErrors(name: string, prefix: boolean): string[] {
  const masked = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
  return subdomainErrors(masked);
}

/** Kubernetes' `SplitMaybeSubscriptedPath`: `metadata.labels['x']` → [`metadata.labels`, `x`]; undefined without one. */
export function splitSubscriptedPath(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath?: string;
}

/** `validateObjectFieldSelector` with the env var fields. */
function fieldRefErrors(fs: ObjectFieldSelector, p: string): FieldError[] {
  const apiVersion = fs.apiVersion ?? '';
  const fieldPath = fs.fieldPath ?? '';
  if (apiVersion === '') return [required(`${p}.apiVersion`)];
  if (fieldPath === '') return [required(`${p}.fieldPath`)];
  const split = splitSubscriptedPath(fieldPath);
  const conversion =
    apiVersion !== 'v1'
      ? `unsupported pod version: ${apiVersion}`
      : split
        ? split[0] === 'metadata.annotations' || split[0] === 'metadata.labels'
          ? undefined
          : `field label does not support subscript: ${fieldPath}`
        : CONVERTIBLE_FIELD_PATHS.has(fieldPath) || fieldPath === 'spec.host'
          ? undefined
          : `field label not supported: ${fieldPath}`;
  if (conversion) return [invalid(`${p}.fieldPath`, fieldPath, `error converting fieldPath: ${conversion}`)];
  if (split) {
    const [path, subscript] = split;
    const key = path === 'metadata.annotations' ? subscript.toLowerCase() : subscript;
    return qualifiedNameErrors(key).map((m) => invalid(p, key, m));
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  return (ENV_FIELD_PATHS as readonly string[]).includes(internal)
    ? []
    : [notSupported(`${p}.fieldPath`, internal, ENV_FIELD_PATHS)];
}

/** `validateContainerResourceFieldSelector` for an env var (its `divisor` not checked). */
function resourceFieldRefErrors(fs: { resource?: string }, p: string): FieldError[] {
  const resource = fs.resource ?? '';
  if (resource === '') return [required(`${p}.resource`)];
  if ((RESOURCE_FIELDS as readonly string[]).includes(resource)) return [];
  if (HUGEPAGES_PREFIXES.some((prefix) => resource.startsWith(prefix))) return [];
  return [notSupported(`${p}.resource`, resource, RESOURCE_FIELDS)];
}

/** `validateConfigMapKeySelector` / `validateSecretKeySelector` (the same checks). */
function keyRefErrors(s: { name?: string; key?: string }, p: string): FieldError[] {
  const name = s.name ?? '';
  const key = s.key ?? '';
  const out = nameErrors(name, false).map((m) => invalid(`${p}.name`, name, m));
  if (key === '') out.push(required(`${p}.key`));
  else out.push(...configKeyErrors(key).map((m) => invalid(`${p}.key`, key, m)));
  return out;
}

interface EnvVarShape {
  name?: string;
  value?: string;
  valueFrom?: {
    fieldRef?: ObjectFieldSelector;
    resourceFieldRef?: { resource?: string };
    configMapKeyRef?: { name?: string; key?: string };
    secretKeyRef?: { name?: string; key?: string };
  } | null;
}

/**
 * The errors of a container's `env` (see the module doc).
 * @param env the container's `env` as sent (anything not a list counts as none)
 * @param p the path of the `env` field, e.g. `spec.containers[0].env`
 */
export function envErrors(env: unknown, p: string): FieldError[] {
  const out: FieldError[] = [];
  decodedList<EnvVarShape>(env).forEach((ev, i) => {
    const ip = `${p}[${i}]`;
    const name = ev.name ?? '';
    if (name === '') out.push(required(`${ip}.name`));
    else out.push(...envVarNameErrors(name).map((m) => invalid(`${ip}.name`, name, m)));
    const from = ev.valueFrom;
    if (!from) return;
    const vp = `${ip}.valueFrom`;
    let sources = 0;
    if (isNonNil(from.fieldRef)) {
      sources++;
      out.push(...fieldRefErrors(from.fieldRef ?? {}, `${vp}.fieldRef`));
    }
    if (isNonNil(from.resourceFieldRef)) {
      sources++;
      out.push(...resourceFieldRefErrors(from.resourceFieldRef ?? {}, `${vp}.resourceFieldRef`));
    }
    if (isNonNil(from.configMapKeyRef)) {
      sources++;
      out.push(...keyRefErrors(from.configMapKeyRef ?? {}, `${vp}.configMapKeyRef`));
    }
    if (isNonNil(from.secretKeyRef)) {
      sources++;
      out.push(...keyRefErrors(from.secretKeyRef ?? {}, `${vp}.secretKeyRef`));
    }
    if (sources === 0)
      out.push(
        invalid(
          vp,
          '',
          'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
        ),
      );
    else if ((ev.value ?? '') !== '')
      out.push(invalid(vp, '', 'may not be specified when `value` is not empty'));
    else if (sources > 1) out.push(invalid(vp, '', 'may not have more than one field specified at a time'));
  });
  return out;
}

interface EnvFromShape {
  prefix?: string;
  configMapRef?: { name?: string } | null;
  secretRef?: { name?: string } | null;
}

/**
 * The errors of a container's `envFrom` (see the module doc). A source naming none or both of its kinds is reported
 * at the `envFrom` path itself, as Kubernetes reports it.
 * @param envFrom the container's `envFrom` as sent (anything not a list counts as none)
 * @param p the path of the `envFrom` field
 */
export function envFromErrors(envFrom: unknown, p: string): FieldError[] {
  const out: FieldError[] = [];
  decodedList<EnvFromShape>(envFrom).forEach((ev, i) => {
    const ip = `${p}[${i}]`;
    const prefix = ev.prefix ?? '';
    if (prefix !== '') out.push(...envVarNameErrors(prefix).map((m) => invalid(`${ip}.prefix`, prefix, m)));
    let sources = 0;
    for (const kind of ['configMapRef', 'secretRef'] as const) {
      const ref = ev[kind];
      if (!isNonNil(ref)) continue;
      sources++;
      const name = ref?.name ?? '';
      if (name === '') out.push(required(`${ip}.${kind}.name`));
      else out.push(...nameErrors(name, true).map((m) => invalid(`${ip}.${kind}.name`, name, m)));
    }
    if (sources === 0) out.push(invalid(p, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) out.push(invalid(p, '', 'may not have more than one field specified at a time'));
  });
  return out;
}
