/**
 * The MutatingWebhookConfiguration that sends the API server's writes of every mutated resource
 * (./mutation.ts `Mutator`) to a `/mutate` endpoint: the embedded runtime's HTTPS server (lib/local) or the
 * admission function (`kruiseless install --admission-url`). `failurePolicy: Ignore`: while the endpoint is down a
 * write is stored as sent, and the controllers apply the same defaults in memory on every read, so what runs is the
 * same; only the stored object lacks the defaults until its next write (a SidecarSet's are applied by the pod webhook
 * on every read). The pod webhook beside them (`mpod.kb.io`: WorkloadSpread, SidecarSet injection, container launch priority, the PUB annotation) is
 * `failurePolicy: Fail`: {@link podMutatingWebhook}.
 * The ValidatingWebhookConfiguration sends the same resources' writes to `/validate`:
 * {@link validatingWebhookConfiguration}.
 */
import type { JsonObject } from '../types.js';
import type { Mutator } from './mutation.js';
import type { Validator } from './validation.js';

/** Longest wait of the API server for one call, seconds (its own default is 10). */
export const MUTATING_WEBHOOK_TIMEOUT_SECONDS = 5;

/** The configuration's name, e.g. `kruiseless-defaults` (AWS) or `kruiseless-local-defaults`. */
export interface MutatingWebhookTarget {
  name: string;
  /** The https URL of `/mutate`. */
  url: string;
  /** PEM of the CA that signed the endpoint's certificate; absent for a publicly trusted one (a Lambda URL). */
  caPem?: string;
  /** The https URL of the pod webhook (`/mutate-pod`: WorkloadSpread, SidecarSet injection, container launch priority, the PUB annotation); absent: no pod webhook. */
  podUrl?: string;
  /**
   * The namespaces the webhooks see (a LabelSelector of namespaces, lib/local/webhookScope.ts); absent: every
   * namespace, and the pod webhook {@link podWebhookNamespaceSelector}'s.
   */
  namespaceSelector?: JsonObject;
}

/** Namespaces the pod webhook never sees, so that they keep creating pods while it is down. */
export const POD_WEBHOOK_EXCLUDED_NAMESPACES = ['kube-system', 'kube-public', 'kube-node-lease'] as const;

/**
 * Namespace label that opts a namespace out of the pod webhook (value `disabled`): the way to create pods there while
 * the webhook is down, at the price of no sidecar injection.
 */
export const LABEL_POD_WEBHOOK = 'kruiseless.io/pod-webhook';

/**
 * The namespaces the pod webhooks (`mpod.kb.io`, `vpod.kb.io`, `vpodeviction.kb.io`) see: OpenKruise v1.9.0's
 * selector (config/webhook/patch_manifests.yaml: no `control-plane` label, which leaves out the namespace of the
 * webhook's own pods), then Kruiseless's: not {@link POD_WEBHOOK_EXCLUDED_NAMESPACES}, not labelled
 * {@link LABEL_POD_WEBHOOK}`=disabled` — so that the cluster's own pods never wait on a function outside it.
 */
export function podWebhookNamespaceSelector(): JsonObject {
  return {
    matchExpressions: [
      { key: 'control-plane', operator: 'DoesNotExist' },
      {
        key: 'kubernetes.io/metadata.name',
        operator: 'NotIn',
        values: [...POD_WEBHOOK_EXCLUDED_NAMESPACES],
      },
      { key: LABEL_POD_WEBHOOK, operator: 'NotIn', values: ['disabled'] },
    ],
  };
}

/**
 * The pod webhook `mpod.kb.io`, named, ruled and failing as OpenKruise v1.9.0's (pkg/webhook/pod/mutating/webhooks.go
 * marker, config/webhook): pods CREATE, `failurePolicy: Fail`, because a pod created without its sidecar or its
 * WorkloadSpread subset keeps lacking them (openkruise/charts#54); no objectSelector, as upstream; the namespaces of
 * {@link podWebhookNamespaceSelector} unless `namespaceSelector` narrows them. `sideEffects: NoneOnDryRun`: a
 * WorkloadSpread's status is written, except for a dry run.
 */
