/**
 * What the parity runner reads and writes on one cluster, through @kubernetes/client-node: the scenario's object
 * (of the kind's resource, as users write it, e.g. a v1alpha1 CloneSet), the namespace's pods, PVCs,
 * ControllerRevisions, ImagePullJobs and Events. Both controllers' clusters are driven through this same code, so a difference in
 * a snapshot is the controllers', not ours.
 */
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type CoreV1Event,
  type V1ControllerRevision,
  type V1Node,
  type V1PersistentVolumeClaim,
  type V1Pod,
} from '@kubernetes/client-node';
import { KRUISE_CONFIGURATION } from '../../lib/controllers/kruiseConfiguration.js';
import { IMAGE_PULL_JOBS, releaseImagePullJobs } from './imagePullJobRelease.js';
import type { ParityKind } from './kind.js';
import { WORKLOAD_RESOURCES } from './scenario.js';

/** The scenario's object as read (only what the runner looks at is typed). */
export interface KruiseObject {
  metadata: { name: string; namespace?: string; generation?: number; uid?: string };
  spec: Record<string, unknown>;
  status?: Record<string, unknown> & { observedGeneration?: number };
}

/** Everything the runner reads in one namespace at one instant. */
export interface ClusterState {
  /** the scenario's object; absent before it is created or after it is deleted */
  object?: KruiseObject;
  pods: V1Pod[];
  pvcs: V1PersistentVolumeClaim[];
  revisions: V1ControllerRevision[];
  /** ImagePullJobs (apps.kruise.io/v1alpha1) as read: the workload controllers' image pre-download. */
  imagePullJobs: ImagePullJobObject[];
  events: CoreV1Event[];
}

/** An ImagePullJob as the snapshot reads it. */
export interface ImagePullJobObject {
  metadata: {
    name?: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
    deletionTimestamp?: string;
    finalizers?: string[];
  };
  spec?: Record<string, unknown>;
}

/** One cluster, seen by the runner for one kind. */
export class ParityCluster {
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly custom: CustomObjectsApi;
  /** The loaded kubeconfig (for watches). */
  readonly kc: KubeConfig;

  /**
   * @param kubeconfig path of an admin kubeconfig (its current context)
   * @param kind the kind of the scenario's object
   */
  constructor(
    readonly kubeconfig: string,
    readonly kind: ParityKind,
  ) {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    this.kc = kc;
    this.core = kc.makeApiClient(CoreV1Api);
    this.apps = kc.makeApiClient(AppsV1Api);
    this.custom = kc.makeApiClient(CustomObjectsApi);
  }

  /** Creates the namespace (a no-op when it exists). */
  async ensureNamespace(namespace: string): Promise<void> {
    try {
      await this.core.createNamespace({ body: { metadata: { name: namespace } } });
    } catch (e) {
      if (statusCode(e) !== 409) throw e;
    }
  }

