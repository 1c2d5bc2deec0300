/**
 * Whether a deployment's gates ask for OpenKruise's Advanced StatefulSet volumeClaimTemplate update rule, and
 * putting the cluster's admission policies in line with that (infra/rbac/kruiseless-asts-claim-templates.yaml):
 * applied while gate `StatefulSetAutoResizePVCGate` is on, as OpenKruise's webhook runs the rule only then,
 * deleted while it is off so a cluster served before with the gate on does not keep refusing updates.
 */
import { KubernetesObjectApi, type KubeConfig } from '@kubernetes/client-node';
import { applyServerSide } from '../kube/apply.js';
import { parseStatefulSetSettings } from '../controllers/statefulset/settings.js';
import { claimTemplatePolicyManifests } from './manifests.js';

/** The field manager of the policies' server-side apply. */
const FIELD_MANAGER = 'kruiseless-install';

/**
 * True when `featureGates` (OpenKruise's `--feature-gates` syntax, `AllAlpha=true` included) turns
 * `StatefulSetAutoResizePVCGate` on.
 * @throws InvalidFeatureGatesError for a malformed list
 */
export function claimTemplateRuleOn(featureGates: string): boolean {
  return parseStatefulSetSettings({ featureGates, flags: {} }).settings.statefulSetAutoResizePVCGate === true;
}

/** What {@link syncClaimTemplatePolicies} did: `applied` or `removed`, each with the objects' `kind/name`. */
export interface ClaimTemplatePolicySync {
  action: 'applied' | 'removed';
  objects: string[];
}

/**
 * Applies the policies and bindings (server-side apply) when `on`, else deletes them (absent ones are no error).
 * @throws the API server's error of an apply or of a delete other than 404 (e.g. 403 without the right to write
 *   admission policies; Kubernetes < 1.30 has no v1 ValidatingAdmissionPolicy and answers 404 on apply)
 */
export async function syncClaimTemplatePolicies(
  kc: KubeConfig,
  on: boolean,
  opts: { dryRun?: boolean } = {},
): Promise<ClaimTemplatePolicySync> {
  const objects = claimTemplatePolicyManifests();
  const names = objects.map((o) => `${o.kind ?? ''}/${o.metadata?.name ?? ''}`);
  if (on) {
    await applyServerSide(kc, objects, FIELD_MANAGER, opts);
    return { action: 'applied', objects: names };
  }
  const api = KubernetesObjectApi.makeApiClient(kc);
  // bindings first: a binding left without its policy only logs on the API server, a policy without binding does nothing
  for (const o of [...objects].reverse()) {
    await api
      .delete(
        { apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.metadata?.name } },
        undefined,
        opts.dryRun ? 'All' : undefined,
      )
      .catch((e: { code?: number }) => {
        if (e.code !== 404) throw e;
      });
  }
  return { action: 'removed', objects: names };
}
