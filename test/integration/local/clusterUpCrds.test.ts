/**
 * `clusterUp` on a control plane that is already running (infra/local/cluster.ts): it installs the CRDs of
 * infra/crds the cluster lacks — one started by another checkout, or before a kind was added, answered 404 for that
 * kind's objects (a parity run of the new Advanced DaemonSet kind met it) — and leaves the CRDs it has as they are,
 * since a running `kruiseless local` may have pointed one at its conversion webhook. Runs alone (jest.config.js
 * ALONE): it deletes a CRD of the shared cluster for a moment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { clusterUp, kwokStagesDigest } from '../../../infra/local/cluster.js';
import { readPidFile } from '../../../infra/local/processes.js';
import { stateDir } from '../../../infra/local/versions.js';
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

test("restarts kwok with this checkout's stages when the running one was started with others", async () => {
  const infoFile = path.join(stateDir(), 'run', 'cluster.json');
  const kwokPid = (): number | undefined => readPidFile(path.join(stateDir(), 'run', 'kwok.pid'))?.pid;
  const before = kwokPid();
  const recorded = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as Record<string, unknown>;
  // what a control plane started by an earlier checkout (other stages) or before the record looks like
  fs.writeFileSync(infoFile, JSON.stringify({ ...recorded, kwokStages: 'f'.repeat(64) }));
  const lines: string[] = [];
  const { info, started } = await clusterUp((l) => lines.push(l));
  const again: string[] = [];
  await clusterUp((l) => again.push(l));
  expect({
    started,
    restarted: lines.filter((l) => l.includes('restarting it with them')).length,
    newPid: kwokPid() !== before,
    recorded: info.kwokStages,
    stored: (JSON.parse(fs.readFileSync(infoFile, 'utf8')) as { kwokStages?: string }).kwokStages,
    restartedAgain: again.filter((l) => l.includes('restarting it with them')).length,
  }).toEqual({
    started: false,
    restarted: 1,
    newPid: true,
    recorded: kwokStagesDigest(),
    stored: kwokStagesDigest(),
    restartedAgain: 0,
  });
});
