/**
 * API-server adapter (docs/architecture.md#lib-kube): the generic {@link KubeClient} port over {@link Resource}s,
 * its HTTP implementation, the resources Kruiseless uses, LIST helpers, typed errors, KubeConfig construction
 * (file, registry record, EKS token) and the bounded watch.
 */
export { VERSION_RETRY_AFTER_MS } from './types.js';
export {
  POD_RESIZE_SINCE,
  parseServerVersion,
  servesPodResize,
  versionAtLeast,
  type KubernetesVersion,
  type ServerVersionInfo,
} from './version.js';
export type {
  JsonPatchOperation,
  KubeClient,
  KubeEvent,
  Listed,
  ListOptions,
  Patch,
  PatchOptions,
  Preconditions,
  RecordEventOptions,
  ReplaceOptions,
} from './types.js';
export {
  apiVersionOf,
  refText,
  resourcePath,
  watchPath,
  type KubeObject,
  type ObjectOf,
  type ObjectRef,
  type Resource,
} from './resource.js';
export { RESOURCES } from './resources.js';
export { anyExists, listAll, listIfServed } from './list.js';
export { patchOwnerReferences } from './ownerReferences.js';
export {
  createKubeClient,
  withPreconditions,
  type KubeClientLogger,
  type KubeClientOptions,
} from './client.js';
export {
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_RETRY,
  IDLE_SOCKET_TIMEOUT_MS,
  closeConnections,
  type RetryOptions,
} from './request.js';
export { createClusterConnections, type ClusterConnection, type ClusterConnections } from './connections.js';
export {
  KubeApiError,
  REASON_NETWORK_ERROR,
  isAlreadyExists,
  isConflict,
  isNotFound,
  isRetryable,
  classifyWriteError,
  ignoreNotFound,
  type WriteErrorKind,
} from './errors.js';
export {
  TOKEN_MIN_VALIDITY_MS,
  createEksTokenProvider,
  defaultEksTokenProvider,
  kubeConfigFromCluster,
  kubeConfigFromFile,
  setBearerToken,
  signEksToken,
  type ClusterAuth,
  type ClusterRecord,
  type EksAuth,
  type EksTokenProvider,
} from './config.js';
export { EKS_TOKEN_LIFETIME_MS, EKS_TOKEN_PREFIX, eksToken, type EksToken } from './eksToken.js';
export {
  isGoneStatus,
  watchOnce,
  type WatchEventType,
  type WatchOptions,
  type WatchResult,
} from './watch.js';
export {
  EVENT_COMPONENT,
  aggregateEventName,
  eventBody,
  eventName,
  eventNamespace,
  type CoreEvent,
} from './event.js';
export {
  AGGREGATE_MAX_MESSAGES,
  AGGREGATE_PREFIX,
  AGGREGATE_WINDOW_MS,
  SPAM_BURST,
  SPAM_REFILL_MS,
  correlateEvent,
  emptyCorrelation,
  type CorrelationDecision,
  type EventCorrelationState,
  type MessageGroup,
  type SpamBucket,
} from './eventCorrelation.js';
export {
  FOLD_ATTEMPTS,
  FOLD_WINDOW_MS,
  foldPatch,
  recordFolded,
  type EventApi,
  type FoldResult,
  type InvolvedObject,
} from './eventFolding.js';
