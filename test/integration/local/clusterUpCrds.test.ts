/**
 * `clusterUp` on a control plane that is already running (infra/local/cluster.ts): it installs the CRDs of
 * infra/crds the cluster lacks — one started by another checkout, or before a kind was added, answered 404 for that
 * kind's objects (a parity run of the new Advanced DaemonSet kind met it) — and leaves the CRDs it has as they are,
 * since a running `kruiseless local` may have pointed one at its conversion webhook. Runs alone (jest.config.js
 * ALONE): it deletes a CRD of the shared cluster for a moment.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { clusterUp } from '../../../infra/local/cluster.js';
import { loadKubeConfig } from '../support/kube.js';
import { createKubeClient } from '../../../lib/kube/index.js';
import { CRD_RESOURCE } from '../../../lib/kube/resources.js';

const file = process.env.KRUISELESS_TEST_KUBECONFIG ?? '';
const kc = loadKubeConfig(file);
const api = kc.makeApiClient(ApiextensionsV1Api);
const kube = createKubeClient(kc);
const mark = (value: string | null) =>
  kube.patch(
    CRD_RESOURCE,
    { name: KEPT },
    { type: 'merge', body: { metadata: { annotations: { [MARK]: value } } } },
  );
const DROPPED = 'advancedcronjobs.apps.kruise.io';
const KEPT = 'clonesets.apps.kruise.io';
const MARK = 'kruiseless.io/cluster-up-test';

afterAll(async () => {
  await mark(null).catch(() => undefined);
});

test('installs a CRD the running control plane lacks and leaves one it has as it is', async () => {
  await api.deleteCustomResourceDefinition({ name: DROPPED });
  for (let i = 0; i < 120; i++) {
    const gone = await api.readCustomResourceDefinition({ name: DROPPED }).then(
      () => false,
      (e: { code?: number }) => e.code === 404,
    );
    if (gone) break;
    await sleep(250);
  }
  await mark('kept');
  const lines: string[] = [];
  const { info, started } = await clusterUp((l) => lines.push(l));
  const dropped = await api.readCustomResourceDefinition({ name: DROPPED });
  const kept = await api.readCustomResourceDefinition({ name: KEPT });
  expect({
    sameCluster: info.kubeconfig === file,
    started,
    installed: lines.filter((l) => l.includes('CRDs this control plane lacks')),
    established: dropped.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'),
    mark: kept.metadata?.annotations?.[MARK],
  }).toEqual({
    sameCluster: true,
    started: false,
    installed: ['[up] installing the CRDs this control plane lacks: apps.kruise.io_advancedcronjobs.yaml'],
    established: true,
    mark: 'kept',
  });
});
