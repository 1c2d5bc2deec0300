/**
 * The pod-template defaults OpenKruise's CloneSet mutating webhook writes into `spec.template` (OpenKruise:
 * `SetDefaultPodSpec` in `apis/apps/defaults/pod.go`, called from `SetDefaultsCloneSet` in
 * `apis/apps/defaults/v1alpha1.go` by the handler in `pkg/webhook/cloneset/mutating`), built on the Kubernetes
 * `core/v1` defaulters in `k8s.io/kubernetes/pkg/apis/core/v1/defaults.go`. The revision hash covers the stored,
 * defaulted template, so Kruiseless applies the same defaults in memory to name revisions and build pods as
 * OpenKruise does. Pure; the input is never modified.
 */
import type { PersistentVolumeClaim, PodTemplateSpec } from './types.js';

type Obj = Record<string, unknown>;

/** `corev1.DefaultTerminationGracePeriodSeconds`, seconds. */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
/** `corev1.TerminationMessagePathDefault`. */
export const DEFAULT_TERMINATION_MESSAGE_PATH = '/dev/termination-log';
/** `corev1.DefaultSchedulerName`. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** Default `defaultMode` of secret, configMap, downwardAPI and projected volumes: 0644 octal as a decimal. */
export const DEFAULT_VOLUME_MODE = 0o644;
/** Default `expirationSeconds` of a projected service-account token, seconds (one hour). */
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A Go zero value as it arrives in JSON: absent, `null`, `""` or `0`. */
function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0;
}

/** A nil Go pointer as it arrives in JSON: absent or `null` (a pointer to `""` or `0` is set). */
function isNil(v: unknown): boolean {
  return v === undefined || v === null;
}

function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

function setIfZero(o: Obj, key: string, value: unknown): void {
  if (isZero(o[key])) o[key] = value;
}

function setIfNil(o: Obj, key: string, value: unknown): void {
  if (isNil(o[key])) o[key] = value;
}

// Reference grammar of github.com/distribution/reference (what `parsers.ParseImageName` parses with).
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(
  `^(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*(?::(${TAG}))?(?:@(${DIGEST}))?$`,
);

/**
 * The pull policy Kubernetes gives a container with none (`SetDefaults_Container`): `Always` when the image's tag
 * is `latest` — written, or implied by an image with neither tag nor digest — else `IfNotPresent` (also for an
 * image the reference grammar rejects, as upstream ignores the parse error).
 *
 * Approximation: the reference is checked with the grammar's regular expression; upstream's extra checks (a
 * 64-hex-digit bare identifier, a name longer than 255 characters) are not repeated.
 */
export function kubernetesDefaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const m = REFERENCE.exec(image);
  if (!m) return 'IfNotPresent';
  const [, tag, digest] = m;
  const effectiveTag = tag === undefined && digest === undefined ? 'latest' : tag;
  return effectiveTag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultHttpGet(action: unknown): void {
  if (!isObj(action)) return;
  setIfZero(action, 'path', '/');
  setIfZero(action, 'scheme', 'HTTP');
}

/** `SetDefaults_ObjectFieldSelector`: a field reference's `apiVersion` `v1`, in place (nothing for a non-object). */
export function defaultFieldRef(ref: unknown): void {
  if (isObj(ref)) setIfZero(ref, 'apiVersion', 'v1');
}

/** The container probes Kubernetes' defaulters fill (`SetDefaults_Probe`). */
const ALL_PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/** Defaults shared by containers, init containers and ephemeral containers. */
function defaultContainerCommon(c: Obj, probes: readonly string[]): void {
  for (const port of objects(c.ports)) setIfZero(port, 'protocol', 'TCP');
  for (const env of objects(c.env)) if (isObj(env.valueFrom)) defaultFieldRef(env.valueFrom.fieldRef);
  for (const key of probes) {
    const probe = c[key];
    if (!isObj(probe)) continue;
    setIfZero(probe, 'timeoutSeconds', 1);
    setIfZero(probe, 'periodSeconds', 10);
    setIfZero(probe, 'successThreshold', 1);
    setIfZero(probe, 'failureThreshold', 3);
    defaultHttpGet(probe.httpGet);
  }
  if (isObj(c.lifecycle)) {
    for (const key of ['postStart', 'preStop']) {
      const handler = c.lifecycle[key];
      if (isObj(handler)) defaultHttpGet(handler.httpGet);
    }
  }
  // Go always writes the (non-pointer) resources struct; the webhook's patch stores it as `{}`.
  setIfNil(c, 'resources', {});
}

