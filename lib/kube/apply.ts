/**
 * Manifests from YAML, applied with server-side apply: what `kruiseless install` (lib/cli/install.ts) and the
 * emulated AWS stack (lib/emulator/aws/emulatedAws.ts) do with the files of infra/crds, infra/rbac and infra/webhook.
 */
import { parseAllDocuments } from 'yaml';
import {
  KubernetesObjectApi,
  PatchStrategy,
  loadAllYaml,
  type KubeConfig,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { KruiselessError } from '../core/errors.js';

/** Thrown for a manifest file that does not parse or holds something that is not a Kubernetes object. */
export class ManifestError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/**
 * The non-empty YAML documents of `text` as client-node's typed objects: KubernetesObjectApi serializes through
 * those models, so raw keys such as `x-kubernetes-int-or-string` would be dropped on the way out.
 * @param source names the file in errors, e.g. `infra/rbac/kruiseless-rbac.yaml`
 * @throws ManifestError `<source>: <reason>` when the YAML does not parse or a document has no apiVersion, kind or
 *   metadata.name
 */
export function parseManifests(text: string, source: string): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0)
      throw new ManifestError(`${source}: ${doc.errors[0]?.message ?? 'invalid YAML'}`);
    if (doc.toJS() == null) continue;
    const [o] = loadAllYaml(String(doc)) as (KubernetesObject | undefined)[];
    if (!o) continue;
    if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || !o.metadata?.name)
      throw new ManifestError(`${source}: a document has no apiVersion, kind or metadata.name`);
    objects.push(o);
  }
  return objects;
}

/**
 * Server-side applies `objects` in order (force: the field manager takes over conflicting fields), as the
 * kubeconfig's user.
 * @param fieldManager e.g. `kruiseless-install`
 * @param opts.dryRun send every object as a server dry run (validated, not stored)
 * @param opts.onApplied called after each object with the object as given and as the API server answered (its
 *   `metadata.resourceVersion` and `managedFields` as stored, or as they would be under a dry run)
 * @throws client-node's ApiException for the first object the API server refuses (the ones before stay applied)
 */
export async function applyServerSide(
  kc: KubeConfig,
  objects: readonly KubernetesObject[],
  fieldManager: string,
  opts: { dryRun?: boolean; onApplied?: (o: KubernetesObject, stored: KubernetesObject) => void } = {},
): Promise<void> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  for (const o of objects) {
    const stored = await api.patch(
      o,
      undefined,
      opts.dryRun ? 'All' : undefined,
      fieldManager,
      true,
      PatchStrategy.ServerSideApply,
    );
    opts.onApplied?.(o, stored);
  }
}
