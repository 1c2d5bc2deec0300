/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_utils.go `newStatefulSetPod`, `newVersionedStatefulSetPod`,
 * `isCurrentRevisionNeeded`, `initIdentity`, `updateIdentity`, `updateStorage`, `getPersistentVolumeClaims`;
 * Kubernetes pkg/controller `GetPodFromTemplate`; pkg/util/lifecycle `SetPodLifecycle`; pkg/webhook/pod/mutating
 * `injectPodReadinessGate` (the gate the pod webhook adds on create).
 *
 * The pod (and its PVCs) an Advanced StatefulSet creates for a missing ordinal.
 */
import { ANNOTATION_LIFECYCLE_TIMESTAMP, LABEL_LIFECYCLE_STATE, LifecycleState } from '../../../api/keys.js';
import { metaTime } from '../../../api/time.js';
import type { PersistentVolumeClaim, Pod, PodTemplateSpec, Volume } from '../../../api/types.js';
import { deepFreeze } from '../../../core/deepFreeze.js';
import { newControllerRef } from '../../../podset/ownership.js';
import { isAllHookedBy } from '../../../podset/pods.js';
import { injectKruisePodReadyGate } from '../../../podset/podReadiness.js';
import { podMatchesRevision } from '../../../podset/pods.js';
import { LABEL_POD_INDEX, LABEL_STATEFULSET_POD_NAME, LABEL_STATEFULSET_REVISION } from '../api/keys.js';
import { STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME } from '../api/resource.js';
import type { StatefulSet } from '../api/types.js';
import { claimName, podOrdinal, statefulPodName } from './ordinals.js';

/** Gates that shape a new pod. */
export interface NewPodGates {
  /** `PodIndexLabel` (beta, on): the `apps.kubernetes.io/pod-index` label. */
  podIndexLabel: boolean;
  /** `StatefulSetStartOrdinal` (alpha, off): `ordinals.start` counts. */
  statefulSetStartOrdinal: boolean;
}

/**
 * The PVCs of the pod at `ordinal`, one per volumeClaimTemplate, in template order: the template with name
 * `<template>-<set>-<ordinal>`, the set's namespace, and the selector's matchLabels merged over its labels. With
 * `whenDeleted: Delete` each also has a (non-controller) owner reference to the set, as upstream's
 * `UpdatePodClaimForRetentionPolicy` adds right after the create.
 */
export function claimsFor(sts: StatefulSet, ordinal: number): PersistentVolumeClaim[] {
  return (sts.spec.volumeClaimTemplates ?? []).map((tpl) => {
    const claim = structuredClone(tpl);
    const meta = { ...claim.metadata };
    delete meta.creationTimestamp;
    meta.name = claimName(tpl.metadata.name ?? '', sts, ordinal);
    meta.namespace = sts.metadata.namespace;
    meta.labels = { ...(meta.labels ?? {}), ...(sts.spec.selector?.matchLabels ?? {}) };
    if (sts.spec.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete') {
      meta.ownerReferences = [
        ...(meta.ownerReferences ?? []),
        {
          apiVersion: STATEFULSET_API_VERSION,
          kind: STATEFULSET_KIND_NAME,
          name: sts.metadata.name ?? '',
          uid: sts.metadata.uid ?? '',
        },
      ];
    }
    const out: PersistentVolumeClaim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: meta };
    if (claim.spec) out.spec = claim.spec;
    return out;
  });
}

/**
 * A set's pod template, copied and deep-frozen once per set object: a pass builds a pod for every missing ordinal
 * (upstream does the same), and at 1,000 missing ordinals a copy of the template each took 5 s of a scale-up's CPU.
 * The pods share the frozen parts (containers, volumes' sources, …); what differs per pod is rebuilt. Keyed by the
 * object, so a set object is read as it was when first asked about (planners never change their input).
 */
const frozenTemplates = new WeakMap<StatefulSet, PodTemplateSpec>();

function frozenTemplateOf(set: StatefulSet): PodTemplateSpec {
  let tpl = frozenTemplates.get(set);
  if (tpl === undefined) frozenTemplates.set(set, (tpl = deepFreeze(structuredClone(set.spec.template))));
  return tpl;
}

