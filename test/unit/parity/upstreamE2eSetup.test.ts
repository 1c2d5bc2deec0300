/**
 * Upstream's e2e setup in the parity harness (test/parity/upstreamE2eSetup.ts): where each manifest file is read
 * from, which objects of it are applied and in what order, the namespaces created first, and the bounded wait for a
 * CRD to be Established. The apply itself needs a cluster and is left to the upstream e2e run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { UpstreamE2eManifest } from '../../parity/kind.js';
import { workloadSpread } from '../../parity/kinds/workloadspread/index.js';
import {
  ESTABLISHED_TIMEOUT_MS,
  UpstreamE2eSetupError,
  changedSince,
  isCrd,
  lastChangedAt,
  manifestLabel,
  manifestPath,
  namespacesOf,
  objectLabel,
  readUpstreamE2eManifests,
  waitEstablished,
  type CrdWithStatus,
} from '../../parity/upstreamE2eSetup.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'upstream-e2e-setup-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes `text` to `<root>/<file>`, folders made. @returns root */
function moduleWith(root: string, file: string, text: string): string {
  const full = path.join(tmp, root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return path.join(tmp, root);
}

/** A config file shaped like upstream's test/kruise-e2e-config.yaml (made up here, not a copy of it). */
const CONFIG = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: system-ns
data:
  "Some_WhiteList": |
    {"workloads": [{"Group": "example.io", "Version": "v1", "Kind": "Widget"}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: e2e-access
rules:
  - apiGroups: [ "example.io" ]
    resources: [ "widgets" ]
    verbs: [ "get" ]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: e2e-access-binding
subjects:
  - kind: ServiceAccount
    name: manager
    namespace: other-ns
roleRef:
  kind: ClusterRole
  name: e2e-access
  apiGroup: rbac.authorization.k8s.io`;

/** A CRD file as controller-gen writes it: a leading `---` and an empty last document. */
const CRD = `---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.io
spec:
  group: example.io
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
---
`;

const openkruise = moduleWith('openkruise', 'test/e2e-config.yaml', CONFIG);
const other = moduleWith('other', 'manifests/crds/widgets.yaml', CRD);

const OTHER: UpstreamE2eManifest = {
  from: 'goModule',
  module: 'example.io/other',
  version: 'v1.2.3',
  file: 'manifests/crds/widgets.yaml',
};

/** A download stub recording what it was asked for. */
function downloads(): { asked: string[]; download: (spec: string) => Promise<{ dir: string }> } {
  const asked: string[] = [];
  return {
    asked,
    download: async (spec) => {
      asked.push(spec);
      return { dir: other };
    },
  };
}

describe('upstream e2e setup: where the files come from', () => {
  it('reads an OpenKruise file from the module copy the suite is built in, downloading nothing', async () => {
    const d = downloads();
    await expect(
      manifestPath({ from: 'openkruise', file: 'test/e2e-config.yaml' }, { openKruiseDir: openkruise, ...d }),
    ).resolves.toBe(path.join(openkruise, 'test', 'e2e-config.yaml'));
    expect(d.asked).toEqual([]);
  });

  it("reads another module's file from the folder `go mod download` gives for <module>@<version>", async () => {
    const d = downloads();
    await expect(manifestPath(OTHER, { openKruiseDir: openkruise, ...d })).resolves.toBe(
      path.join(other, 'manifests', 'crds', 'widgets.yaml'),
    );
    expect(d.asked).toEqual(['example.io/other@v1.2.3']);
  });

  it('names the manifest and the path when the module has no such file', async () => {
    const m: UpstreamE2eManifest = { from: 'openkruise', file: 'test/missing.yaml' };
    await expect(manifestPath(m, { openKruiseDir: openkruise })).rejects.toThrow(
      `upstream e2e setup: OpenKruise module test/missing.yaml: no file ${path.join(openkruise, 'test', 'missing.yaml')}`,
    );
  });

  it("names the manifest with go's message when the download fails", async () => {
    const download = async (): Promise<{ dir: string }> => {
      throw new Error('go mod download example.io/other@v1.2.3 failed: unknown revision v1.2.3');
    };
    const err = await manifestPath(OTHER, { openKruiseDir: openkruise, download }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamE2eSetupError);
    expect((err as Error).message).toBe(
      'upstream e2e setup: example.io/other@v1.2.3 manifests/crds/widgets.yaml: go mod download example.io/other@v1.2.3 failed: unknown revision v1.2.3',
    );
  });

  it('refuses a file outside the module (absolute, or climbing out with ..)', async () => {
    for (const file of ['/etc/passwd', '../openkruise/test/e2e-config.yaml']) {
      await expect(manifestPath({ ...OTHER, file }, { openKruiseDir: openkruise })).rejects.toThrow(
        `upstream e2e setup: example.io/other@v1.2.3 ${file}: not a path inside the module`,
      );
    }
  });

  it('labels manifests by module', () => {
    expect(manifestLabel({ from: 'openkruise', file: 'test/x.yaml' })).toBe('OpenKruise module test/x.yaml');
    expect(manifestLabel(OTHER)).toBe('example.io/other@v1.2.3 manifests/crds/widgets.yaml');
  });
});

describe('upstream e2e setup: which objects are applied', () => {
  it("applies every document of each file in the kind's order, skipping empty documents", async () => {
    const files = await readUpstreamE2eManifests(
      [OTHER, { from: 'openkruise', file: 'test/e2e-config.yaml' }],
      {
        openKruiseDir: openkruise,
        ...downloads(),
      },
    );
    expect(files.map((f) => f.file)).toEqual([
      path.join(other, 'manifests', 'crds', 'widgets.yaml'),
      path.join(openkruise, 'test', 'e2e-config.yaml'),
    ]);
    expect(files.map((f) => f.objects.map(objectLabel))).toEqual([
      ['CustomResourceDefinition/widgets.example.io'],
      ['ConfigMap/settings', 'ClusterRole/e2e-access', 'ClusterRoleBinding/e2e-access-binding'],
    ]);
  });

  it('waits for CRDs only, and creates only the namespaces objects are in (not those a binding names)', async () => {
    const [crd, config] = await readUpstreamE2eManifests(
      [OTHER, { from: 'openkruise', file: 'test/e2e-config.yaml' }],
      { openKruiseDir: openkruise, ...downloads() },
    );
    expect(crd?.objects.map(isCrd)).toEqual([true]);
    expect(config?.objects.map(isCrd)).toEqual([false, false, false]);
    expect(namespacesOf(config?.objects ?? [])).toEqual(['system-ns']);
    expect(namespacesOf(crd?.objects ?? [])).toEqual([]);
  });

  it('reads nothing for a kind without setup', async () => {
    await expect(readUpstreamE2eManifests([], { openKruiseDir: '/nowhere' })).resolves.toEqual([]);
  });

  it('names the file when it does not parse, holds a non-object, or holds nothing', async () => {
    const bad = moduleWith('bad', 'broken.yaml', 'kind: [unclosed\n');
    const notObject = moduleWith('bad', 'noname.yaml', 'apiVersion: v1\nkind: ConfigMap\n');
    const empty = moduleWith('bad', 'empty.yaml', '---\n---\n');
    const read = (file: string): Promise<unknown> =>
      readUpstreamE2eManifests([{ from: 'openkruise', file }], { openKruiseDir: bad });
    await expect(read('broken.yaml')).rejects.toThrow(
      `upstream e2e setup: ${path.join(bad, 'broken.yaml')}: `,
    );
    await expect(read('noname.yaml')).rejects.toThrow(
      `upstream e2e setup: ${path.join(notObject, 'noname.yaml')}: a document has no apiVersion, kind or metadata.name`,
    );
    await expect(read('empty.yaml')).rejects.toThrow(
      `upstream e2e setup: ${path.join(empty, 'empty.yaml')}: no object in it`,
    );
  });

  it("WorkloadSpread's setup is upstream's: the TFJob CRD of training-operator v1.8.1, then kruise-e2e-config.yaml", () => {
    expect(workloadSpread.upstreamE2e?.manifests).toEqual([
      {
        from: 'goModule',
        module: 'github.com/kubeflow/training-operator',
        version: 'v1.8.1',
        file: 'manifests/base/crds/kubeflow.org_tfjobs.yaml',
      },
      { from: 'openkruise', file: 'test/kruise-e2e-config.yaml' },
    ]);
  });
});

describe('upstream e2e setup: a CRD waited for until Established', () => {
  /** A fake clock the sleeps advance. */
  function clock(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } {
    let t = 0;
    const slept: number[] = [];
    return {
      now: () => t,
      sleep: async (ms) => {
        slept.push(ms);
        t += ms;
      },
      slept,
    };
  }
  const crd = (
    conditions: { type: string; status: string; reason?: string; message?: string }[],
  ): CrdWithStatus => ({
    metadata: { name: 'widgets.example.io' },
    status: { conditions },
  });

  it('returns once the Established condition is True', async () => {
    const reads: (CrdWithStatus | undefined)[] = [
      undefined,
      crd([]),
      crd([
        { type: 'NamesAccepted', status: 'True' },
        { type: 'Established', status: 'True' },
      ]),
    ];
    const c = clock();
    await waitEstablished(async () => reads.shift(), 'widgets.example.io', { ...c, intervalMs: 500 });
    expect(c.slept).toEqual([500, 500]);
  });

  it('gives up after the timeout, naming the CRD and its conditions', async () => {
    const c = clock();
    const stuck = crd([
      {
        type: 'NamesAccepted',
        status: 'False',
        reason: 'ListKindConflict',
        message: '"WidgetList" is already in use',
      },
      { type: 'Established', status: 'False', reason: 'NotAccepted' },
    ]);
    const err = await waitEstablished(async () => stuck, 'widgets.example.io', {
      ...c,
      timeoutMs: 3000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamE2eSetupError);
    expect((err as Error).message).toBe(
      'CustomResourceDefinition widgets.example.io not Established within 3 s (NamesAccepted=False (ListKindConflict: "WidgetList" is already in use), Established=False (NotAccepted))',
    );
    expect(c.now()).toBe(3000);
  });

  it('says so when the CRD is not there at all, and waits 60 s by default', async () => {
    const c = clock();
    await expect(waitEstablished(async () => undefined, 'gone.example.io', c)).rejects.toThrow(
      'CustomResourceDefinition gone.example.io not Established within 60 s (not found)',
    );
    expect(c.now()).toBe(ESTABLISHED_TIMEOUT_MS);
  });
});

describe('upstream e2e setup: what changed since a manager started', () => {
  const at = (...times: (string | undefined)[]) => ({
    metadata: { name: 'x', managedFields: times.map((time) => ({ manager: 'm', operation: 'Apply', time })) },
  });

  it('takes the newest managedFields time, whatever the order, and none when the server recorded none', () => {
    expect(lastChangedAt(at('2026-12-07T20:00:05Z', '2026-12-07T21:30:00Z', '2026-12-07T19:00:00Z'))).toBe(
      Date.parse('2026-12-07T21:30:00Z'),
    );
    expect(lastChangedAt(at(undefined, 'not a time', '2026-12-07T20:00:05Z'))).toBe(
      Date.parse('2026-12-07T20:00:05Z'),
    );
    expect(lastChangedAt(at())).toBeUndefined();
    expect(lastChangedAt({ metadata: {} })).toBeUndefined();
  });

  it('names what changed at or after the start; the same second counts, and so does an object without a time', () => {
    const started = Date.parse('2026-12-07T21:00:00.700Z');
    const applied = [
      {
        label: 'CustomResourceDefinition/tfjobs.kubeflow.org',
        changedAt: Date.parse('2026-12-07T20:59:59Z'),
      },
      { label: 'ConfigMap/kruise-configuration', changedAt: Date.parse('2026-12-07T21:00:00Z') },
      { label: 'ConfigMap/later', changedAt: Date.parse('2026-12-07T21:05:00Z') },
      { label: 'ConfigMap/untimed' },
    ];
    expect(changedSince(applied, started)).toEqual([
      'ConfigMap/kruise-configuration',
      'ConfigMap/later',
      'ConfigMap/untimed',
    ]);
    expect(changedSince(applied.slice(0, 1), started)).toEqual([]);
    expect(changedSince([], started)).toEqual([]);
  });
});
