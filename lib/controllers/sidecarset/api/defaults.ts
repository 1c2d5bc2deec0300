/**
 * The defaults OpenKruise's SidecarSet mutating webhook writes into a v1alpha1 SidecarSet before hashing it
 * (`SetDefaultsSidecarSet` and `setDefaultContainer` in `apis/apps/defaults/v1alpha1.go`). Pure; the input is not
 * modified. Only Go zero values (absent, `null`, `""`, `0`) are filled, so a defaulted object comes back equal.
 */
import {
  defaultContainerInPlace,
  defaultFieldRef,
  defaultVolumesInPlace,
} from '../../../api/podTemplateDefaults.js';
import type { SidecarSet } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isZero = (v: unknown): boolean => v === undefined || v === null || v === '' || v === 0;
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const setIfZero = (o: Obj, key: string, value: unknown): void => {
  if (isZero(o[key])) o[key] = value;
};

/**
 * One sidecar container, in place: inject policy, `upgradeType` ColdUpgrade, `shareVolumePolicy.type` disabled, then
 * Kubernetes' `SetDefaults_Container` (pull policy by the image's tag, termination message path and policy), port
 * protocol TCP, fieldRef apiVersion v1 (env and transferEnv), liveness and readiness probe defaults (not the startup
 * probe's, as upstream) and httpGet defaults of probes and lifecycle handlers; `resources` `{}` as Go writes it.
 */
function defaultSidecarContainer(c: Obj, injectPolicy: string): void {
  setIfZero(c, 'podInjectPolicy', injectPolicy);
  if (!isObj(c.upgradeStrategy)) c.upgradeStrategy = {};
  setIfZero(c.upgradeStrategy as Obj, 'upgradeType', 'ColdUpgrade');
  if (!isObj(c.shareVolumePolicy)) c.shareVolumePolicy = {};
  setIfZero(c.shareVolumePolicy as Obj, 'type', 'disabled');
  for (const t of objects(c.transferEnv))
    if (isObj(t.sourceContainerNameFrom)) defaultFieldRef(t.sourceContainerNameFrom.fieldRef);
  defaultContainerInPlace(c, { probes: ['livenessProbe', 'readinessProbe'] });
}

/**
 * A copy of `sidecarSet` with OpenKruise's defaults: `updateStrategy` type RollingUpdate, maxUnavailable 1,
 * partition 0; init containers AfterAppContainer and containers BeforeAppContainer (with the container defaults
 * above); volume defaults; `revisionHistoryLimit` 10; patchPodMetadata `patchPolicy` Retain; an
 * `injectionStrategy.revision` without a policy gets Always.
 */
export function defaultSidecarSet(sidecarSet: SidecarSet): SidecarSet {
  const out = structuredClone(sidecarSet);
  const spec = isObj(out.spec) ? out.spec : (out.spec = {});
  if (!isObj(spec.updateStrategy)) spec.updateStrategy = {};
  const strategy = spec.updateStrategy as Obj;
  setIfZero(strategy, 'type', 'RollingUpdate');
  if (strategy.maxUnavailable === undefined || strategy.maxUnavailable === null) strategy.maxUnavailable = 1;
  if (strategy.partition === undefined || strategy.partition === null) strategy.partition = 0;
  for (const c of objects(spec.initContainers)) defaultSidecarContainer(c, 'AfterAppContainer');
  for (const c of objects(spec.containers)) defaultSidecarContainer(c, 'BeforeAppContainer');
  defaultVolumesInPlace(spec.volumes);
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null)
    spec.revisionHistoryLimit = 10;
  for (const p of objects(spec.patchPodMetadata)) setIfZero(p, 'patchPolicy', 'Retain');
  if (!isObj(spec.injectionStrategy)) spec.injectionStrategy = {};
  const revision = (spec.injectionStrategy as Obj).revision;
  if (isObj(revision)) setIfZero(revision, 'policy', 'Always');
  return out;
}
