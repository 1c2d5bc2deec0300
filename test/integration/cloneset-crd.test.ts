/**
 * The CloneSet CRD on a real kube-apiserver: structural defaults, CEL validation messages, printer columns.
 */
import { ApiException } from '@kubernetes/client-node';
import { useTestNamespace } from './support/cluster.js';
import { rawGet } from './support/kube.js';

const group = 'apps.kruise.io';
const version = 'v1alpha1';
const plural = 'clonesets';

type Obj = Record<string, unknown>;

/** The seed's CloneSet (examples/cs-no-pvc-sample.yaml), as a fresh object. */
function seedCloneSet(name = 'cs-no-pvc-sample'): Obj {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { labels: { app: 'cs-no-pvc-cs-no-pvc-sample' }, name },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'cs-no-pvc-sample' } },
      template: {
        metadata: { labels: { app: 'cs-no-pvc-sample' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }] },
      },
      updateStrategy: { type: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 5 } },
    },
  };
}

const t = useTestNamespace('crd');

/** Creates a CloneSet and returns the API server's rejection (status code and message). */
async function rejection(body: Obj): Promise<{ code: number; message: string }> {
  try {
    await t.custom.createNamespacedCustomObject({ group, version, plural, namespace: t.namespace, body });
  } catch (e) {
    if (e instanceof ApiException) {
      const status = JSON.parse(String(e.body)) as { message: string };
      return { code: e.code, message: status.message };
    }
    throw e;
  }
  throw new Error('expected the API server to reject the CloneSet');
}

function withUpdateStrategy(name: string, updateStrategy: Obj): Obj {
  const cs = seedCloneSet(name);
  (cs.spec as Obj).updateStrategy = updateStrategy;
  return cs;
}

describe('CloneSet CRD (apps.kruise.io/v1alpha1)', () => {
  test('the seed CloneSet is accepted and read back with defaults filled in', async () => {
    await t.custom.createNamespacedCustomObject({
      group,
      version,
      plural,
      namespace: t.namespace,
      body: seedCloneSet(),
    });
    const got = (await t.custom.getNamespacedCustomObject({
      group,
      version,
      plural,
      namespace: t.namespace,
      name: 'cs-no-pvc-sample',
    })) as { spec: Obj };
    expect(got.spec).toEqual({
      replicas: 2,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'cs-no-pvc-sample' } },
      template: {
        metadata: { labels: { app: 'cs-no-pvc-sample' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }] },
      },
      updateStrategy: {
        type: 'InPlaceIfPossible',
        inPlaceUpdateStrategy: { gracePeriodSeconds: 5 },
        partition: 0,
        maxUnavailable: '20%',
        maxSurge: 0,
      },
    });
  });

  test('an empty spec gets replicas 1 and updateStrategy type ReCreate', async () => {
    const cs = seedCloneSet('defaults');
    const spec = cs.spec as Obj;
    delete spec.replicas;
    delete spec.updateStrategy;
    await t.custom.createNamespacedCustomObject({ group, version, plural, namespace: t.namespace, body: cs });
    const got = (await t.custom.getNamespacedCustomObject({
      group,
      version,
      plural,
      namespace: t.namespace,
      name: 'defaults',
    })) as { spec: Obj };
    expect(got.spec.replicas).toBe(1);
    expect(got.spec.revisionHistoryLimit).toBe(10);
    expect(got.spec.updateStrategy).toEqual({
      type: 'ReCreate',
      partition: 0,
      maxUnavailable: '20%',
      maxSurge: 0,
    });
  });

  test('partition "5" (a string without %) is rejected with a clear message', async () => {
    const r = await rejection(
      withUpdateStrategy('bad-partition', { type: 'InPlaceIfPossible', partition: '5' }),
    );
    expect(r.code).toBe(422);
    expect(r.message).toBe(
      'CloneSet.apps.kruise.io "bad-partition" is invalid: spec.updateStrategy.partition: Invalid value: "": ' +
        'updateStrategy.partition must be a non-negative integer or a percentage string ending with "%" ' +
        '(e.g. "20%"), got "5"',
    );
  });

  test('maxSurge 1 with InPlaceOnly is rejected with the OpenKruise message', async () => {
    const r = await rejection(withUpdateStrategy('bad-surge', { type: 'InPlaceOnly', maxSurge: 1 }));
    expect(r.code).toBe(422);
    expect(r.message).toBe(
      'CloneSet.apps.kruise.io "bad-surge" is invalid: spec.updateStrategy.maxSurge: Invalid value: ' +
        '"object": can not use maxSurge with strategy type InPlaceOnly',
    );
  });

  test('an unknown updateStrategy type and an empty selector are rejected', async () => {
    const r1 = await rejection(withUpdateStrategy('bad-type', { type: 'OnDelete' }));
    expect(r1.message).toContain(
      'spec.updateStrategy.type: Unsupported value: "OnDelete": supported values: "ReCreate", "InPlaceIfPossible", "InPlaceOnly"',
    );
    const cs = seedCloneSet('empty-selector');
    (cs.spec as Obj).selector = { matchLabels: {} };
    const r2 = await rejection(cs);
    expect(r2.message).toContain(
      'spec.selector: Invalid value: "object": empty selector is invalid for cloneset',
    );
  });

  test('the selector is immutable', async () => {
    await t.custom.createNamespacedCustomObject({
      group,
      version,
      plural,
      namespace: t.namespace,
      body: seedCloneSet('immutable'),
    });
    let message = '';
    try {
      await t.custom.patchNamespacedCustomObject({
        group,
        version,
        plural,
        namespace: t.namespace,
        name: 'immutable',
        body: [{ op: 'add', path: '/spec/selector/matchLabels/extra', value: 'x' }],
      });
    } catch (e) {
      message = e instanceof ApiException ? String(e.body) : String(e);
    }
    expect(message).toContain('selector is immutable');
  });

  test('a Table request returns the printer columns of the CRD', async () => {
    const res = await rawGet(t.kc, `/apis/${group}/${version}/namespaces/${t.namespace}/${plural}`, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(res.status).toBe(200);
    const table = JSON.parse(res.body) as {
      kind: string;
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[] }[];
    };
    expect(table.kind).toBe('Table');
    // kubectl prints these names upper-cased: NAME DESIRED ... AGE.
    expect(table.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name.toUpperCase())).toEqual([
      'NAME',
      'DESIRED',
      'UPDATED',
      'UPDATED_READY',
      'UPDATED_AVAILABLE',
      'READY',
      'TOTAL',
      'AGE',
    ]);
    expect(table.columnDefinitions.filter((c) => c.priority === 1).map((c) => c.name)).toEqual([
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ]);
    const seedRow = table.rows.find((r) => r.cells[0] === 'cs-no-pvc-sample');
    expect(seedRow?.cells.slice(0, 2)).toEqual(['cs-no-pvc-sample', 2]);
  });
});
