/**
 * The OpenKruise reference (infra/reference): when kruise-manager and the control plane binaries are cached, it is
 * brought up on its own control plane (state folder `.kruiseless-reference-test/`), runs the seed CloneSet
 * (examples/cs-no-pvc-sample.yaml) and is torn down; when they are not cached, the skip (`--if-cached`) is checked
 * instead. Either way the CLI's skip line for a version that is never cached and the build's fallback to v1.8.2 are
 * checked (and the skip recorded as a hollow run, infra/reference/hollow.ts). Expected revision names, pull policy and Events are what OpenKruise gives the seed
 * (infra/reference/README.md#the-seed-cloneset-on-openkruise).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Pod,
} from '@kubernetes/client-node';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../infra/local/versions.js';
import { recordHollow } from '../../infra/reference/hollow.js';
import {
  referenceDown,
  referenceInfo,
  referenceNotBuilt,
  referenceUpIfCached,
  SKIP_PREFIX,
  type ReferenceInfo,
} from '../../infra/reference/reference.js';
import { cacheRoot, referenceStateDir, requestedVersion } from '../../infra/reference/settings.js';
import { waitFor } from './support/wait.js';

const STATE_DIR = path.join(REPO_ROOT, '.kruiseless-reference-test');
process.env.KRUISELESS_REFERENCE_STATE_DIR = STATE_DIR;
const NS = 'reference-test';
const SEED = parse(fs.readFileSync(path.join(REPO_ROOT, 'examples', 'cs-no-pvc-sample.yaml'), 'utf8')) as {
  metadata: { name: string };
};
const NAME = SEED.metadata.name;
const CS = { group: 'apps.kruise.io', version: 'v1alpha1', namespace: NS, plural: 'clonesets' };

const notBuilt = await referenceNotBuilt();
const reason = notBuilt?.reason;
// a skip is a hollow run: recorded for .ci/run's HOLLOW line, named with the last build's outcome
const skipTitle = notBuilt && recordHollow({ suite: 'reference', ...notBuilt });
const lines: string[] = [];
const log = (l: string): void => void lines.push(l);

/** Runs `infra/reference/cli.ts <args>` with tsx (outside jest's VM), returning exit code, stdout and stderr. */
function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
): { status: number | null; stdout: string; stderr: string } {
  const res = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join('infra', 'reference', 'cli.ts'), ...args],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_OPTIONS: '', ...env },
      encoding: 'utf8',
    },
  );
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('OpenKruise reference', () => {
  test('`reference:up --if-cached` of a version never built prints the reason and starts nothing', () => {
    const version = 'v0.0.0-kruiseless-never-built';
    const res = cli(['up', '--if-cached'], { KRUISELESS_OPENKRUISE_VERSION: version });
    const stamp = path.join(cacheRoot(), `openkruise-${version}`, '.stamp');
    expect(res.status).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual([
      `[reference] ${SKIP_PREFIX}OpenKruise ${version} is not built (no ${stamp}); \`npm run reference:build\` builds it`,
    ]);
    expect(fs.existsSync(path.join(STATE_DIR, 'run', 'reference.json'))).toBe(false);
  });

  test('when v1.9.0 cannot be downloaded, the build says why and falls back to v1.8.2', () => {
    // A real fault, not a mock: module lookups switched off (GOPROXY=off) with an empty module cache.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kruiseless-fallback-'));
    try {
      const res = cli(['build'], {
        KRUISELESS_CACHE: path.join(tmp, 'cache'),
        GOMODCACHE: path.join(tmp, 'modcache'),
        GOPROXY: 'off',
        KRUISELESS_OPENKRUISE_VERSION: '',
      });
      const failed = (v: string): string =>
        `go mod download github.com/openkruise/kruise@${v} failed: github.com/openkruise/kruise@${v}: module lookup disabled by GOPROXY=off`;
      expect(res.status).toBe(1);
      const notBuilt = (v: string): string =>
        `[reference] building kruise-manager: OpenKruise ${v} is not built (no ${path.join(tmp, 'cache', `openkruise-${v}`, '.stamp')})`;
      expect(res.stdout.trim().split('\n')).toEqual([
        notBuilt('v1.9.0'),
        `[reference] OpenKruise v1.9.0 -> ${path.join(tmp, 'cache', 'openkruise-v1.9.0')} (cold: ~7 min of one core)`,
        `[reference] OpenKruise v1.9.0 could not be built: ${failed('v1.9.0')}`,
        '[reference] falling back to OpenKruise v1.8.2',
        notBuilt('v1.8.2'),
        `[reference] OpenKruise v1.8.2 -> ${path.join(tmp, 'cache', 'openkruise-v1.8.2')} (cold: ~7 min of one core)`,
      ]);
      expect(res.stderr.trim()).toBe(
        `OpenKruise v1.9.0 could not be built (${failed('v1.9.0')}), nor the fallback v1.8.2: ${failed('v1.8.2')}`,
      );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  if (reason) {
    test(`skips when not cached: ${skipTitle ?? reason}`, async () => {
      expect(referenceStateDir()).toBe(STATE_DIR);
      expect(await referenceUpIfCached({ log })).toEqual({ skipped: reason });
      expect(lines).toEqual([`[reference] ${SKIP_PREFIX}${reason}`]);
      expect(await referenceInfo()).toBeUndefined();
      expect(fs.existsSync(path.join(STATE_DIR, 'run', 'reference.json'))).toBe(false);
    });
    return;
  }

  let info: ReferenceInfo | undefined;
  afterAll(async () => {
    await referenceDown({ log });
    fs.rmSync(STATE_DIR, { recursive: true, force: true });
    if (info) expect(alive(info.pid)).toBe(false);
  }, 60000);

  test('brings OpenKruise up, which gives the seed CloneSet its own revision names, and tears it down', async () => {
    // A clean etcd: leftovers of an interrupted run are stopped and removed first.
    await referenceDown({ log });
    fs.rmSync(STATE_DIR, { recursive: true, force: true });
    const up = await referenceUpIfCached({ log });
    if ('skipped' in up) throw new Error(`skipped although cached: ${up.skipped}`);
    info = up.info;
    expect(up.started).toBe(true);
    expect(info.version).toBe(requestedVersion());
    expect(info.stateDir).toBe(STATE_DIR);
    const recorded = JSON.parse(fs.readFileSync(path.join(STATE_DIR, 'run', 'reference.json'), 'utf8')) as {
      kubeconfig: string;
      version: string;
    };
    expect(recorded.kubeconfig).toBe(path.join(STATE_DIR, 'kubeconfig'));
    expect(recorded.version).toBe(info.version);
    expect(alive(info.pid)).toBe(true);

    const kc = new KubeConfig();
    kc.loadFromFile(info.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    const custom = kc.makeApiClient(CustomObjectsApi);
    await core.createNamespace({ body: { metadata: { name: NS } } });
    await custom.createNamespacedCustomObject({ ...CS, body: SEED });

    const readyPods = async (n: number, image: string): Promise<V1Pod[] | undefined> => {
      const pods = (await core.listNamespacedPod({ namespace: NS, labelSelector: `app=${NAME}` })).items;
      const ok = pods.filter(
        (p) =>
          !p.metadata?.deletionTimestamp &&
          p.spec?.containers[0].image === image &&
          p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      );
      return pods.length === n && ok.length === n ? pods : undefined;
    };
    const revisions = async (): Promise<string[]> =>
      (await apps.listNamespacedControllerRevision({ namespace: NS })).items
        .map((r) => r.metadata?.name ?? '')
        .sort();

    const first = await waitFor('2 seed pods Ready', 30000, () => readyPods(2, 'nginx:1.18-alpine'));
    expect(await revisions()).toEqual([`${NAME}-7fb7468d98`]);
    expect(first.map((p) => p.metadata?.labels?.['controller-revision-hash'])).toEqual([
      `${NAME}-7fb7468d98`,
      `${NAME}-7fb7468d98`,
    ]);
    expect(first.map((p) => p.spec?.containers[0].imagePullPolicy)).toEqual(['Always', 'Always']);

    await custom.patchNamespacedCustomObject(
      {
        ...CS,
        name: NAME,
        body: {
          spec: {
            replicas: 1,
            template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.19-alpine' }] } },
          },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const [kept] = await waitFor('1 pod Ready on nginx:1.19-alpine', 45000, () =>
      readyPods(1, 'nginx:1.19-alpine'),
    );
    expect(await revisions()).toEqual([`${NAME}-6ccb957675`, `${NAME}-7fb7468d98`]);
    expect(kept.metadata?.labels?.['controller-revision-hash']).toBe(`${NAME}-6ccb957675`);
    expect(first.map((p) => p.metadata?.uid)).toContain(kept.metadata?.uid);
    expect(kept.status?.containerStatuses?.[0].restartCount).toBe(1);

    const reasons = (await core.listNamespacedEvent({ namespace: NS })).items
      .filter((e) => e.involvedObject.kind === 'CloneSet')
      .map((e) => e.reason ?? '');
    expect([...new Set(reasons)].sort()).toEqual([
      'SuccessfulCreate',
      'SuccessfulDelete',
      'SuccessfulUpdatePodInPlace',
    ]);
  }, 110000);
});
