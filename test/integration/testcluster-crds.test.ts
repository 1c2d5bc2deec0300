/**
 * `installCrds` (infra/local/testcluster.ts), the CRD install of a `KUBECONFIG` cluster given to the integration
 * tests: every CRD of infra/crds is accepted and keeps its `x-kubernetes-int-or-string` markers. It sent the raw
 * YAML through client-node's typed model, which dropped the dashed keys, and the API server refused the CloneSet
 * CRD with 422. Runs alone (jest.config.js ALONE): it re-applies every CRD of the shared cluster.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { installCrds } from '../../infra/local/testcluster.js';
import { CRD_DIR } from '../../infra/local/versions.js';
import { parseManifests } from '../../lib/kube/apply.js';
import { loadKubeConfig } from './support/kube.js';

const file = process.env.KRUISELESS_TEST_KUBECONFIG ?? '';

test('every CRD of infra/crds installs, Established, with its int-or-string fields', async () => {
  await installCrds(file);
  const api = loadKubeConfig(file).makeApiClient(ApiextensionsV1Api);
  const cs = await api.readCustomResourceDefinition({ name: 'clonesets.apps.kruise.io' });
  const stored = cs.spec.versions.find((v) => v.storage);
  const strategy = stored?.schema?.openAPIV3Schema?.properties?.spec?.properties?.updateStrategy;
  expect(strategy?.properties?.maxUnavailable?.x_kubernetes_int_or_string).toBe(true);
  const names = fs
    .readdirSync(CRD_DIR)
    .filter((n) => n.endsWith('.yaml'))
    .flatMap((f) => parseManifests(fs.readFileSync(path.join(CRD_DIR, f), 'utf8'), f))
    .map((o) => o.metadata?.name ?? '');
  const established = await Promise.all(
    names.map(async (name) => {
      const crd = await api.readCustomResourceDefinition({ name });
      const ok = crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      return `${name} ${String(ok)}`;
    }),
  );
  expect(established).toEqual(names.map((n) => `${n} true`));
});