export function podMutatingWebhook(url: string, caPem?: string, namespaceSelector?: JsonObject): JsonObject {
  return {
    name: 'mpod.kb.io',
    admissionReviewVersions: ['v1'],
    sideEffects: 'NoneOnDryRun',
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    reinvocationPolicy: 'Never',
    timeoutSeconds: MUTATING_WEBHOOK_TIMEOUT_SECONDS,
    clientConfig: { url, ...(caPem ? { caBundle: Buffer.from(caPem).toString('base64') } : {}) },
    namespaceSelector: namespaceSelector ?? podWebhookNamespaceSelector(),
    rules: [
      {
        apiGroups: [''],
        apiVersions: ['v1'],
        operations: ['CREATE'],
        resources: ['pods'],
        scope: 'Namespaced',
      },
    ],
  };
}

/** The mutators by group and resource, in first-seen order: the first of each and the versions of all of them. */
function byResource(mutators: readonly Mutator[]): [Mutator, string[]][] {
  const out = new Map<string, [Mutator, string[]]>();
  for (const m of mutators) {
    const key = `${m.group}/${m.resource}`;
    const seen = out.get(key);
    if (seen) seen[1].push(m.version);
    else out.set(key, [m, [m.version]]);
  }
  return [...out.values()];
}

/**
 * The admissionregistration.k8s.io/v1 MutatingWebhookConfiguration: one webhook per resource, named
 * `<resource>.<group>.kruiseless.io`, for the versions its mutators take (each request goes to the mutator of its own
 * version, as OpenKruise's CloneSet webhook takes v1alpha1 and v1beta1), CREATE and UPDATE (no subresource), with
 * `matchPolicy: Equivalent` (a write through another served version is converted to the first of them); and with
 * `target.podUrl` the pod webhook ({@link podMutatingWebhook}).
 */
export function mutatingWebhookConfiguration(
  target: MutatingWebhookTarget,
  mutators: readonly Mutator[],
): JsonObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: {
      name: target.name,
      labels: { 'app.kubernetes.io/name': 'kruiseless', 'app.kubernetes.io/component': 'defaulting' },
    },
    webhooks: [
      ...byResource(mutators).map(([m, versions]) => ({
        name: `${m.resource}.${m.group}.kruiseless.io`,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: 'Ignore',
        matchPolicy: 'Equivalent',
        reinvocationPolicy: 'Never',
        timeoutSeconds: MUTATING_WEBHOOK_TIMEOUT_SECONDS,
        clientConfig: {
          url: target.url,
          ...(target.caPem ? { caBundle: Buffer.from(target.caPem).toString('base64') } : {}),
        },
        ...(target.namespaceSelector ? { namespaceSelector: target.namespaceSelector } : {}),
        rules: [
          {
            apiGroups: [m.group],
            apiVersions: versions,
            operations: ['CREATE', 'UPDATE'],
            resources: [m.resource],
            scope: m.namespaced === false ? 'Cluster' : 'Namespaced',
          },
        ],
      })),
      ...(target.podUrl ? [podMutatingWebhook(target.podUrl, target.caPem, target.namespaceSelector)] : []),
    ],
  };
}

/** The ValidatingWebhookConfiguration's target: its name and the https URL of `/validate`. */
export interface ValidatingWebhookTarget {
  /** e.g. `kruiseless-validation` (AWS) or `kruiseless-local-validation`. */
  name: string;
  url: string;
  /** PEM of the CA that signed the endpoint's certificate; absent for a publicly trusted one (a Lambda URL). */
  caPem?: string;
  /** The namespaces the webhooks see (a LabelSelector of namespaces); absent: every namespace. */
  namespaceSelector?: JsonObject;
  /**
   * The https URL of the pod validating webhook (`/validate-pod`, PodUnavailableBudget); absent: no pod webhook.
   * {@link podValidatingWebhooks}.
   */
  podUrl?: string;
  /** Gate `PodUnavailableBudgetUpdateGate`: the pod webhook also sees pod UPDATEs (default false). */
  podUpdates?: boolean;
}

/** Longest wait of the API server for the pod validating webhook, seconds: its budget write retries 4 times. */
export const POD_VALIDATING_WEBHOOK_TIMEOUT_SECONDS = 10;

/** The pod annotations that name a pod's PodUnavailableBudget (OpenKruise's and its older spelling). */
const RELATED_PUB_ANNOTATIONS = ['pub.kruise.io/related-pub', 'kruise.io/related-pub'] as const;

