/**
 * The one real {@link KubeClient}: `@kubernetes/client-node` 1.4 typed APIs (CoreV1Api, AppsV1Api,
 * CustomObjectsApi) against one cluster's API server (docs/architecture.md#lib-kube).
 *
 * Every method makes exactly one HTTP request per attempt (see the method docs); 429, 5xx and network errors are
 * retried with exponential backoff, 409/404/422 never are (callers re-read and re-plan). Everything returned is
 * the API server's JSON (RFC 3339 strings, unknown fields kept), see ./request.ts.
 */
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  type ConfigurationOptions,
  type CoreV1Event,
  type KubeConfig,
  type V1ControllerRevision,
  type V1PersistentVolumeClaim,
  type V1Pod,
} from '@kubernetes/client-node';
import { goJson } from '../api/goJson.js';
import { GROUP } from '../api/keys.js';
import type {
  CloneSet,
  CloneSetStatus,
  ControllerRevision,
  JsonObject,
  JsonValue,
  PersistentVolumeClaim,
  Pod,
} from '../api/types.js';
import { isNotFound } from './errors.js';
import type { StoredEvent } from './event.js';
import { recordFolded, type EventApi } from './eventFolding.js';
import { DEFAULT_RETRY, requestJson, type RawRequestOptions, type RetryOptions } from './request.js';
import type { CloneSetEvent, KubeClient, Listed } from './types.js';
import { systemClock, type Clock } from '../core/clock.js';

/** CloneSet API version and resource served by the CRD in infra/crds (v1alpha1 only, status subresource). */
const CS = { group: GROUP, version: 'v1alpha1', plural: 'clonesets' } as const;

/** `fieldManager` of every write (managedFields show who changed what). */
export const FIELD_MANAGER = 'kruiseless';

/** Where {@link KubeClient.recordEvent} reports the errors it swallows. Powertools' Logger fits. */
export interface KubeClientLogger {
  warn(message: string, details: Record<string, unknown>): void;
}

/** Options of {@link createKubeClient}. */
export interface KubeClientOptions {
  /** Retries for 429/5xx/network errors; default {@link DEFAULT_RETRY}. `{ retries: 0, ... }` disables them. */
  retry?: RetryOptions;
  /** Receives recordEvent failures; default: one JSON line on stderr. */
  logger?: KubeClientLogger;
  /** Clock for Event timestamps (tests); default the system clock. */
  clock?: Clock;
}

/** A list response as the API server sends it. */
interface ListBody<T> {
  metadata?: { resourceVersion?: string };
  items?: T[];
}

const consoleLogger: KubeClientLogger = {
  warn: (message, details) => console.warn(JSON.stringify({ level: 'WARN', message, ...details })),
};

/** `ns/name` for operation strings. */
const key = (namespace: string | undefined, name: string | undefined): string =>
  `${namespace ?? ''}/${name ?? ''}`;

/** `patch` with `metadata.resourceVersion` added (the API server's precondition for PATCH). */
function withResourceVersion(patch: JsonObject, resourceVersion?: string): JsonObject {
  if (resourceVersion === undefined) return patch;
  const metadata = patch.metadata;
  const base = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? metadata : {};
  return { ...patch, metadata: { ...base, resourceVersion } };
}

/**
 * Builds the client for the cluster `kc` points at (its current context).
 * @param kc a KubeConfig from ./config.ts (file, or endpoint + CA + token)
 * @throws Error when `kc` has no current cluster
 */
