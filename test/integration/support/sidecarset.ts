/**
 * SidecarSets in integration tests: the MutatingWebhookConfiguration `kruiseless local` registers for them
 * (lib/api/admission/webhookConfiguration.ts: `/mutate` for SidecarSets, `mpod.kb.io` for pods), made safe to run
 * beside other test files on one API server (./podWebhook.ts). Test-only.
 */
import { sidecarSetMutator } from '../../../lib/controllers/sidecarset/api/mutation.js';
import type { KubeObject } from '../../../lib/kube/index.js';
import type { ConversionServer } from '../../../lib/local/conversionServer.js';
import { podWebhookConfiguration } from './podWebhook.js';

/** {@link podWebhookConfiguration} with the SidecarSet mutator. */
export function sidecarSetWebhookConfiguration(
  server: ConversionServer,
  name: string,
  namespace: string,
): KubeObject {
  return podWebhookConfiguration(server, name, namespace, [sidecarSetMutator]);
}
