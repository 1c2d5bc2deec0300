/**
 * The part of Kubernetes' pod validation (`ValidatePodSpec` in `pkg/apis/core/validation`) that the specs OpenKruise's
 * webhooks hand to it meet most, with Kubernetes' messages and order (volumes, then containers, then init
 * containers), under a path prefix: `spec` for the fake pod of OpenKruise's SidecarSet webhook
 * (`validateContainersForSidecarSet`, which hands the SidecarSet's volumes, init containers and containers to
 * `ValidatePodCreate`, a placeholder container `test` standing in when there are none), `spec.subsets[i].patch` for a
 * WorkloadSpread subset's patch merged into its target's pod template (`validateWorkloadSpreadSubsets`).
 * - volumes (`ValidateVolumes`): exactly one volume source, name required, a DNS-1123 label and unique; a volume with
 *   an error is not mountable (its mounts are "Not found" too);
 * - containers (`validateContainerCommon`): name required, a DNS-1123 label and unique across containers and init
 *   containers; image required; `terminationMessagePolicy` required and known; ports (./containerPortValidation.ts),
 *   env and envFrom (./containerEnvValidation.ts); volumeMounts (name found, mountPath required and unique, no name
 *   or path shared with a volumeDevice) and volumeDevices (name found and of a persistentVolumeClaim or ephemeral
 *   volume, unique, devicePath required, unique, without `..`, no name or path shared with a volumeMount);
 *   `imagePullPolicy` required and known; resources and resizePolicy (./containerResourceValidation.ts);
 *   securityContext (./containerSecurityValidation.ts);
 * - regular containers (`validateContainers`): no `restartPolicy`, and no host port shared among them;
 * - init containers (`validateInitContainers`): `restartPolicy` only `Always`; no host port shared within one; no
 *   lifecycle or probes unless it restarts always; no resizePolicy;
 * - hooks and probes (./containerProbeValidation.ts) of regular containers and of init containers that restart
 *   always.
 * Not checked (the API server checks them again on each pod created): subPath, each volume source's own fields, the
 * pod-level fields, and the parts each of those modules names.
 */
import { envErrors, envFromErrors } from './containerEnvValidation.js';
import { containerPortErrors, hostPortConflicts } from './containerPortValidation.js';
import { lifecycleErrors, probeErrors, type ProbeField } from './containerProbeValidation.js';
import {
  initResizePolicyErrors,
  resizePolicyErrors,
  resourceRequirementsErrors,
} from './containerResourceValidation.js';
import { securityContextErrors } from './containerSecurityValidation.js';
import type { FieldError } from './errors.js';
import {
  decodedList,
  dns1123LabelErrors,
  forbidden,
  invalid,
  isNonNil,
  notSupported,
  required,
  show,
} from './fieldValidation.js';
import type { Container, Volume } from './types.js';

/** Kubernetes' volume source fields, in the order `validateVolumeSource` checks them. */
const VOLUME_SOURCES = [
  'hostPath',
  'emptyDir',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'scaleIO',
  'configMap',
  'flexVolume',
  'projected',
  'csi',
  'ephemeral',
  'image',
] as const;

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'] as const;

/** Kubernetes' `field.Duplicate`. */
const duplicate = (path: string, value: unknown): FieldError => ({
  path,
  message: `Duplicate value: ${show(value)}`,
});
/** Kubernetes' `field.NotFound`. */
const notFound = (path: string, value: unknown): FieldError => ({
  path,
  message: `Not found: ${show(value)}`,
});

interface Mount {
  name?: string;
  mountPath?: string;
}
interface Device {
  name?: string;
  devicePath?: string;
}

/** The volumes that validated, by name (`ValidateVolumes`' `allCreated`), and the errors of the others. */
function volumeErrors(
  volumes: readonly Volume[],
  prefix: string,
): { valid: Map<string, Volume>; errors: FieldError[] } {
  const valid = new Map<string, Volume>();
  const errors: FieldError[] = [];
  volumes.forEach((v, i) => {
    const p = `${prefix}.volumes[${i}]`;
    const el: FieldError[] = [];
    const present = VOLUME_SOURCES.filter((k) => v[k] !== undefined && v[k] !== null);
    if (present.length === 0) el.push(required(p, 'must specify a volume type'));
    for (const extra of present.slice(1))
      el.push(forbidden(`${p}.${extra}`, 'may not specify more than 1 volume type'));
    const name = v.name ?? '';
    if (name === '') el.push(required(`${p}.name`));
    else for (const e of dns1123LabelErrors(name)) el.push(invalid(`${p}.name`, name, e));
    if (valid.has(name)) el.push(duplicate(`${p}.name`, name));
    if (el.length === 0) valid.set(name, v);
    else errors.push(...el);
  });
  return { valid, errors };
}

