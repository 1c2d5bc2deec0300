/**
 * The one real {@link KubeClient}: plain HTTP requests (./request.ts) with a client-node `KubeConfig`'s connection
 * and authentication, against one cluster's API server (docs/architecture.md#lib-kube).
 *
 * Every method makes exactly one HTTP request per attempt (see the method docs); 429, 5xx and network errors are
 * retried with exponential backoff, 409/404/422 never are (callers re-read and re-plan). Everything returned is
 * the API server's JSON (RFC 3339 strings, unknown fields kept).
 */
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
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
import { IMAGE_PULL_JOB_API_VERSION, IMAGE_PULL_JOB_KIND, type ImagePullJob } from '../api/imagePullJob.js';
import { isNotFound } from './errors.js';
import type { StoredEvent } from './event.js';
import { recordFolded, type EventApi } from './eventFolding.js';
import { CONTENT_TYPE, DEFAULT_RETRY, requestJson, type HttpCall, type RetryOptions } from './request.js';
import type { CloneSetEvent, KubeClient, Listed } from './types.js';
import { apiPaths } from './paths.js';
import { systemClock, type Clock } from '../core/clock.js';

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
 * @throws Error (from each request) when `kc` has no current cluster
 */
export function createKubeClient(kc: KubeConfig, opts: KubeClientOptions = {}): KubeClient {
  const retry = opts.retry ?? DEFAULT_RETRY;
  const logger = opts.logger ?? consoleLogger;
  const clock = opts.clock ?? systemClock;

  const call = <T>(operation: string, request: HttpCall): Promise<T> =>
    requestJson<T>(kc, operation, retry, request);
  const written = { fieldManager: FIELD_MANAGER };

  /** One LIST; items get `apiVersion`/`kind` (the API server omits them on built-in list items). */
  async function list<T extends object>(
    operation: string,
    apiVersion: string,
    kind: string,
    path: string,
    labelSelector?: string,
  ): Promise<Listed<T>> {
    const body = await call<ListBody<T>>(operation, { method: 'GET', path, query: { labelSelector } });
    return {
      items: (body.items ?? []).map((item) => ({ apiVersion, kind, ...item })),
      resourceVersion: body.metadata?.resourceVersion ?? '',
    };
  }

  /** POST `body` (with its apiVersion/kind) to `path`. */
  const create = <T>(operation: string, path: string, body: object): Promise<T> =>
    call<T>(operation, { method: 'POST', path, query: written, body });
  /** DELETE with a UID precondition (the object must still be the one that was read). */
  const deleteWithUid = async (operation: string, path: string, uid?: string): Promise<void> => {
    const body = uid === undefined ? undefined : { preconditions: { uid } };
    await call(operation, { method: 'DELETE', path, ...(body ? { body } : {}) });
  };
  const patch = <T>(operation: string, path: string, body: JsonObject, contentType: string): Promise<T> =>
    call<T>(operation, { method: 'PATCH', path, query: written, body, contentType });

  /** The Event calls of {@link recordFolded}: POST, GET (404 → undefined), merge PATCH. */
  const events: EventApi = {
    async createEvent(namespace, body) {
      const name = String((body.metadata as JsonObject | undefined)?.name ?? '');
      await create(`create event ${key(namespace, name)}`, apiPaths.core(namespace, 'events'), body);
    },
    async getEvent(namespace, name) {
      try {
        return await call<StoredEvent>(`get event ${key(namespace, name)}`, {
          method: 'GET',
          path: apiPaths.core(namespace, 'events', name),
        });
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },
    async patchEvent(namespace, name, body) {
      await patch(
        `patch event ${key(namespace, name)}`,
        apiPaths.core(namespace, 'events', name),
        body,
        CONTENT_TYPE.merge,
      );
    },
  };

  return {
    async getCloneSet(namespace, name) {
      try {
        return await call<CloneSet>(`get cloneset ${key(namespace, name)}`, {
          method: 'GET',
          path: apiPaths.cloneSet(namespace, name),
        });
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },

    listCloneSets(namespace) {
      const operation = `list clonesets ${namespace ?? '(all namespaces)'}`;
      return list<CloneSet>(operation, `${GROUP}/v1alpha1`, 'CloneSet', apiPaths.cloneSets(namespace));
    },

    listPods(namespace, labelSelector) {
      const operation = `list pods ${namespace} ${labelSelector ?? ''}`;
      return list<Pod>(operation, 'v1', 'Pod', apiPaths.core(namespace, 'pods'), labelSelector);
    },

    listPVCs(namespace, labelSelector) {
      const operation = `list persistentvolumeclaims ${namespace} ${labelSelector ?? ''}`;
      const path = apiPaths.core(namespace, 'persistentvolumeclaims');
      return list<PersistentVolumeClaim>(operation, 'v1', 'PersistentVolumeClaim', path, labelSelector);
    },

    listControllerRevisions(namespace, labelSelector) {
      const operation = `list controllerrevisions ${namespace} ${labelSelector ?? ''}`;
      const path = apiPaths.revisions(namespace);
      return list<ControllerRevision>(operation, 'apps/v1', 'ControllerRevision', path, labelSelector);
    },

    createControllerRevision(revision) {
      const namespace = revision.metadata.namespace ?? '';
      const body = { apiVersion: 'apps/v1', kind: 'ControllerRevision', ...revision };
      return call(`create controllerrevision ${key(namespace, revision.metadata.name)}`, {
        method: 'POST',
        path: apiPaths.revisions(namespace),
        query: written,
        bodyText: revisionBodyText(body),
      });
    },

    replaceControllerRevision(revision) {
      const namespace = revision.metadata.namespace ?? '';
      const name = revision.metadata.name ?? '';
      const body = { apiVersion: 'apps/v1', kind: 'ControllerRevision', ...revision };
      return call(`replace controllerrevision ${key(namespace, name)}`, {
        method: 'PUT',
        path: apiPaths.revisions(namespace, name),
        query: written,
        bodyText: revisionBodyText(body),
      });
    },

    async deleteControllerRevision(namespace, name) {
      await deleteWithUid(
        `delete controllerrevision ${key(namespace, name)}`,
        apiPaths.revisions(namespace, name),
      );
    },

    patchControllerRevisionLabels(namespace, name, labels) {
      return patch(
        `patch controllerrevision labels ${key(namespace, name)}`,
        apiPaths.revisions(namespace, name),
        { metadata: { labels } },
        CONTENT_TYPE.merge,
      );
    },

    async listImagePullJobs(namespace) {
      const path = apiPaths.imagePullJobs(namespace);
      try {
        return await list<ImagePullJob>(
          `list imagepulljobs ${namespace}`,
          IMAGE_PULL_JOB_API_VERSION,
          IMAGE_PULL_JOB_KIND,
          path,
        );
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },

    createImagePullJob(job) {
      const namespace = job.metadata.namespace ?? '';
      const body = { apiVersion: IMAGE_PULL_JOB_API_VERSION, kind: IMAGE_PULL_JOB_KIND, ...job };
      return create(
        `create imagepulljob ${key(namespace, job.metadata.name)}`,
        apiPaths.imagePullJobs(namespace),
        body,
      );
    },

    async deleteImagePullJob(namespace, name, uid) {
      const path = apiPaths.imagePullJobs(namespace, name);
      await deleteWithUid(`delete imagepulljob ${key(namespace, name)}`, path, uid);
    },

    async anyNodeImage() {
      try {
        const body = await call<ListBody<unknown>>('list nodeimages', {
          method: 'GET',
          path: apiPaths.nodeImages(),
          query: { limit: '1' },
        });
        return (body.items ?? []).length > 0;
      } catch (e) {
        if (isNotFound(e)) return false;
        throw e;
      }
    },

    createPod(pod) {
      const namespace = pod.metadata.namespace ?? '';
      const body = { apiVersion: 'v1', kind: 'Pod', ...pod };
      const operation = `create pod ${key(namespace, pod.metadata.name ?? pod.metadata.generateName)}`;
      return create(operation, apiPaths.core(namespace, 'pods'), body);
    },

    async deletePod(namespace, name, uid) {
      await deleteWithUid(`delete pod ${key(namespace, name)}`, apiPaths.core(namespace, 'pods', name), uid);
    },

    patchPod(namespace, name, body, resourceVersion) {
      return patch(
        `patch pod ${key(namespace, name)}`,
        apiPaths.core(namespace, 'pods', name),
        withResourceVersion(body, resourceVersion),
        CONTENT_TYPE.strategicMerge,
      );
    },

    patchPodStatus(namespace, name, body, resourceVersion) {
      return patch(
        `patch pod status ${key(namespace, name)}`,
        `${apiPaths.core(namespace, 'pods', name)}/status`,
        withResourceVersion(body, resourceVersion),
        CONTENT_TYPE.strategicMerge,
      );
    },

    createPVC(pvc) {
      const namespace = pvc.metadata.namespace ?? '';
      const body = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...pvc };
      const operation = `create persistentvolumeclaim ${key(namespace, pvc.metadata.name)}`;
      return create(operation, apiPaths.core(namespace, 'persistentvolumeclaims'), body);
    },

    async deletePVC(namespace, name, uid) {
      const path = apiPaths.core(namespace, 'persistentvolumeclaims', name);
      await deleteWithUid(`delete persistentvolumeclaim ${key(namespace, name)}`, path, uid);
    },

    async patchPVCOwnerReferences(namespace, name, uid, ownerReferences) {
      const body = { metadata: { uid, ownerReferences } } as unknown as JsonObject;
      await patch(
        `patch persistentvolumeclaim ownerReferences ${key(namespace, name)}`,
        apiPaths.core(namespace, 'persistentvolumeclaims', name),
        body,
        CONTENT_TYPE.merge,
      );
    },

    updateCloneSetStatus(cloneSet, status: CloneSetStatus) {
      const { namespace = '', name = '' } = cloneSet.metadata;
      const body = { apiVersion: `${GROUP}/v1alpha1`, kind: 'CloneSet', ...cloneSet, status };
      return call(`update cloneset status ${key(namespace, name)}`, {
        method: 'PUT',
        path: `${apiPaths.cloneSet(namespace, name)}/status`,
        query: written,
        body,
      });
    },

    patchCloneSetPodsToDelete(cloneSet, podsToDelete) {
      const { namespace = '', name = '', resourceVersion } = cloneSet.metadata;
      // an empty list is removed, as OpenKruise's truncatePodsToDelete leaves a nil slice (omitted)
      const value = podsToDelete.length > 0 ? podsToDelete : null;
      const body = withResourceVersion({ spec: { scaleStrategy: { podsToDelete: value } } }, resourceVersion);
      return patch(
        `patch cloneset podsToDelete ${key(namespace, name)}`,
        apiPaths.cloneSet(namespace, name),
        body,
        CONTENT_TYPE.merge,
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