/**
 * The pod of `set` (already at the revision it is created from) for `ordinal`: the template's labels, annotations,
 * finalizers and spec; `generateName` `<set>-` and name `<set>-<ordinal>`; the set's controller reference; labels
 * `statefulset.kubernetes.io/pod-name`, `apps.kubernetes.io/pod-index` (gate) and `controller-revision-hash`;
 * `hostname` the pod name and `subdomain` the serviceName; one PVC volume per volumeClaimTemplate (replacing a
 * template volume of that name; upstream's order of these is Go map order, here template order), then the other
 * volumes; the lifecycle label and timestamp (`PreparingNormal` while a preNormal hook is not all-hooked, else
 * `Normal`); last the `KruisePodReady` readiness gate after the template's gates, as OpenKruise's pod webhook
 * (`injectPodReadinessGate`) adds it to the pod on create.
 */
export function newStatefulSetPod(
  set: StatefulSet,
  ordinal: number,
  revision: string,
  gates: NewPodGates,
  now: Date,
): Pod {
  const tpl = frozenTemplateOf(set);
  const name = statefulPodName(set, ordinal);
  const labels: Record<string, string> = { ...(tpl.metadata?.labels ?? {}) };
  labels[LABEL_STATEFULSET_POD_NAME] = name;
  if (gates.podIndexLabel) labels[LABEL_POD_INDEX] = String(ordinal);
  labels[LABEL_STATEFULSET_REVISION] = revision;
  const annotations: Record<string, string> = { ...(tpl.metadata?.annotations ?? {}) };
  const spec = { ...tpl.spec };
  spec.hostname = name;
  if (set.spec.serviceName) spec.subdomain = set.spec.serviceName;
  const claims = set.spec.volumeClaimTemplates ?? [];
  if (claims.length > 0) {
    const claimVolumes: Volume[] = claims.map((c) => ({
      name: c.metadata.name ?? '',
      persistentVolumeClaim: { claimName: claimName(c.metadata.name ?? '', set, ordinal) },
    }));
    const names = new Set(claimVolumes.map((v) => v.name));
    spec.volumes = [...claimVolumes, ...(spec.volumes ?? []).filter((v) => !names.has(v.name))];
  }
  const preNormal = set.spec.lifecycle?.preNormal;
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: `${set.metadata.name ?? ''}-`,
      namespace: set.metadata.namespace,
      labels,
      annotations,
      ownerReferences: [newControllerRef(STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME, set)],
    },
    spec,
  };
  if (tpl.metadata?.finalizers && tpl.metadata.finalizers.length > 0)
    pod.metadata.finalizers = [...tpl.metadata.finalizers];
  const state =
    preNormal && !isAllHookedBy(pod, preNormal) ? LifecycleState.PreparingNormal : LifecycleState.Normal;
  labels[LABEL_LIFECYCLE_STATE] = state;
  annotations[ANNOTATION_LIFECYCLE_TIMESTAMP] = metaTime(now);
  return injectKruisePodReadyGate(pod);
}

/**
 * Whether the new pod at `ordinal` is made from the current revision rather than the update revision (upstream
 * `isCurrentRevisionNeeded`): never for OnDelete; without `unorderedUpdate`, when fewer than `partition` existing
 * pods precede it plus itself (so partition counts pods, not ordinals, when ordinals are reserved); with
 * `unorderedUpdate`, when fewer than `partition` other pods are not at the update revision.
 * @param replicas the range's slots (./ordinals.ts `splitByOrdinal`), with pods planned earlier in this pass
 */
export function isCurrentRevisionNeeded(
  sts: StatefulSet,
  updateRevision: string,
  ordinal: number,
  replicas: readonly (Pod | undefined)[],
  start: number,
  currentReplicas: number,
): boolean {
  const us = sts.spec.updateStrategy;
  if (us?.type !== 'RollingUpdate') return false;
  const ru = us.rollingUpdate;
  if (!ru) return ordinal < start + currentReplicas;
  const partition = ru.partition ?? 0;
  if (!ru.unorderedUpdate) {
    const before = replicas.slice(0, ordinal - start).filter((p) => p !== undefined).length;
    return before + 1 <= partition;
  }
  const notUpdated = replicas.filter(
    (p) => p !== undefined && podOrdinal(p) !== ordinal && !podMatchesRevision(p, updateRevision),
  ).length;
  return notUpdated < partition;
}
