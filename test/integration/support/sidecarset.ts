/**
 * SidecarSets in integration tests: the MutatingWebhookConfiguration `kruiseless local` registers for them
 * (lib/api/admission/webhookConfiguration.ts: `/mutate` for SidecarSets, `mpod.kb.io` for pods), made safe to run
 * beside other test files on one API server. Test-only.
 */
import { mutatingWebhookConfiguration } from '../../../lib/api/admission/webhookConfiguration.js';
import { sidecarSetMutator } from '../../../lib/controllers/sidecarset/api/mutation.js';
import type { KubeObject } from '../../../lib/kube/index.js';
import type { ConversionServer } from '../../../lib/local/conversionServer.js';

/**
 * The configuration named `name` pointing at `server`, with the pod webhook's namespace selector narrowed to
 * `namespace` and every webhook renamed from `….kruiseless.io` to `….<name>.io` (webhook names must not clash with
 * another file's configuration).
 */
export function sidecarSetWebhookConfiguration(
  server: ConversionServer,
  name: string,
  namespace: string,
): KubeObject {
  const config = mutatingWebhookConfiguration(
    { name, url: server.mutateUrl, caPem: server.caPem, podUrl: server.podMutateUrl },
    [sidecarSetMutator],
  ) as { webhooks: { name: string; namespaceSelector?: { matchExpressions: unknown[] } }[] };
  for (const w of config.webhooks)
    if (w.namespaceSelector)
      w.namespaceSelector.matchExpressions.push({
        key: 'kubernetes.io/metadata.name',
        operator: 'In',
        values: [namespace],
      });
  config.webhooks = config.webhooks.map((w) => ({
    ...w,
    name: w.name.replace('kruiseless.io', `${name}.io`),
  }));
  return config as unknown as KubeObject;
}