export function createKubeClient(kc: KubeConfig, opts: KubeClientOptions = {}): KubeClient {
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const retry = opts.retry ?? DEFAULT_RETRY;
  const logger = opts.logger ?? consoleLogger;
  const clock = opts.clock ?? systemClock;

  const call = <T>(
    operation: string,
    send: (o: ConfigurationOptions) => Promise<unknown>,
    raw?: RawRequestOptions,
  ): Promise<T> => requestJson<T>(operation, retry, send, raw);

  /** One LIST; items get `apiVersion`/`kind` (the API server omits them on built-in list items). */
  async function list<T extends object>(
    operation: string,
    apiVersion: string,
    kind: string,
    send: (o: ConfigurationOptions) => Promise<unknown>,
  ): Promise<Listed<T>> {
    const body = await call<ListBody<T>>(operation, send);
    return {
      items: (body.items ?? []).map((item) => ({ apiVersion, kind, ...item })),
      resourceVersion: body.metadata?.resourceVersion ?? '',
    };
  }

  const strategic = (body: JsonObject): RawRequestOptions => ({
    body,
    contentType: PatchStrategy.StrategicMergePatch,
  });
  const merge = (body: JsonObject): RawRequestOptions => ({
    body,
    contentType: PatchStrategy.MergePatch,
  });
  const uidPrecondition = (uid: string) => ({ preconditions: { uid } });

  /** The Event calls of {@link recordFolded}: POST, GET (404 → undefined), merge PATCH. */
  const events: EventApi = {
    async createEvent(namespace, body) {
      await call(
        `create event ${key(namespace, String((body.metadata as JsonObject | undefined)?.name ?? ''))}`,
        (o) =>
          core.createNamespacedEvent(
            { namespace, body: body as unknown as CoreV1Event, fieldManager: FIELD_MANAGER },
            o,
          ),
        { body },
      );
    },
    async getEvent(namespace, name) {
      try {
        return await call<StoredEvent>(`get event ${key(namespace, name)}`, (o) =>
          core.readNamespacedEvent({ namespace, name }, o),
        );
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },
    async patchEvent(namespace, name, patch) {
      await call(
        `patch event ${key(namespace, name)}`,
        (o) => core.patchNamespacedEvent({ namespace, name, body: {}, fieldManager: FIELD_MANAGER }, o),
        merge(patch),
      );
    },
  };

  return {
    async getCloneSet(namespace, name) {
      try {
        return await call<CloneSet>(`get cloneset ${key(namespace, name)}`, (o) =>
          custom.getNamespacedCustomObject({ ...CS, namespace, name }, o),
        );
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },

    listCloneSets(namespace) {
      const operation = `list clonesets ${namespace ?? '(all namespaces)'}`;
      return list<CloneSet>(operation, `${GROUP}/v1alpha1`, 'CloneSet', (o) =>
        namespace === undefined
          ? custom.listClusterCustomObject({ ...CS }, o)
          : custom.listNamespacedCustomObject({ ...CS, namespace }, o),
      );
    },

    listPods(namespace, labelSelector) {
      return list<Pod>(`list pods ${namespace} ${labelSelector ?? ''}`, 'v1', 'Pod', (o) =>
        core.listNamespacedPod({ namespace, labelSelector }, o),
      );
    },

    listPVCs(namespace, labelSelector) {
      const operation = `list persistentvolumeclaims ${namespace} ${labelSelector ?? ''}`;
      return list<PersistentVolumeClaim>(operation, 'v1', 'PersistentVolumeClaim', (o) =>
        core.listNamespacedPersistentVolumeClaim({ namespace, labelSelector }, o),
      );
    },

    listControllerRevisions(namespace, labelSelector) {
      const operation = `list controllerrevisions ${namespace} ${labelSelector ?? ''}`;
      return list<ControllerRevision>(operation, 'apps/v1', 'ControllerRevision', (o) =>
        apps.listNamespacedControllerRevision({ namespace, labelSelector }, o),
      );
    },

    createControllerRevision(revision) {
      const namespace = revision.metadata.namespace ?? '';
      const body = { apiVersion: 'apps/v1', kind: 'ControllerRevision', ...revision };
      const bodyText = revisionBodyText(body);
      return call(
        `create controllerrevision ${key(namespace, revision.metadata.name)}`,
        (o) =>
          apps.createNamespacedControllerRevision(
            { namespace, body: body as unknown as V1ControllerRevision, fieldManager: FIELD_MANAGER },
            o,
          ),
        { body, bodyText },
      );
    },

    replaceControllerRevision(revision) {
      const namespace = revision.metadata.namespace ?? '';
      const name = revision.metadata.name ?? '';
      const body = { apiVersion: 'apps/v1', kind: 'ControllerRevision', ...revision };
      const bodyText = revisionBodyText(body);
      return call(
        `replace controllerrevision ${key(namespace, name)}`,
        (o) =>
          apps.replaceNamespacedControllerRevision(
            { namespace, name, body: body as unknown as V1ControllerRevision, fieldManager: FIELD_MANAGER },
            o,
          ),
        { body, bodyText },
      );
    },

    async deleteControllerRevision(namespace, name) {
      await call(`delete controllerrevision ${key(namespace, name)}`, (o) =>
        apps.deleteNamespacedControllerRevision({ namespace, name }, o),
      );
    },

    createPod(pod) {
      const namespace = pod.metadata.namespace ?? '';
      const body = { apiVersion: 'v1', kind: 'Pod', ...pod };
      return call(
        `create pod ${key(namespace, pod.metadata.name ?? pod.metadata.generateName)}`,
        (o) =>
          core.createNamespacedPod(
            { namespace, body: body as unknown as V1Pod, fieldManager: FIELD_MANAGER },
            o,
          ),
        { body },
      );
    },

    async deletePod(namespace, name, uid) {
      const body = uidPrecondition(uid);
      await call(
        `delete pod ${key(namespace, name)}`,
        (o) => core.deleteNamespacedPod({ namespace, name, body }, o),
        { body },
      );
    },

    patchPod(namespace, name, patch, resourceVersion) {
      return call(
        `patch pod ${key(namespace, name)}`,
        (o) => core.patchNamespacedPod({ namespace, name, body: {}, fieldManager: FIELD_MANAGER }, o),
        strategic(withResourceVersion(patch, resourceVersion)),
      );
    },

    patchPodStatus(namespace, name, patch, resourceVersion) {
      return call(
        `patch pod status ${key(namespace, name)}`,
        (o) => core.patchNamespacedPodStatus({ namespace, name, body: {}, fieldManager: FIELD_MANAGER }, o),
        strategic(withResourceVersion(patch, resourceVersion)),
      );
    },

    // createPod/createPVC and deletePod/deletePVC share their shape on purpose: one call per typed client-node
    // method, kept apart so each request is named by its resource in logs and errors
    createPVC(pvc) {
      const namespace = pvc.metadata.namespace ?? '';
      const body = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...pvc };
      return call(
        `create persistentvolumeclaim ${key(namespace, pvc.metadata.name)}`,
        (o) =>
          core.createNamespacedPersistentVolumeClaim(
            { namespace, body: body as unknown as V1PersistentVolumeClaim, fieldManager: FIELD_MANAGER },
            o,
          ),
        { body },
      );
    },

    async deletePVC(namespace, name, uid) {
      const body = uidPrecondition(uid);
      await call(
        `delete persistentvolumeclaim ${key(namespace, name)}`,
        (o) => core.deleteNamespacedPersistentVolumeClaim({ namespace, name, body }, o),
        { body },
      );
    },

    async patchPVCOwnerReferences(namespace, name, uid, ownerReferences) {
      const body = { metadata: { uid, ownerReferences } } as unknown as JsonObject;
      await call(
        `patch persistentvolumeclaim ownerReferences ${key(namespace, name)}`,
        (o) =>
          core.patchNamespacedPersistentVolumeClaim(
            { namespace, name, body: {}, fieldManager: FIELD_MANAGER },
            o,
          ),
        merge(body),
      );
    },

    updateCloneSetStatus(cloneSet, status: CloneSetStatus) {
      const { namespace = '', name = '' } = cloneSet.metadata;
      const body = { apiVersion: `${GROUP}/v1alpha1`, kind: 'CloneSet', ...cloneSet, status };
      return call(
        `update cloneset status ${key(namespace, name)}`,
        (o) =>
          custom.replaceNamespacedCustomObjectStatus(
            { ...CS, namespace, name, body, fieldManager: FIELD_MANAGER },
            o,
          ),
        { body },
      );
    },

    patchCloneSetPodsToDelete(cloneSet, podsToDelete) {
      const { namespace = '', name = '', resourceVersion } = cloneSet.metadata;
      // an empty list is removed, as OpenKruise's truncatePodsToDelete leaves a nil slice (omitted)
      const value = podsToDelete.length > 0 ? podsToDelete : null;
      const body = withResourceVersion({ spec: { scaleStrategy: { podsToDelete: value } } }, resourceVersion);
      return call(
        `patch cloneset podsToDelete ${key(namespace, name)}`,
        (o) =>
          custom.patchNamespacedCustomObject(
            { ...CS, namespace, name, body: {}, fieldManager: FIELD_MANAGER },
            o,
          ),
        merge(body),
      );
    },

    async recordEvent(cloneSet, event: CloneSetEvent) {
      const namespace = cloneSet.metadata.namespace ?? '';
      try {
        await recordFolded(events, cloneSet, event, new Date(clock()));
      } catch (e) {
        logger.warn('recording a Kubernetes Event failed (ignored)', {
          namespace,
          cloneSet: cloneSet.metadata.name,
          reason: event.reason,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    },
  };
}

/**
 * The JSON text of a ControllerRevision with its `data` written as Go's `encoding/json` writes it (keys sorted, HTML
 * characters escaped): OpenKruise's CreateControllerRevision (pkg/util/history) treats a revision of the same name
 * as its own only when the stored `data` bytes equal its `json.Marshal` output, and the API server keeps those bytes
 * as sent. Without this, OpenKruise taking over from Kruiseless would count a hash collision and re-label every pod.
 */
export function revisionBodyText(body: { data?: JsonValue } & Record<string, unknown>): string {
  const { data, ...rest } = body;
  const head = JSON.stringify(rest);
  return data === undefined ? head : `${head.slice(0, -1)},"data":${goJson(data)}}`;
}