/**
 * Kubernetes' `SetDefaults_Container` and the defaulters under it, in place on one container object: pull policy
 * (by `options.pullPolicy`, default {@link kubernetesDefaultPullPolicy} of the image), termination message path and
 * policy, port protocol `TCP`, env field references' `apiVersion`, the defaults of `options.probes` (default
 * liveness, readiness and startup; OpenKruise's SidecarSet defaulting fills the first two only) and of httpGet
 * actions in probes and lifecycle handlers, and `resources` `{}` (Go always writes the struct).
 */
export function defaultContainerInPlace(
  c: Obj,
  options: { pullPolicy?: (image: string) => string; probes?: readonly string[] } = {},
): void {
  const pullPolicy = options.pullPolicy ?? kubernetesDefaultPullPolicy;
  if (isZero(c.imagePullPolicy)) c.imagePullPolicy = pullPolicy(typeof c.image === 'string' ? c.image : '');
  setIfZero(c, 'terminationMessagePath', DEFAULT_TERMINATION_MESSAGE_PATH);
  setIfZero(c, 'terminationMessagePolicy', 'File');
  defaultContainerCommon(c, options.probes ?? ALL_PROBES);
}

/**
 * Fills the Kubernetes volume defaults (`SetDefaults_Volume` and the volume-source defaulters, listed at
 * {@link defaultPodTemplate}) into each volume of `volumes`, in place. OpenKruise's `SetDefaultPodVolumes` (used for a
 * SidecarSet's `spec.volumes`) is the same.
 */
export function defaultVolumesInPlace(volumes: unknown): void {
  for (const v of objects(volumes)) defaultVolume(v);
}

function defaultVolume(v: Obj): void {
  const hasSource = Object.keys(v).some((k) => k !== 'name' && !isNil(v[k]));
  if (!hasSource) v.emptyDir = {};
  if (isObj(v.hostPath)) setIfNil(v.hostPath, 'type', '');
  if (isObj(v.secret)) setIfNil(v.secret, 'defaultMode', DEFAULT_VOLUME_MODE);
  if (isObj(v.configMap)) setIfNil(v.configMap, 'defaultMode', DEFAULT_VOLUME_MODE);
  if (isObj(v.downwardAPI)) {
    setIfNil(v.downwardAPI, 'defaultMode', DEFAULT_VOLUME_MODE);
    for (const item of objects(v.downwardAPI.items)) defaultFieldRef(item.fieldRef);
  }
  if (isObj(v.projected)) {
    setIfNil(v.projected, 'defaultMode', DEFAULT_VOLUME_MODE);
    for (const source of objects(v.projected.sources)) {
      if (isObj(source.downwardAPI)) {
        for (const item of objects(source.downwardAPI.items)) defaultFieldRef(item.fieldRef);
      }
      if (isObj(source.serviceAccountToken)) {
        setIfNil(source.serviceAccountToken, 'expirationSeconds', DEFAULT_TOKEN_EXPIRATION_SECONDS);
      }
    }
  }
}

