/**
 * Per-test-file access to the integration cluster: a fresh namespace (created in beforeAll, deleted in
 * afterAll) and typed @kubernetes/client-node 1.4 clients for the kubeconfig chosen by globalSetup.
 */
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { loadKubeConfig } from './kube.js';

/** Set by globalSetup.ts: the kubeconfig the integration tests must use. */
const TEST_KUBECONFIG_ENV = 'KRUISELESS_TEST_KUBECONFIG';

/** What a test file gets; fields are valid from its beforeAll on. */
export interface TestCluster {
  kc: KubeConfig;
  core: CoreV1Api;
  custom: CustomObjectsApi;
  /** the fresh namespace of this test file */
  namespace: string;
}

/**
 * Registers beforeAll/afterAll hooks that create `<prefix>-<random>` and delete it afterwards.
 * Call at the top level of a test file.
 * @throws Error (in beforeAll) when globalSetup did not provide a kubeconfig
 */
export function useTestNamespace(prefix: string): TestCluster {
  const ctx = {} as TestCluster;
  beforeAll(async () => {
    const file = process.env[TEST_KUBECONFIG_ENV];
    if (!file)
      throw new Error(`${TEST_KUBECONFIG_ENV} is not set: run the integration project (globalSetup)`);
    ctx.kc = loadKubeConfig(file);
    ctx.core = ctx.kc.makeApiClient(CoreV1Api);
    ctx.custom = ctx.kc.makeApiClient(CustomObjectsApi);
    ctx.namespace = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
    await ctx.core.createNamespace({ body: { metadata: { name: ctx.namespace } } });
  });
  afterAll(async () => {
    if (ctx.namespace) await ctx.core.deleteNamespace({ name: ctx.namespace });
  });
  return ctx;
}
