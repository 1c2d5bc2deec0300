/**
 * Switching a live CloneSet from OpenKruise to Kruiseless and back on one control plane (README "Switching from
 * OpenKruise (and back)"): OpenKruise v1.9.0 (infra/reference, state folder `.kruiseless-switch-test/`) rolls the
 * seed out; `referenceDown({ keepCluster: true })` re-stores the CloneSets as v1alpha1, removes the webhooks, stops
 * kruise-manager and puts Kruiseless's CRD in place; Kruiseless (the embedded default) takes over without writing a
 * pod and keeps the update revision; its next image edit goes in place. Then `referenceUp` takes the CRD back, and
 * OpenKruise does the same. An Advanced StatefulSet (`web`, InPlaceIfPossible) makes the same trip beside it: its
 * CRD (v1beta1-stored on both sides) is kept with the set, no pod is written by the side taking over, the revisions
 * stay, and each side's next image edit goes in place. When OpenKruise or the control plane binaries are not cached,
 * the skip reason is checked (and the skip recorded as a hollow run, infra/reference/hollow.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AdmissionregistrationV1Api,
  ApiextensionsV1Api,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
} from '@kubernetes/client-node';
import { parse } from 'yaml';
import type { CloneSet, Pod } from '../../lib/api/types.js';
import type { StatefulSet } from '../../lib/controllers/statefulset/api/types.js';
import { startEmbedded, type Embedded } from '../../lib/local/embedded.js';
import { REPO_ROOT } from '../../infra/local/versions.js';
import { recordHollow } from '../../infra/reference/hollow.js';
import {
  referenceDown,
  referenceInfo,
  referenceNotBuilt,
  referenceUp,
  type ReferenceInfo,
} from '../../infra/reference/reference.js';
import { referenceStateDir } from '../../infra/reference/settings.js';
import { kubeWrites, RecordingLogger, settle } from './support/pipeline.js';
import { inPlace, webStatefulSet } from './support/statefulset.js';
import { waitFor } from './support/wait.js';

const STATE_DIR = path.join(REPO_ROOT, '.kruiseless-switch-test');
process.env.KRUISELESS_REFERENCE_STATE_DIR = STATE_DIR;
const NS = 'switch-test';
const SEED = parse(
  fs.readFileSync(path.join(REPO_ROOT, 'examples', 'cs-no-pvc-sample.yaml'), 'utf8'),
) as CloneSet;
const NAME = SEED.metadata.name ?? '';
const CS = { group: 'apps.kruise.io', version: 'v1alpha1', namespace: NS, plural: 'clonesets', name: NAME };
const STEP_TIMEOUT_MS = 150_000;
const ASTS = {
  group: 'apps.kruise.io',
  version: 'v1beta1',
  namespace: NS,
  plural: 'statefulsets',
  name: 'web',
};
/** The Advanced StatefulSet that switches sides with the seed: 2 pods, OrderedReady, updated in place. */
const WEB = webStatefulSet(inPlace);

const notBuilt = await referenceNotBuilt();
const reason = notBuilt?.reason;
// a skip is a hollow run: recorded for .ci/run's HOLLOW line, named with the last build's outcome
const skipTitle = notBuilt && recordHollow({ suite: 'switch', ...notBuilt });
const lines: string[] = [];
const log = (l: string): void => void lines.push(l);

/** What identifies a pod and every write to it. */
interface PodMark {
  name: string;
  uid: string;
  resourceVersion: string;
  image: string;
  restarts: number;
  revision: string;
}