/**
 * Returns a NEW pod template with the defaults OpenKruise's CloneSet webhook injects (OpenKruise's
 * `SetDefaultPodSpec`, which calls the Kubernetes defaulters `SetDefaults_PodSpec`, `SetDefaults_Container`,
 * `SetDefaults_Probe`, `SetDefaults_HTTPGetAction`, `SetDefaults_ObjectFieldSelector`, `SetDefaults_Volume` and the
 * volume-source defaulters). Only fields at their Go zero value (absent, `null`, `""`, `0`; for pointers absent or
 * `null`) are filled, so the function is idempotent and a template OpenKruise already defaulted comes back equal.
 *
 * - pod spec: `dnsPolicy` `ClusterFirst`, `restartPolicy` `Always`, `securityContext` `{}`,
 *   `terminationGracePeriodSeconds` 30 (seconds), `schedulerName` `default-scheduler`;
 * - containers: `imagePullPolicy` `Always` (OpenKruise's choice, so that an image change can be done in place);
 *   init containers: Kubernetes' rule, `Always` for a `latest` or untagged image else `IfNotPresent` (see
 *   {@link kubernetesDefaultPullPolicy}); both: `terminationMessagePath` `/dev/termination-log`,
 *   `terminationMessagePolicy` `File`;
 * - containers, init and ephemeral containers: `resources` `{}`, port `protocol` `TCP`, env
 *   `valueFrom.fieldRef.apiVersion` `v1`, liveness/readiness/startup probes `timeoutSeconds` 1, `periodSeconds` 10,
 *   `successThreshold` 1, `failureThreshold` 3, and probe and lifecycle (`postStart`, `preStop`) `httpGet` `path`
 *   `/`, `scheme` `HTTP`;
 * - volumes: `emptyDir: {}` when no source is set; `hostPath.type` `""`; `defaultMode` 420 (0644) on `secret`,
 *   `configMap`, `downwardAPI` and `projected`; `fieldRef.apiVersion` `v1` in downwardAPI items (also inside
 *   projected sources); projected `serviceAccountToken.expirationSeconds` 3600.
 *
 * Not done, as upstream does not do it here or it does not change the stored JSON for valid input:
 * `enableServiceLinks` and requests-from-limits (Kubernetes' pod-only `SetDefaults_Pod`, applied by the API server
 * when the pod is created), image-volume pull policy (behind the off-by-default `ImageVolume` gate), and the
 * milli-unit rounding of resource quantities (`SetDefaults_ResourceList`).
 * @param template the CloneSet's `spec.template` as stored
 * @returns a deep copy with the defaults filled in
 */
export function defaultPodTemplate(template: PodTemplateSpec): PodTemplateSpec {
  const out = structuredClone(template);
  if (!isObj(out)) return out; // no template: nothing to default (the CRD's schema says what is missing)
  const spec = out.spec as unknown as Obj | undefined;
  if (!isObj(spec)) return out;
  setIfZero(spec, 'dnsPolicy', 'ClusterFirst');
  setIfZero(spec, 'restartPolicy', 'Always');
  setIfNil(spec, 'securityContext', {});
  setIfNil(spec, 'terminationGracePeriodSeconds', DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
  setIfZero(spec, 'schedulerName', DEFAULT_SCHEDULER_NAME);
  for (const v of objects(spec.volumes)) defaultVolume(v);
  for (const c of objects(spec.initContainers)) defaultContainerInPlace(c);
  for (const c of objects(spec.containers)) defaultContainerInPlace(c, { pullPolicy: () => 'Always' });
  for (const c of objects(spec.ephemeralContainers)) defaultContainerCommon(c, ALL_PROBES);
  return out;
}

/**
 * Kubernetes' `SetDefaults_PersistentVolumeClaim`, which OpenKruise's CloneSet and Advanced StatefulSet webhooks call
 * on each volumeClaimTemplate with the pod-template defaults: `status.phase` Pending when unset, in place.
 * (`spec.volumeMode` is `SetDefaults_PersistentVolumeClaimSpec`'s, which the webhooks do not call: the API server
 * defaults it on each PVC created from the template. The webhooks' milli-unit rounding of the templates' quantities
 * is the Go round trip's, lib/api/goRoundTrip.ts.)
 */
export function defaultClaimTemplateInPlace(claim: PersistentVolumeClaim): void {
  const status = (claim.status ??= {});
  if (!status.phase) status.phase = 'Pending';
}
