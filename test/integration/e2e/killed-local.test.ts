/**
 * A `kruiseless local` killed with SIGKILL mid scale-up, and started again with its DynamoDB state kept (issue 18,
 * the fault front's open finding; docs/reliability.md#fault-front): the CloneSet must converge to exactly the pods
 * expected, with no extra pod and none deleted.
 *
 * The pieces are the fault front's (test/faults): `kruiseless local` as a child process (./reconciler.ts) whose state
 * is in a dynalite this test runs, so that it outlives the process; its API-server traffic through the fault proxy
 * (./proxy.ts), which kills it as the API server applies the scale-up's first pod create, before the process hears the
 * answer (a create announced in the expectations and never sent would hold the successor for the 5-minute
 * expectation timeout, as in AWS: docs/reliability.md#fault-front). Nothing else is faulted. The killed process took with it the bus events it had consumed and its
 * requeue timers, its lease holds the CloneSet for `remaining + 60 s` (180 s), and the restarted watch pump resumes
 * past the change: before the fix nothing ever reconciled the CloneSet again. Now the restarted process resyncs at
 * start, that request is deferred by the dead lease and requeued for 1 s after its end, and the requeue converges.
 *
 * The child watches the whole cluster (it is the real command, not a namespace-scoped pipeline), so this file runs in
 * the `integration-alone` project (jest.config.js), with `--no-conversion` (the Advanced StatefulSet CRD is left
 * alone).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDynalite, type LocalDynamo } from '../../../lib/emulator/dynalite.js';
import type { Pod } from '../../../lib/api/types.js';
import { pkiPaths } from '../../../infra/local/pki.js';
import { stateDir } from '../../../infra/local/versions.js';
import type { Fault, RequestShape } from '../../faults/faultPlan.js';
import { FaultProxy, proxyTlsOf } from '../../faults/proxy.js';
import { PodObserver } from '../../faults/observer.js';
import { Reconciler } from '../../faults/reconciler.js';
import { heldLeases } from '../../faults/leases.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  SEED_NAME,
  activePods,
  applySeed,
  getCloneSet,
  patchCloneSet,
  testKubeconfig,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

/** The reconcile handler's lease in the embedded default: the 120 s it assumes without a Lambda context + 60 s. */
const KILLED_LEASE_MS = 180_000;
const REPLICAS = 6;
/** The test's own bound: the seed (≤ 90 s), the kill's lease (180 s), the recovery and the restart. */
const TEST_TIMEOUT_MS = 480_000;

const pki = pkiPaths(path.join(stateDir(), 'pki'));
const clusterJson = path.join(stateDir(), 'run', 'cluster.json');
/** Only on the local control plane: the fault proxy serves with its API server's certificate. */
const onLocalControlPlane = existsSync(pki.serverCert) && existsSync(clusterJson);

/** Kills the reconciler as the API server applies the `n`-th pod create in `namespace` (nothing else faulted). */
class KillAtPodCreate {
  private creates = 0;
  armed = false;

  constructor(
    private readonly namespace: string,
    private readonly n: number,
  ) {}

  next(req: RequestShape): Fault {
    const isCreate = req.method === 'POST' && req.url.startsWith(`/api/v1/namespaces/${this.namespace}/pods`);
    if (!this.armed || !isCreate) return { kind: 'none' };
    return ++this.creates === this.n ? { kind: 'kill' } : { kind: 'none' };
  }
}

const ctx = useTestNamespace('e2e-killed');
let dynamo: LocalDynamo | undefined;
let proxy: FaultProxy | undefined;
let reconciler: Reconciler | undefined;
let logFile = '';

afterAll(async () => {
  await reconciler?.settled().catch(() => undefined);
  await reconciler?.stop();
  await proxy?.close();
  await dynamo?.close();
});