  /** Deletes the namespace and waits (up to `timeoutMs`) until it is gone, so a rerun starts clean. */
  async deleteNamespace(namespace: string, timeoutMs = 60_000): Promise<void> {
    try {
      await this.core.deleteNamespace({ name: namespace });
    } catch (e) {
      if (statusCode(e) === 404) return;
      throw e;
    }
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        await this.core.readNamespace({ name: namespace });
      } catch (e) {
        if (statusCode(e) === 404) return;
        throw e;
      }
      await releaseImagePullJobs(this.custom, namespace).catch(() => 0);
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`namespace ${namespace} still terminating after ${timeoutMs / 1000} s`);
  }

  /**
   * Creates the scenario's object from a manifest in `namespace`, through the version its `apiVersion` names when
   * that is another version of the kind's group (a CloneSet written as `apps.kruise.io/v1beta1`); a cluster-scoped
   * kind's object has no namespace, and one of the same name a previous run left is deleted first.
   */
  async createObject(namespace: string, manifest: Record<string, unknown>): Promise<void> {
    if (!this.kind.clusterScoped) {
      const resource = { ...this.kind.resource, version: versionOf(manifest, this.kind.resource) };
      await this.custom.createNamespacedCustomObject({ ...resource, namespace, body: manifest });
      return;
    }
    const metaName = (manifest.metadata as { name?: unknown } | undefined)?.name;
    const name = typeof metaName === 'string' ? metaName : '';
    await this.deleteClusterObject(name);
    await this.custom.createClusterCustomObject({ ...this.kind.resource, body: manifest });
  }

  /** Deletes a cluster-scoped kind's object `name` and waits (up to 30 s) until it is gone; none is fine. */
  async deleteClusterObject(name: string): Promise<void> {
    if (!this.kind.clusterScoped || !name) return;
    const get = () =>
      this.custom.getClusterCustomObject({ ...this.kind.resource, name }).then(
        () => true,
        (e: unknown) => {
          if (statusCode(e) === 404) return false;
          throw e;
        },
      );
    if (!(await get())) return;
    await this.custom.deleteClusterCustomObject({ ...this.kind.resource, name }).catch((e: unknown) => {
      if (statusCode(e) !== 404) throw e;
    });
    for (let i = 0; i < 120 && (await get()); i++) await new Promise((r) => setTimeout(r, 250));
  }

  /**
   * Deletes the scenario's object `name` (background propagation: what it owns is left to the garbage collector);
   * a cluster-scoped one as {@link deleteClusterObject}, waiting until it is gone. 404 counts as done.
   */
  async deleteObject(namespace: string, name: string): Promise<void> {
    if (this.kind.clusterScoped) return this.deleteClusterObject(name);
    await this.custom
      .deleteNamespacedCustomObject({ ...this.kind.resource, namespace, name })
      .catch((e: unknown) => {
        if (statusCode(e) !== 404) throw e;
      });
  }

  /**
   * Creates an object of any kind (its manifest names apiVersion and kind) in `namespace`; a CustomResourceDefinition
   * (of a workload a scenario makes up: cluster-scoped, so no namespace's deletion takes it away) is kept when a run
   * before made it already.
   */
  async createAny(namespace: string, manifest: Record<string, unknown>): Promise<void> {
    const meta = (manifest.metadata ?? {}) as Record<string, unknown>;
    const object = { ...manifest, metadata: { ...meta, namespace } } as {
      apiVersion: string;
      kind: string;
      metadata: { name: string; namespace: string };
    };
    await KubernetesObjectApi.makeApiClient(this.kc)
      .create(object)
      .catch((e: unknown) => {
        if (object.kind !== 'CustomResourceDefinition' || statusCode(e) !== 409) throw e;
      });
  }

  /** Merge-patches an object of any namespaced kind in `namespace`. */
  async patchAny(
    namespace: string,
    ref: { apiVersion: string; kind: string; name: string },
    patch: Record<string, unknown>,
  ): Promise<void> {
    await KubernetesObjectApi.makeApiClient(this.kc).patch(
      {
        ...patch,
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        metadata: { ...(patch.metadata ?? {}), name: ref.name, namespace },
      },
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.MergePatch,
    );
  }

  /** Deletes an object of any namespaced kind in `namespace` (background propagation; 404 counts as done). */
  async deleteAny(namespace: string, ref: { apiVersion: string; kind: string; name: string }): Promise<void> {
    await KubernetesObjectApi.makeApiClient(this.kc)
      .delete({ apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace } })
      .catch((e: unknown) => {
        if (statusCode(e) !== 404) throw e;
      });
  }

  /** Evicts a pod through its `eviction` subresource (policy/v1), as `kubectl drain` does. */
  async evictPod(namespace: string, name: string): Promise<void> {
    await this.core.createNamespacedPodEviction({
      namespace,
      name,
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } },
    });
  }

  /**
   * Sets `spec.replicas` of the workload `kind`/`name` of `namespace` (a merge patch).
   * @throws Error for a kind not of {@link WORKLOAD_RESOURCES}
   */
  async scaleWorkload(namespace: string, kind: string, name: string, replicas: number): Promise<void> {
    await this.custom.patchNamespacedCustomObject(
      { ...workloadResource(kind), namespace, name, body: { spec: { replicas } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  /** Creates a pod in `namespace` (a cluster-scoped kind's scenario makes the pods its object acts on). */
  async createPod(namespace: string, manifest: Record<string, unknown>): Promise<void> {
    await this.core.createNamespacedPod({
      namespace,
      body: { ...manifest, metadata: { ...(manifest.metadata as object), namespace } },
    });
  }

  /** Merge-patches the scenario's object (RFC 7386: lists are replaced whole). */
  async patchObject(namespace: string, name: string, patch: Record<string, unknown>): Promise<void> {
    if (this.kind.clusterScoped) {
      await this.custom.patchClusterCustomObject(
        { ...this.kind.resource, name, body: patch },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      return;
    }
    await this.custom.patchNamespacedCustomObject(
      { ...this.kind.resource, namespace, name, body: patch },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  /**
   * Sets `spec.replicas` through the object's `/scale` subresource, as `kubectl scale` does (a merge patch of the
   * autoscaling/v1 Scale), so the write goes through the subresource's path and not the object's.
   */
  async patchScale(namespace: string, name: string, replicas: number): Promise<void> {
    await this.custom.patchNamespacedCustomObjectScale(
      { ...this.kind.resource, namespace, name, body: { spec: { replicas } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  /** Merge-patches a pod's metadata or spec. */
  async patchPod(namespace: string, name: string, patch: Record<string, unknown>): Promise<void> {
    await this.core.patchNamespacedPod(
      { namespace, name, body: patch },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  /**
   * Sets one condition in a pod's status (`pods/status`, a strategic-merge patch: conditions merge by `type`), as the
   * owner of a readiness gate writes it; its transition time is now.
   */
  async setPodCondition(
    namespace: string,
    name: string,
    type: string,
    status: 'True' | 'False',
  ): Promise<void> {
    const condition = { type, status, lastTransitionTime: new Date().toISOString() };
    await this.core.patchNamespacedPodStatus(
      { namespace, name, body: { status: { conditions: [condition] } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
  }

  /** Deletes a pod with its default grace period (404 counts as done). */
  async deletePod(namespace: string, name: string): Promise<void> {
    try {
      await this.core.deleteNamespacedPod({ namespace, name });
    } catch (e) {
      if (statusCode(e) !== 404) throw e;
    }
  }

  /** Deletes a PersistentVolumeClaim by name (its names are not random: `<template>-<pod>`); 404 counts as done. */
  async deletePvc(namespace: string, name: string): Promise<void> {
    try {
      await this.core.deleteNamespacedPersistentVolumeClaim({ namespace, name });
    } catch (e) {
      if (statusCode(e) !== 404) throw e;
    }
  }

  /**
   * Creates ResourceQuota `name` in `namespace` with `spec.hard` = `hard`, or replaces the spec of the one there, and
   * writes its status as kube-controller-manager's quota controller would: `status.hard` = `hard`, `status.used` the
   * namespace's pods that are neither terminal nor being deleted. The local control planes run no quota controller
   * (infra/local: only the garbage collector, namespace, PV/PVC and job controllers), and until a quota has a status
   * the quota admission refuses every create it covers; from then on the admission itself counts what it admits.
   * @throws Error for a limit other than `pods` / `count/pods` (its usage would need the quota controller)
   */
  async putResourceQuota(namespace: string, name: string, hard: Record<string, string>): Promise<void> {
    const unsupported = Object.keys(hard).filter((k) => k !== 'pods' && k !== 'count/pods');
    if (unsupported.length > 0)
      throw new Error(`ResourceQuota ${name}: only pods can be limited, not ${unsupported.join(', ')}`);
    let quota;
    try {
      const q = await this.core.readNamespacedResourceQuota({ namespace, name });
      quota = await this.core.replaceNamespacedResourceQuota({
        namespace,
        name,
        body: { ...q, spec: { ...q.spec, hard } },
      });
    } catch (e) {
      if (statusCode(e) !== 404) throw e;
      quota = await this.core.createNamespacedResourceQuota({
        namespace,
        body: { metadata: { name, namespace }, spec: { hard } },
      });
    }
    const pods = (await this.core.listNamespacedPod({ namespace })).items.filter(
      (p) =>
        !p.metadata?.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
    );
    const used = Object.fromEntries(Object.keys(hard).map((k) => [k, String(pods.length)]));
    await this.core.replaceNamespacedResourceQuotaStatus({
      namespace,
      name,
      body: { ...quota, status: { hard, used } },
    });
  }

  /** The cluster's node names, sorted: a scenario's node index is a position in this list. */
  async nodeNames(): Promise<string[]> {
    const list = await this.core.listNode();
    return list.items.map((n) => n.metadata?.name ?? '').sort();
  }

  /** Reads a node. */
  async readNode(name: string): Promise<V1Node> {
    return this.core.readNode({ name });
  }

  /** Merge-patches a node (labels, taints, `spec.unschedulable`). */
  /**
   * The entries at `keys` of the `kruise-system/kruise-configuration` ConfigMap, null for a key it lacks; undefined
   * when there is no such ConfigMap.
   * @throws the client's error for a failed read other than 404
   */
  async kruiseConfiguration(keys: readonly string[]): Promise<Record<string, string | null> | undefined> {
    let cm;
    try {
      cm = await this.core.readNamespacedConfigMap({ ...KRUISE_CONFIGURATION });
    } catch (e) {
      if (statusCode(e) === 404) return undefined;
      throw e;
    }
    return Object.fromEntries(keys.map((k) => [k, cm.data?.[k] ?? null]));
  }

  /**
   * Merges `entries` into the `kruise-system/kruise-configuration` ConfigMap's data (null removes a key), creating
   * it (and its namespace) when it does not exist.
   * @throws the client's error for a failed write
   */
  async patchKruiseConfiguration(entries: Record<string, string | null>): Promise<void> {
    try {
      await this.core.patchNamespacedConfigMap(
        { ...KRUISE_CONFIGURATION, body: { data: entries } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    } catch (e) {
      if (statusCode(e) !== 404) throw e;
      await this.ensureNamespace(KRUISE_CONFIGURATION.namespace);
      const data = Object.fromEntries(
        Object.entries(entries).flatMap(([k, v]) => (v === null ? [] : [[k, v]])),
      );
      await this.core.createNamespacedConfigMap({
        namespace: KRUISE_CONFIGURATION.namespace,
        body: { metadata: { name: KRUISE_CONFIGURATION.name }, data },
      });
    }
  }

  async patchNode(name: string, patch: Record<string, unknown>): Promise<void> {
    await this.core.patchNode(
      { name, body: patch },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  /**
   * The ControllerRevisions of the scenario: the namespace's, or for a kind keeping them elsewhere
   * (`kind.revisionsIn`) those of object `name` there (none before it is named).
   */
  private async listRevisions(namespace: string, name: string): Promise<V1ControllerRevision[]> {
    const where = this.kind.revisionsIn;
    if (!where) return (await this.apps.listNamespacedControllerRevision({ namespace })).items;
    if (!name) return [];
    const list = await this.apps.listNamespacedControllerRevision({
      namespace: where.namespace,
      labelSelector: `${where.objectNameLabel}=${name}`,
    });
    return list.items;
  }

  /**
   * The namespace's ImagePullJobs (v1alpha1), none when the resource is not served.
   * @throws other API errors
   */
  private async listImagePullJobs(namespace: string): Promise<ImagePullJobObject[]> {
    return this.custom
      .listNamespacedCustomObject({ ...IMAGE_PULL_JOBS, namespace })
      .then((l) => (l as { items: ImagePullJobObject[] }).items)
      .catch((e: unknown) => {
        if (statusCode(e) === 404) return [];
        throw e;
      });
  }

  /**
   * Reads the scenario's object `name`, the pods, PVCs, ControllerRevisions (see {@link listRevisions}), ImagePullJobs (none when the resource is
   * not served) and Events of one namespace.
   */
  async read(namespace: string, name: string): Promise<ClusterState> {
    const [object, pods, pvcs, revisions, imagePullJobs, events] = await Promise.all([
      (this.kind.clusterScoped
        ? this.custom.getClusterCustomObject({ ...this.kind.resource, name })
        : this.custom.getNamespacedCustomObject({ ...this.kind.resource, namespace, name })
      )
        .then((o) => o as KruiseObject)
        .catch((e: unknown) => {
          if (statusCode(e) === 404) return undefined;
          throw e;
        }),
      this.core.listNamespacedPod({ namespace }).then((l) => l.items),
      this.core.listNamespacedPersistentVolumeClaim({ namespace }).then((l) => l.items),
      this.listRevisions(namespace, name),
      this.listImagePullJobs(namespace),
      this.core.listNamespacedEvent({ namespace }).then((l) => l.items),
    ]);
    return { object, pods, pvcs, revisions, imagePullJobs, events };
  }
}

/**
 * Where a workload of `kind` is served.
 * @throws Error for a kind not of {@link WORKLOAD_RESOURCES}
 */
function workloadResource(kind: string): { group: string; version: string; plural: string } {
  const resource = WORKLOAD_RESOURCES[kind];
  if (!resource) throw new Error(`no workload resource for kind ${kind}`);
  return resource;
}

/**
 * The version to create `manifest` through: its `apiVersion`'s when that names `resource`'s group (e.g. `v1beta1` of
 * `apps.kruise.io/v1beta1`), else `resource`'s own.
 */
export function versionOf(
  manifest: Record<string, unknown>,
  resource: { group: string; version: string },
): string {
  const apiVersion = typeof manifest.apiVersion === 'string' ? manifest.apiVersion : '';
  const [group, version] = apiVersion.split('/');
  return group === resource.group && version ? version : resource.version;
}

/** HTTP status of a client-node ApiException (`code`), or undefined for other errors. */
export function statusCode(e: unknown): number | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}
