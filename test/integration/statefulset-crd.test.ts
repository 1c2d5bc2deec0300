/**
 * OpenKruise's Advanced StatefulSet CRD as infra/crds installs it, on a real kube-apiserver: the example is
 * accepted as v1beta1 and read back unchanged; with no conversion webhook, a v1alpha1 read changes only apiVersion
 * and prunes the fields v1alpha1's schema lacks, here `lifecycle` and `reserveOrdinals`
 * (infra/crds/apps.kruise.io_statefulsets.yaml's header).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { useTestNamespace } from './support/cluster.js';

type Obj = Record<string, unknown>;
const group = 'apps.kruise.io';
const plural = 'statefulsets';
const example = parse(
  fs.readFileSync(path.join(process.cwd(), 'examples', 'asts-web-sample.yaml'), 'utf8'),
) as Obj & { spec: Obj };

const t = useTestNamespace('asts-crd');

describe('Advanced StatefulSet CRD (apps.kruise.io v1beta1 stored, v1alpha1 served)', () => {
  test('examples/asts-web-sample.yaml is stored as written; v1alpha1 reads it without v1beta1-only fields', async () => {
    const body = {
      ...example,
      spec: { ...example.spec, lifecycle: { preDelete: { labelsHandler: { hold: 'x' } } } },
    };
    await t.custom.createNamespacedCustomObject({
      group,
      version: 'v1beta1',
      plural,
      namespace: t.namespace,
      body,
    });
    const beta = (await t.custom.getNamespacedCustomObject({
      group,
      version: 'v1beta1',
      plural,
      namespace: t.namespace,
      name: 'web',
    })) as Obj & { spec: Obj };
    expect(beta.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(beta.spec).toEqual(body.spec);
    const alpha = (await t.custom.getNamespacedCustomObject({
      group,
      version: 'v1alpha1',
      plural,
      namespace: t.namespace,
      name: 'web',
    })) as Obj & { spec: Obj };
    expect(alpha.apiVersion).toBe('apps.kruise.io/v1alpha1');
    const { lifecycle: _lifecycle, reserveOrdinals: _reserveOrdinals, ...sharedFields } = body.spec as Obj;
    expect(alpha.spec).toEqual(sharedFields);
  });
});