(onLocalControlPlane ? describe : describe.skip)('a killed kruiseless local (issue 18)', () => {
  test(
    'killed with SIGKILL mid scale-up and restarted with its state: exactly the pods expected, no extra pod, none deleted',
    async () => {
      const kubeconfig = testKubeconfig();
      const info = JSON.parse(readFileSync(clusterJson, 'utf8')) as { server: string };
      const text = readFileSync(kubeconfig, 'utf8');
      expect(text).toContain(`server: "${info.server}"`); // the local control plane's own kubeconfig
      const killer = new KillAtPodCreate(ctx.namespace, 1);
      proxy = new FaultProxy({
        upstream: info.server,
        tls: proxyTlsOf(pki),
        onKill: () => reconciler?.kill(),
      });
      const url = await proxy.start();
      proxy.use(killer);
      const dir = mkdtempSync(path.join(tmpdir(), 'kruiseless-killed-'));
      const proxyKubeconfig = path.join(dir, 'kubeconfig');
      writeFileSync(proxyKubeconfig, text.replace(`server: "${info.server}"`, `server: "${url}"`), {
        mode: 0o600,
      });
      dynamo = await startDynalite();
      logFile = path.join(dir, 'kruiseless-local.log');
      reconciler = new Reconciler({
        kubeconfig: proxyKubeconfig,
        dynamoEndpoint: dynamo.endpoint,
        table: 'kruiseless-killed',
        clusterName: 'killed',
        logFile,
        extraArgs: ['--no-conversion'],
      });
      await reconciler.start({});

      const observer = new PodObserver(ctx.kc, ctx.core, ctx.namespace);
      await observer.start();
      await applySeed(ctx.custom, ctx.namespace);
      const seeded = await waitFor('the seed: 2 pods Ready', 90_000, async () => {
        const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
        return s?.readyReplicas === 2 && s.availableReplicas === 2
          ? await activePods(ctx.core, ctx.namespace)
          : undefined;
      });
      const seedUids = seeded.map((p) => p.metadata.uid).sort();

      killer.armed = true;
      await patchCloneSet(ctx.custom, ctx.namespace, [
        { op: 'replace', path: '/spec/replicas', value: REPLICAS },
      ]);
      await waitFor('the kill at the first pod create', 60_000, async () =>
        reconciler?.kills === 1 ? true : undefined,
      );
      const killedAt = reconciler.lastKillAt;
      // mid scale-up: the pass died with pods still to create, under a lease that holds the CloneSet for 180 s
      const atKill = (await activePods(ctx.core, ctx.namespace)).length;
      expect(atKill).toBe(3);
      const leases = await heldLeases(dynamo.client(), 'kruiseless-killed', ctx.namespace, Date.now());
      expect(leases.map((l) => l.pk)).toEqual([
        `obj#killed#apps.kruise.io/CloneSet#${ctx.namespace}#${SEED_NAME}`,
      ]);
      const leaseEnd = leases[0].expiresAt;
      expect(leaseEnd - killedAt).toBeLessThanOrEqual(KILLED_LEASE_MS);
      await reconciler.settled();

      const converged = await waitFor(
        `${REPLICAS} pods Ready and the status caught up (log: ${logFile})`,
        leaseEnd - Date.now() + 90_000,
        async () => {
          const cs = await getCloneSet(ctx.custom, ctx.namespace);
          const s = cs.status;
          const done =
            s?.observedGeneration === cs.metadata.generation &&
            s?.replicas === REPLICAS &&
            s.readyReplicas === REPLICAS &&
            s.availableReplicas === REPLICAS &&
            s.updatedReplicas === REPLICAS;
          return done ? { at: Date.now(), pods: await activePods(ctx.core, ctx.namespace) } : undefined;
        },
      );
      // not before the dead lease ran out (nothing may write under it), and soon after: the requeue 1 s after it
      expect(converged.at).toBeGreaterThan(leaseEnd);
      expect(converged.at - leaseEnd).toBeLessThan(60_000);
      await sleep(5_000); // anything late would show now
      const pods: Pod[] = await activePods(ctx.core, ctx.namespace);
      expect(pods).toHaveLength(REPLICAS);
      expect(seedUids.every((uid) => pods.some((p) => p.metadata.uid === uid))).toBe(true);
      const seen = observer.stop();
      // never more than the replicas at once, and no pod created beyond them (none deleted and replaced)
      expect(seen).toEqual({ podsCreated: REPLICAS, maxLive: REPLICAS });
      expect(await heldLeases(dynamo.client(), 'kruiseless-killed', ctx.namespace, Date.now())).toEqual([]);
      // what the restarted process did: the resync at start, deferred by the dead lease, requeued after its end
      const log = readFileSync(logFile, 'utf8');
      expect(log).toMatch(/"message":"resync finished"/);
      expect(log).toMatch(/"message":"reconcile finished".*"result":"deferred".*"requeuedAfterSeconds":\d+/);
    },
    TEST_TIMEOUT_MS,
  );
});