if (reason) {
  test(`skips when the reference is not cached: ${skipTitle ?? reason}`, () => {
    expect(referenceStateDir()).toBe(STATE_DIR);
    expect(reason).toMatch(/`npm run (reference|cluster):build` builds (it|them)$/);
  });
} else {
  let info: ReferenceInfo;
  let kc: KubeConfig;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;
  let embedded: Embedded | undefined;

  beforeAll(async () => {
    await referenceDown({ log });
    fs.rmSync(STATE_DIR, { recursive: true, force: true });
    info = (await referenceUp({ log })).info;
    kc = new KubeConfig();
    kc.loadFromFile(info.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
    custom = kc.makeApiClient(CustomObjectsApi);
    // no wait for the garbage collector: OpenKruise v1.9 owns its pods and revisions as apps.kruise.io/v1beta1,
    // which Kruiseless's CRD serves too (README.md#cloneset-versions), so a pod the collector is still retrying
    // on this fresh cluster finds its owner after the hand-over as before it
  }, STEP_TIMEOUT_MS + 90_000);

  afterAll(async () => {
    await embedded?.stop();
    await referenceDown({ log });
    fs.rmSync(STATE_DIR, { recursive: true, force: true });
  }, 60_000);

  const getCs = async (): Promise<CloneSet> => (await custom.getNamespacedCustomObject(CS)) as CloneSet;
  const patchImage = (image: string): Promise<unknown> =>
    custom.patchNamespacedCustomObject({
      ...CS,
      body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }],
    });
  const getSet = async (): Promise<StatefulSet> =>
    (await custom.getNamespacedCustomObject(ASTS)) as StatefulSet;
  const patchSetImage = (image: string): Promise<unknown> =>
    custom.patchNamespacedCustomObject({
      ...ASTS,
      body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }],
    });
  /** The seed's pods (`app` label of the seed) or the set's (`app=web`). */
  const marks = async (app = SEED.spec.selector.matchLabels?.app ?? ''): Promise<PodMark[]> =>
    ((await core.listNamespacedPod({ namespace: NS, labelSelector: `app=${app}` })).items as unknown as Pod[])
      .map((p) => ({
        name: p.metadata.name ?? '',
        uid: p.metadata.uid ?? '',
        resourceVersion: p.metadata.resourceVersion ?? '',
        image: p.spec.containers[0].image ?? '',
        restarts: p.status?.containerStatuses?.[0]?.restartCount ?? -1,
        revision: p.metadata.labels?.['controller-revision-hash'] ?? '',
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  const revisionNames = async (app = SEED.spec.selector.matchLabels?.app ?? ''): Promise<string[]> =>
    (
      await kc
        .makeApiClient(AppsV1Api)
        .listNamespacedControllerRevision({ namespace: NS, labelSelector: `app=${app}` })
    ).items
      .map((r) => r.metadata?.name ?? '')
      .sort();
  /** Both pods Ready on `image` after `restarts` container restarts, the status saying so, no pod written for 3 s. */
  const rolledOut = (image: string, restarts: number): Promise<PodMark[]> =>
    waitFor(`2 pods Ready on ${image} (${restarts} restarts), then quiet`, 90_000, async () => {
      const cs = await getCs();
      const s = cs.status;
      const before = await marks();
      if (before.length !== 2 || before.some((m) => m.image !== image || m.restarts !== restarts))
        return undefined;
      if (s?.observedGeneration !== cs.metadata.generation || s?.updatedReadyReplicas !== 2) return undefined;
      await sleep(3000);
      const after = await marks();
      return JSON.stringify(after) === JSON.stringify(before) && after;
    });

  /** The set's 2 pods Ready on `image` after `restarts` restarts, its status saying so, no pod written for 3 s. */
  const setRolledOut = (image: string, restarts: number): Promise<PodMark[]> =>
    waitFor(`web: 2 pods Ready on ${image} (${restarts} restarts), then quiet`, 90_000, async () => {
      const sts = await getSet();
      const s = sts.status;
      const before = await marks('web');
      if (before.length !== 2 || before.some((m) => m.image !== image || m.restarts !== restarts))
        return undefined;
      if (
        s === undefined ||
        s.observedGeneration !== sts.metadata.generation ||
        s.readyReplicas !== 2 ||
        s.updatedReplicas !== 2 ||
        s.currentRevision !== s.updateRevision
      )
        return undefined;
      await sleep(3000);
      const after = await marks('web');
      return JSON.stringify(after) === JSON.stringify(before) && after;
    });

  const story: { pods?: PodMark[]; revision?: string; revisions?: string[]; spec?: CloneSet['spec'] } = {};
  const set: { pods?: PodMark[]; revision?: string; revisions?: string[]; spec?: StatefulSet['spec'] } = {};

  test(
    'OpenKruise rolls the seed out and updates it in place',
    async () => {
      await core.createNamespace({ body: { metadata: { name: NS } } });
      await custom.createNamespacedCustomObject({ ...CS, body: SEED });
      const first = await rolledOut('nginx:1.18-alpine', 0);
      await patchImage('nginx:1.19-alpine');
      const pods = await rolledOut('nginx:1.19-alpine', 1);
      expect(pods.map((p) => [p.uid, p.restarts, p.revision])).toEqual(
        first.map((p) => [p.uid, 1, `${NAME}-6ccb957675`]),
      );
      const cs = await getCs();
      expect(cs.status?.updateRevision).toBe(`${NAME}-6ccb957675`);
      story.pods = pods;
      story.revision = cs.status?.updateRevision;
      story.revisions = await revisionNames();
      story.spec = cs.spec;

      await custom.createNamespacedCustomObject({ ...ASTS, body: WEB });
      const web = await setRolledOut('nginx:1.24-alpine', 0);
      await patchSetImage('nginx:1.25-alpine');
      const webPods = await setRolledOut('nginx:1.25-alpine', 1);
      expect(webPods.map((p) => [p.name, p.uid])).toEqual(web.map((p) => [p.name, p.uid]));
      const sts = await getSet();
      set.pods = webPods;
      set.revision = sts.status?.updateRevision;
      set.revisions = await revisionNames('web');
      set.spec = sts.spec;
      expect(set.revisions).toHaveLength(2);
    },
    STEP_TIMEOUT_MS * 2,
  );

  test(
    'reference:down --keep-cluster re-stores the CloneSet as v1alpha1, removes OpenKruise and puts our CRD in place',
    async () => {
      lines.length = 0;
      await referenceDown({ keepCluster: true, log });
      expect(lines).toEqual([
        '[reference] 1 CloneSet(s) re-stored as v1alpha1 (were v1alpha1,v1beta1)',
        '[reference] stopped kruise-manager',
        '[reference] webhook configurations deleted',
        // OpenKruise's SidecarSet CRD stored v1alpha1 and v1beta1, both served by Kruiseless's (infra/crds, v1beta1
        // stored since 2026-12-04): replaced in place, not deleted
        '[reference] Kruiseless CloneSet CRD (infra/crds) back in place',
        "[reference] down: kruise-manager stopped, control plane kept with Kruiseless's CRD",
      ]);
      expect(await referenceInfo()).toBeUndefined();
      const sidecarSets = await kc
        .makeApiClient(ApiextensionsV1Api)
        .readCustomResourceDefinition({ name: 'sidecarsets.apps.kruise.io' });
      expect(sidecarSets.spec.versions.map((v) => `${v.name}${v.storage ? ' (storage)' : ''}`)).toEqual([
        'v1alpha1',
        'v1beta1 (storage)',
      ]);
      const crd = (await kc
        .makeApiClient(ApiextensionsV1Api)
        .readCustomResourceDefinition({ name: 'clonesets.apps.kruise.io' })) as {
        metadata: { annotations?: Record<string, string> };
        spec: { versions: { name: string }[]; conversion?: { strategy: string } };
        status?: { storedVersions?: string[] };
      };
      expect([
        crd.spec.versions.map((v) => v.name),
        crd.spec.conversion?.strategy,
        crd.status?.storedVersions,
      ]).toEqual([['v1alpha1', 'v1beta1'], 'None', ['v1alpha1']]);
      const hooks = await kc.makeApiClient(AdmissionregistrationV1Api).listMutatingWebhookConfiguration();
      expect(hooks.items.map((h) => h.metadata?.name)).toEqual([]);
      expect((await getCs()).spec).toEqual(story.spec);
      expect(await marks()).toEqual(story.pods);
      // the Advanced StatefulSet CRD stores v1beta1 on both sides: kept, with the set
      expect((await getSet()).spec).toEqual(set.spec);
      expect(await marks('web')).toEqual(set.pods);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'Kruiseless takes over without writing a pod, keeps the update revision, and its next edit goes in place',
    async () => {
      embedded = await startEmbedded({
        kubeconfig: info.kubeconfig,
        clusterName: 'switch',
        logger: new RecordingLogger(),
      });
      await waitFor(
        'a reconcile pass',
        30_000,
        async () => (embedded?.counts.kube['get clonesets'] ?? 0) > 0,
      );
      await settle(embedded);
      // no pod, revision or CloneSet spec write; at most the status (when kruise-manager was stopped before it
      // wrote its last one, which happens on a loaded machine)
      await waitFor(
        'a reconcile pass of the Advanced StatefulSet',
        30_000,
        async () => (embedded?.counts.kube['get statefulsets'] ?? 0) > 0,
      );
      await settle(embedded);
      expect(
        Object.keys(kubeWrites(embedded.counts.kube)).filter(
          (m) => m !== 'replace clonesets/status' && m !== 'replace statefulsets/status',
        ),
      ).toEqual([]);
      expect(await marks()).toEqual(story.pods);
      expect((await getCs()).status?.updateRevision).toBe(story.revision);
      expect(await revisionNames()).toEqual(story.revisions);
      expect(await marks('web')).toEqual(set.pods);
      expect((await getSet()).status?.updateRevision).toBe(set.revision);
      expect(await revisionNames('web')).toEqual(set.revisions);

      await patchSetImage('nginx:1.26-alpine');
      const webPods = await setRolledOut('nginx:1.26-alpine', 2);
      expect(webPods.map((p) => [p.name, p.uid])).toEqual((set.pods ?? []).map((p) => [p.name, p.uid]));
      const sts = await getSet();
      expect(webPods.map((p) => p.revision)).toEqual([
        sts.status?.updateRevision,
        sts.status?.updateRevision,
      ]);
      set.pods = webPods;
      set.revision = sts.status?.updateRevision;
      set.revisions = await revisionNames('web');
      set.spec = sts.spec;

      await patchImage('nginx:1.20-alpine');
      const pods = await rolledOut('nginx:1.20-alpine', 2);
      const cs = await getCs();
      expect(pods.map((p) => [p.name, p.uid, p.restarts, p.revision])).toEqual(
        (story.pods ?? []).map((p) => [p.name, p.uid, 2, cs.status?.updateRevision]),
      );
      expect(cs.status?.updateRevision).toBe(`${NAME}-65fffbf8d7`);
      await settle(embedded);
      await embedded.stop();
      embedded = undefined;
      story.pods = await marks();
      story.revision = cs.status?.updateRevision;
      story.revisions = await revisionNames();
      story.spec = cs.spec;
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'reference:up takes the CRD back with the CloneSet; OpenKruise writes no pod and its next edit goes in place',
    async () => {
      lines.length = 0;
      const up = await referenceUp({ log });
      expect(lines).toContain(
        '[reference] taking over the CloneSet CRD (Kruiseless) with its CloneSets (stored as v1alpha1)',
      );
      expect(up.started).toBe(true);
      await sleep(5000);
      expect(await marks()).toEqual(story.pods);
      expect((await getCs()).status?.updateRevision).toBe(story.revision);
      expect(await revisionNames()).toEqual(story.revisions);
      expect(await marks('web')).toEqual(set.pods);
      expect((await getSet()).status?.updateRevision).toBe(set.revision);
      expect(await revisionNames('web')).toEqual(set.revisions);

      await patchImage('nginx:1.21-alpine');
      const pods = await rolledOut('nginx:1.21-alpine', 3);
      const cs = await getCs();
      expect(pods.map((p) => [p.name, p.uid, p.restarts, p.revision])).toEqual(
        (story.pods ?? []).map((p) => [p.name, p.uid, 3, cs.status?.updateRevision]),
      );
      // OpenKruise found Kruiseless's revision byte-equal to its own: no hash collision counted
      expect([cs.status?.updateRevision, cs.status?.collisionCount]).toEqual([`${NAME}-6db8767fc4`, 0]);
      expect(await revisionNames()).toEqual([...(story.revisions ?? []), `${NAME}-6db8767fc4`].sort());

      await patchSetImage('nginx:1.27-alpine');
      const webPods = await setRolledOut('nginx:1.27-alpine', 3);
      expect(webPods.map((p) => [p.name, p.uid])).toEqual((set.pods ?? []).map((p) => [p.name, p.uid]));
      // OpenKruise found the set's revisions written by Kruiseless equal to its own: no collision counted
      expect((await getSet()).status?.collisionCount ?? 0).toBe(0);
      expect(await revisionNames('web')).toHaveLength((set.revisions ?? []).length + 1);
    },
    STEP_TIMEOUT_MS * 2,
  );
}