/** `ValidateVolumeMounts` (the checks listed in the module comment). */
function mountErrors(
  mounts: readonly Mount[],
  devices: readonly Device[],
  volumes: Map<string, Volume>,
  p: string,
) {
  const out: FieldError[] = [];
  const paths = new Set<string>();
  mounts.forEach((m, i) => {
    const ip = `${p}[${i}]`;
    const name = m.name ?? '';
    const mountPath = m.mountPath ?? '';
    if (name === '') out.push(required(`${ip}.name`));
    if (!volumes.has(name)) out.push(notFound(`${ip}.name`, name));
    if (mountPath === '') out.push(required(`${ip}.mountPath`));
    if (paths.has(mountPath)) out.push(invalid(`${ip}.mountPath`, mountPath, 'must be unique'));
    paths.add(mountPath);
    if (devices.some((d) => (d.name ?? '') === name))
      out.push(invalid(`${ip}.name`, name, 'must not already exist in volumeDevices'));
    if (devices.some((d) => (d.devicePath ?? '') === mountPath))
      out.push(invalid(`${ip}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
  });
  return out;
}

/** `validateVolumeDevices` (the checks listed in the module comment). */
function deviceErrors(
  devices: readonly Device[],
  mounts: readonly Mount[],
  volumes: Map<string, Volume>,
  p: string,
) {
  const out: FieldError[] = [];
  const names = new Set<string>();
  const paths = new Set<string>();
  devices.forEach((d, i) => {
    const ip = `${p}[${i}]`;
    const name = d.name ?? '';
    const devicePath = d.devicePath ?? '';
    const volume = volumes.get(name);
    if (name === '') out.push(required(`${ip}.name`));
    if (names.has(name)) out.push(invalid(`${ip}.name`, name, 'must be unique'));
    if (!volume) out.push(notFound(`${ip}.name`, name));
    else if (!volume.persistentVolumeClaim && !volume.ephemeral)
      out.push(
        invalid(
          `${ip}.name`,
          name,
          'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
        ),
      );
    if (devicePath === '') out.push(required(`${ip}.devicePath`));
    if (paths.has(devicePath)) out.push(invalid(`${ip}.devicePath`, devicePath, 'must be unique'));
    if (devicePath !== '' && devicePath.split('/').includes('..'))
      out.push(invalid(`${ip}.devicePath`, devicePath, "can not contain backsteps ('..')"));
    else paths.add(devicePath);
    if (mounts.some((m) => (m.name ?? '') === name))
      out.push(invalid(`${ip}.name`, name, 'must not already exist in volumeMounts'));
    if (mounts.some((m) => (m.mountPath ?? '') === devicePath))
      out.push(invalid(`${ip}.devicePath`, devicePath, 'must not already exist as a path in volumeMounts'));
    if (name !== '') names.add(name);
  });
  return out;
}

/** What the container checks need to know of their pod. */
interface PodContext {
  volumes: Map<string, Volume>;
  /** `terminationGracePeriodSeconds`, s; undefined: not known (a hook's sleep is then not bounded). */
  gracePeriod: number | undefined;
  /** The pod's `restartPolicy` (after defaults). */
  restartPolicy: string;
  /** Whether the pod runs in the host's user namespace (`securityContext.hostUsers` not false). */
  hostUsers: boolean;
}

/** `validateContainerCommon`: the checks every container gets, in Kubernetes' order. */
function commonErrors(c: Container, p: string, pod: PodContext): FieldError[] {
  const volumes = pod.volumes;
  const out: FieldError[] = [];
  const name = c.name ?? '';
  if (name === '') out.push(required(`${p}.name`));
  else for (const e of dns1123LabelErrors(name)) out.push(invalid(`${p}.name`, name, e));
  if (!c.image) out.push(required(`${p}.image`));
  const tmp = (c.terminationMessagePolicy as string | undefined) ?? '';
  if (tmp === '') out.push(required(`${p}.terminationMessagePolicy`));
  else if (!(TERMINATION_MESSAGE_POLICIES as readonly string[]).includes(tmp))
    out.push(notSupported(`${p}.terminationMessagePolicy`, tmp, TERMINATION_MESSAGE_POLICIES));
  out.push(...containerPortErrors(c.ports, `${p}.ports`));
  out.push(...envErrors(c.env, `${p}.env`));
  out.push(...envFromErrors(c.envFrom, `${p}.envFrom`));
  const mounts = decodedList<Mount>(c.volumeMounts);
  const devices = decodedList<Device>(c.volumeDevices);
  out.push(...mountErrors(mounts, devices, volumes, `${p}.volumeMounts`));
  out.push(...deviceErrors(devices, mounts, volumes, `${p}.volumeDevices`));
  const pull = c.imagePullPolicy ?? '';
  if (pull === '') out.push(required(`${p}.imagePullPolicy`));
  else if (!(PULL_POLICIES as readonly string[]).includes(pull))
    out.push(notSupported(`${p}.imagePullPolicy`, pull, PULL_POLICIES));
  out.push(...resourceRequirementsErrors(c.resources, `${p}.resources`));
  out.push(...resizePolicyErrors(c.resizePolicy, `${p}.resizePolicy`, pod.restartPolicy));
  out.push(...securityContextErrors(c.securityContext, `${p}.securityContext`, pod.hostUsers));
  return out;
}

const PROBES: readonly ProbeField[] = ['livenessProbe', 'readinessProbe', 'startupProbe'];

/** The lifecycle hooks and probes of a container that may have them (./containerProbeValidation.ts). */
function hookAndProbeErrors(c: Container, p: string, gracePeriod: number | undefined): FieldError[] {
  return [
    ...lifecycleErrors(c.lifecycle, `${p}.lifecycle`, gracePeriod),
    ...PROBES.flatMap((f) => probeErrors(f, c[f], `${p}.${f}`, gracePeriod)),
  ];
}

/**
 * `validateContainers`: each container's common checks, its name unique, its hooks and probes, no `restartPolicy`;
 * then host ports.
 */
function regularContainerErrors(
  containers: readonly Container[],
  p: string,
  names: Set<string>,
  pod: PodContext,
): FieldError[] {
  const out: FieldError[] = [];
  containers.forEach((c, i) => {
    const ip = `${p}[${i}]`;
    out.push(...commonErrors(c, ip, pod));
    const name = c.name ?? '';
    if (names.has(name)) out.push(duplicate(`${ip}.name`, name));
    else names.add(name);
    out.push(...hookAndProbeErrors(c, ip, pod.gracePeriod));
    if (isNonNil(c.restartPolicy))
      out.push(forbidden(`${ip}.restartPolicy`, 'may not be set for non-init containers'));
  });
  out.push(...hostPortConflicts(containers, p));
  return out;
}

/** The fields an init container may have only with `restartPolicy: Always` (a native sidecar). */
const SIDECAR_ONLY_FIELDS = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/**
 * `validateInitContainers`: each one's common checks, `restartPolicy` only `Always`, its name unique among regular
 * and init containers, its own host ports, and its hooks and probes checked when it restarts always, forbidden
 * otherwise.
 */
function initContainerErrors(
  containers: readonly Container[],
  p: string,
  names: Set<string>,
  pod: PodContext,
): FieldError[] {
  const out: FieldError[] = [];
  containers.forEach((c, i) => {
    const ip = `${p}[${i}]`;
    out.push(...commonErrors(c, ip, pod));
    const restartPolicy = c.restartPolicy;
    if (isNonNil(restartPolicy) && restartPolicy !== 'Always')
      out.push(notSupported(`${ip}.restartPolicy`, restartPolicy, ['Always']));
    const name = c.name ?? '';
    if (names.has(name)) out.push(duplicate(`${ip}.name`, name));
    else if (name !== '') names.add(name);
    out.push(...hostPortConflicts([c], p));
    if (restartPolicy === 'Always') out.push(...hookAndProbeErrors(c, ip, pod.gracePeriod));
    else
      for (const field of SIDECAR_ONLY_FIELDS)
        if (isNonNil(c[field]))
          out.push(
            forbidden(`${ip}.${field}`, 'may not be set for init containers without restartPolicy=Always'),
          );
    out.push(...initResizePolicyErrors(c.resizePolicy, `${ip}.resizePolicy`));
  });
  return out;
}

/** The placeholder container OpenKruise's fake pod gets when the SidecarSet has no containers. */
const PLACEHOLDER: Container = {
  name: 'test',
  image: 'busybox',
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePolicy: 'File',
};

/**
 * The errors Kubernetes' pod validation finds in a pod spec's volumes, containers and init containers (the subset of
 * the module comment), in Kubernetes' order.
 * @param spec the pod spec's volumes, containers and init containers
 * @param options `prefix`: the path of the pod spec (default `spec`); `placeholder`: a container `test` stands in for
 *   none, as in OpenKruise's SidecarSet webhook (default false: no containers, no container errors)
 */
export function podSpecErrors(
  spec: {
    volumes?: readonly Volume[];
    containers?: readonly Container[];
    initContainers?: readonly Container[];
    /** The pod's grace period, s (bounds a lifecycle `sleep`); absent: not checked. */
    terminationGracePeriodSeconds?: number | null;
    /** The pod's restart policy (default `Always`, as Kubernetes defaults it). */
    restartPolicy?: string;
    /** The pod's security context; `hostUsers: false` allows an `Unmasked` procMount. */
    securityContext?: { hostUsers?: boolean | null } | null;
  },
  options: { prefix?: string; placeholder?: boolean } = {},
): FieldError[] {
  const prefix = options.prefix ?? 'spec';
  const { valid, errors } = volumeErrors(decodedList<Volume>(spec.volumes), prefix);
  const names = new Set<string>();
  const containers = decodedList<Container>(spec.containers);
  const regular = containers.length > 0 || !options.placeholder ? containers : [PLACEHOLDER];
  const pod: PodContext = {
    volumes: valid,
    gracePeriod: spec.terminationGracePeriodSeconds ?? undefined,
    restartPolicy: spec.restartPolicy ?? 'Always',
    hostUsers: spec.securityContext?.hostUsers !== false,
  };
  errors.push(...regularContainerErrors(regular, `${prefix}.containers`, names, pod));
  errors.push(
    ...initContainerErrors(
      decodedList<Container>(spec.initContainers),
      `${prefix}.initContainers`,
      names,
      pod,
    ),
  );
  return errors;
}
