/**
 * A MutatingWebhookConfiguration as `kruiseless local` registers it (lib/api/admission/webhookConfiguration.ts:
 * `/mutate` for the given mutators, `mpod.kb.io` for pods), made safe to run beside other test files on one API
 * server: the pod webhook narrowed to one namespace, every webhook renamed. Test-only.
 */
import { mutatingWebhookConfiguration } from '../../../lib/api/admission/webhookConfiguration.js';
import type { Mutator } from '../../../lib/api/admission/mutation.js';
import type { KubeObject } from '../../../lib/kube/index.js';
import type { ConversionServer } from '../../../lib/local/conversionServer.js';

/**
 * The configuration named `name` pointing at `server`, with the pod webhook's namespace selector narrowed to
 * `namespace` and every webhook renamed from `….kruiseless.io` to `….<name>.io` (webhook names must not clash with
 * another file's configuration).
 */
export function podWebhookConfiguration(
  server: ConversionServer,
  name: string,
  namespace: string,
  mutators: readonly Mutator[],
): KubeObject {
  const config = mutatingWebhookConfiguration(
    { name, url: server.mutateUrl, caPem: server.caPem, podUrl: server.podMutateUrl },
    mutators,
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
