/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `syncNodes` (the pod template it creates from);
 * Kubernetes pkg/controller/daemon/util/daemonset_util.go `CreatePodTemplate`, `ReplaceDaemonSetPodNodeNameNodeAffinity`;
 * pkg/controller/controller_utils.go `GetPodFromTemplate`; OpenKruise's pod webhook (`KruisePodReady` gate).
 *
 * The pod a DaemonSet creates for a node.
 */
import type { Affinity, Toleration } from '../../../api/node.js';
import type { Pod } from '../../../api/types.js';
import { CONDITION_INPLACE_UPDATE_READY } from '../../../api/keys.js';
import { replaceNodeNameAffinity } from '../../../podset/nodePin.js';
import { newControllerRef } from '../../../podset/ownership.js';
import { injectKruisePodReadyGate } from '../../../podset/podReadiness.js';
import {
  ANNOTATION_TEMPLATE_GENERATION,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_POD_TEMPLATE_GENERATION,
} from '../api/keys.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND_NAME } from '../api/resource.js';
import type { DaemonSet } from '../api/types.js';
import { withDaemonTolerations } from './tolerations.js';
import { generatedName } from '../../../api/generatedName.js';

/** The DaemonSet's legacy template generation (`GetTemplateGeneration`): its annotation as an integer, or undefined. */
export function templateGeneration(ds: DaemonSet): string | undefined {
  const text = ds.metadata.annotations?.[ANNOTATION_TEMPLATE_GENERATION];
  return text !== undefined && /^[+-]?\d+$/.test(text) ? String(Number.parseInt(text, 10)) : undefined;
}

/**
 * The pod of `ds` for `nodeName`, as upstream creates it: the template's labels plus `pod-template-generation`
 * (only with the legacy annotation) and `controller-revision-hash` `hash`; its annotations and finalizers;
 * `generateName` `<ds>-` and — generated here so that the create expectation has a name — `name` the API server
 * would give it (the prefix cut to 58 characters, then `suffix`); the DaemonSet's controller reference
 * (`apps.kruise.io/v1beta1` DaemonSet, `controller` and `blockOwnerDeletion` true); the template's spec with the
 * daemon tolerations (./tolerations.ts), the `InPlaceUpdateReady` readiness gate under `InPlaceIfPossible`, the
 * required node affinity replaced by the pin to `nodeName`; then the `KruisePodReady` gate OpenKruise's pod webhook
 * adds.
 * @param ds the DaemonSet with its webhook defaults (../api/defaults.ts)
 * @param hash the current revision's hash
 * @param suffix 5 characters of `SAFE_ALPHABET`
 */
export function buildDaemonPod(ds: DaemonSet, nodeName: string, hash: string, suffix: string): Pod {
  const tpl = structuredClone(ds.spec.template);
  const meta = tpl.metadata ?? {};
  const generation = templateGeneration(ds);
  const labels: Record<string, string> = { ...(meta.labels ?? {}) };
  if (generation !== undefined) labels[LABEL_POD_TEMPLATE_GENERATION] = generation;
  if (hash) labels[LABEL_CONTROLLER_REVISION_HASH] = hash;
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  const inPlace =
    ds.spec.updateStrategy?.type === 'RollingUpdate' && ru?.rollingUpdateType === 'InPlaceIfPossible';
  const spec = {
    ...tpl.spec,
    tolerations: withDaemonTolerations(
      tpl.spec.tolerations as Toleration[] | undefined,
      tpl.spec.hostNetwork === true,
    ),
    ...(inPlace
      ? {
          readinessGates: [
            ...(tpl.spec.readinessGates ?? []),
            { conditionType: CONDITION_INPLACE_UPDATE_READY },
          ],
        }
      : {}),
    affinity: replaceNodeNameAffinity(tpl.spec.affinity as Affinity | undefined, nodeName),
  };
  const prefix = `${ds.metadata.name ?? ''}-`;
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: generatedName(prefix, suffix),
      generateName: prefix,
      namespace: ds.metadata.namespace,
      labels,
      ...(meta.annotations && Object.keys(meta.annotations).length > 0
        ? { annotations: { ...meta.annotations } }
        : {}),
      ...(meta.finalizers && meta.finalizers.length > 0 ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [newControllerRef(DAEMONSET_API_VERSION, DAEMONSET_KIND_NAME, ds)],
    },
    spec,
  };
  return injectKruisePodReadyGate(pod);
}
