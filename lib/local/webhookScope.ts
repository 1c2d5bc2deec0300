/**
 * The namespaces the embedded runtime's object webhooks see: those its EventBridge rules serve. A deployment whose
 * every rule names the namespaces it serves (`pattern.detail.namespace: [a, b]`, as a namespace-scoped install
 * writes it) defaults and validates the Kruise objects of those namespaces only; a deployment with any rule not so
 * narrowed (the repository's serverless.yml) sees every namespace. Without it, a runtime scoped to one namespace
 * would still rewrite the objects of every other namespace at admission, ones its controllers never reconcile.
 */
import type { JsonObject } from '../api/types.js';
import type { ServerlessEventBridgeRule } from '../emulator/serverlessRules.js';

/** The namespace label every namespace carries (set by the API server since Kubernetes 1.22). */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * The namespaces `rules` serve: the union of each rule's `detail.namespace` list when every rule has one made of
 * strings only; undefined (every namespace) when there is no rule or any rule is not narrowed that way (no list, a
 * content filter such as `{ prefix: … }`, an empty list).
 */
export function servedNamespaces(rules: readonly ServerlessEventBridgeRule[]): string[] | undefined {
  if (rules.length === 0) return undefined;
  const served = new Set<string>();
  for (const rule of rules) {
    const detail = rule.pattern.detail;
    const listed =
      detail && typeof detail === 'object' && !Array.isArray(detail)
        ? (detail as Record<string, unknown>).namespace
        : undefined;
    if (!Array.isArray(listed) || listed.length === 0) return undefined;
    if (!listed.every((n): n is string => typeof n === 'string')) return undefined;
    for (const n of listed) served.add(n);
  }
  return [...served].sort();
}

/**
 * A webhook's `namespaceSelector` for `namespaces` (`kubernetes.io/metadata.name In [...]`); undefined for undefined
 * (no selector: every namespace).
 */
export function namespaceSelectorFor(namespaces: readonly string[] | undefined): JsonObject | undefined {
  if (!namespaces) return undefined;
  return { matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values: [...namespaces] }] };
}