/**
 * The pod validating webhooks, as OpenKruise's: `vpod.kb.io` (pods DELETE, and UPDATE with `podUpdates`) and
 * `vpodeviction.kb.io` (`pods/eviction` CREATE), `failurePolicy: Fail` — the budget is consumed only in that call, so
 * failing open would let a delete or an eviction past it unseen. Unlike OpenKruise's, they are narrowed so that the
 * pods no budget covers never wait on the function: a `matchCondition` lets through only a pod that carries a
 * related-pub annotation (an eviction names its pod only, so every eviction is sent), and the namespaces are
 * {@link podWebhookNamespaceSelector}'s (upstream's, without the system ones and those opted out).
 * `sideEffects: NoneOnDryRun`: the call writes the PUB's status, except for a dry run.
 */
export function podValidatingWebhooks(
  url: string,
  caPem?: string,
  podUpdates = false,
  namespaceSelector?: JsonObject,
): JsonObject[] {
  const common = {
    admissionReviewVersions: ['v1'],
    sideEffects: 'NoneOnDryRun',
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    timeoutSeconds: POD_VALIDATING_WEBHOOK_TIMEOUT_SECONDS,
    clientConfig: { url, ...(caPem ? { caBundle: Buffer.from(caPem).toString('base64') } : {}) },
    namespaceSelector: namespaceSelector ?? podWebhookNamespaceSelector(),
  };
  const marked = (o: string) =>
    `has(${o}.metadata.annotations) && (${RELATED_PUB_ANNOTATIONS.map((k) => `'${k}' in ${o}.metadata.annotations`).join(' || ')})`;
  return [
    {
      name: 'vpod.kb.io',
      ...common,
      matchConditions: [
        {
          name: 'pod-has-a-budget',
          expression: `request.operation == 'DELETE' ? (${marked('oldObject')}) : (${marked('object')})`,
        },
      ],
      rules: [
        {
          apiGroups: [''],
          apiVersions: ['v1'],
          operations: podUpdates ? ['DELETE', 'UPDATE'] : ['DELETE'],
          resources: ['pods'],
          scope: 'Namespaced',
        },
      ],
    },
    {
      name: 'vpodeviction.kb.io',
      ...common,
      rules: [
        {
          apiGroups: [''],
          apiVersions: ['v1'],
          operations: ['CREATE'],
          resources: ['pods/eviction'],
          scope: 'Namespaced',
        },
      ],
    },
  ];
}

/**
 * The admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration: one webhook per validator, named as
 * OpenKruise's (`vcloneset.kb.io`, so a refusal reads `admission webhook "vcloneset.kb.io" denied the request: …` as
 * with OpenKruise), for its group/version/resource's operations with `matchPolicy: Equivalent` (a write through another
 * served version is converted to the validator's). `failurePolicy: Ignore`, where OpenKruise's is `Fail`: while the
 * endpoint is down a write is stored unchecked, and the kind's controller, which runs the same rules before every pass,
 * reports an invalid object as `FailedValidation` and leaves it alone, so nothing invalid is acted on and no write of a
 * Kruise object waits on the function. With `target.podUrl`, the pod webhooks of PodUnavailableBudget
 * ({@link podValidatingWebhooks}, `failurePolicy: Fail`) come after them.
 */
export function validatingWebhookConfiguration(
  target: ValidatingWebhookTarget,
  validators: readonly Validator[],
): JsonObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: {
      name: target.name,
      labels: { 'app.kubernetes.io/name': 'kruiseless', 'app.kubernetes.io/component': 'validation' },
    },
    webhooks: [
      ...validators.map((v) => ({
        name: v.webhookName,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: 'Ignore',
        matchPolicy: 'Equivalent',
        timeoutSeconds: MUTATING_WEBHOOK_TIMEOUT_SECONDS,
        clientConfig: {
          url: target.url,
          ...(target.caPem ? { caBundle: Buffer.from(target.caPem).toString('base64') } : {}),
        },
        ...(target.namespaceSelector ? { namespaceSelector: target.namespaceSelector } : {}),
        rules: [
          {
            apiGroups: [v.group],
            apiVersions: [v.version],
            operations: [...v.operations],
            resources: [v.resource],
            scope: v.namespaced === false ? 'Cluster' : 'Namespaced',
          },
        ],
      })),
      ...(target.podUrl
        ? podValidatingWebhooks(
            target.podUrl,
            target.caPem,
            target.podUpdates ?? false,
            target.namespaceSelector,
          )
        : []),
    ],
  };
}
