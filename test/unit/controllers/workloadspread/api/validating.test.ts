/**
 * The WorkloadSpread validator of `/validate` against OpenKruise v1.9.0's `WorkloadSpreadCreateUpdateHandler.Handle`:
 * 400 with the aggregated errors, the conflict read from the namespace's WorkloadSpreads, the target change refused
 * on UPDATE, and every write refused with 403 when gate `WorkloadSpread` is off.
 */
import type { JsonObject } from '../../../../../lib/api/types.js';
import type { WorkloadSpread } from '../../../../../lib/controllers/workloadspread/api/types.js';
import {
  kubeWorkloadSpreadValidationReads,
  workloadSpreadValidator,
} from '../../../../../lib/controllers/workloadspread/api/validating.js';
import type { Resource } from '../../../../../lib/kube/resource.js';
import type { KubeClient } from '../../../../../lib/kube/types.js';
import { workloadSpread } from '../fixtures.js';

const asJson = (ws: WorkloadSpread) => ws as unknown as JsonObject;

describe('workloadSpreadValidator', () => {
  const other = workloadSpread({ metadata: { name: 'ws-b', namespace: 'ns' } });
  const reads = { workloadSpreads: () => Promise.resolve([workloadSpread(), other]) };

  it('refuses with 400 a second WorkloadSpread on the same target, read from the namespace', async () => {
    expect(
      await workloadSpreadValidator({ reads }).validate({
        operation: 'CREATE',
        object: asJson(workloadSpread()),
        requestVersion: 'v1beta1',
      }),
    ).toEqual({
      allowed: false,
      code: 400,
      message:
        'spec.targetRef: Invalid value: v1beta1.TargetReference{APIVersion:"apps.kruise.io/v1alpha1", Kind:"CloneSet", Name:"web"}: ws.spec.targetRef is in conflict with other WorkloadSpread ws-b',
    });
  });

  it('allows an update that keeps the target; refuses one that changes it', async () => {
    const v = workloadSpreadValidator();
    const old = asJson(workloadSpread());
    expect(
      await v.validate({ operation: 'UPDATE', object: old, oldObject: old, requestVersion: 'v1beta1' }),
    ).toEqual({
      allowed: true,
    });
    const moved = workloadSpread();
    moved.spec.targetRef = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web' };
    const verdict = await v.validate({
      operation: 'UPDATE',
      object: asJson(moved),
      oldObject: old,
      requestVersion: 'v1beta1',
    });
    expect(verdict).toMatchObject({ allowed: false, code: 400 });
  });

  it('refuses every write with 403 when the gate is off', async () => {
    expect(
      await workloadSpreadValidator({ settings: { gate: false } }).validate({
        operation: 'CREATE',
        object: asJson(workloadSpread()),
        requestVersion: 'v1beta1',
      }),
    ).toEqual({ allowed: false, code: 403, message: 'feature-gate WorkloadSpread is not enabled' });
  });

  it('reads the target through the cluster and refuses a subset patch its merged pod fails; a target not read skips it', async () => {
    const ws = workloadSpread();
    ws.spec.subsets[0].patch = { spec: { containers: [{ name: 'bare' }] } };
    const gets: string[] = [];
    const kube = {
      list: () => Promise.resolve({ items: [], resourceVersion: '1' }),
      get: (r: Resource, ref: { name: string }) => {
        gets.push(`${r.group}/${r.version}/${r.plural}/${ref.name}`);
        return Promise.resolve(
          r.plural === 'clonesets'
            ? {
                metadata: { name: 'web' },
                spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx' }] } } },
              }
            : undefined,
        );
      },
    } as unknown as KubeClient;
    const v = workloadSpreadValidator({ reads: kubeWorkloadSpreadValidationReads(kube) });
    expect(await v.validate({ operation: 'CREATE', object: asJson(ws), requestVersion: 'v1beta1' })).toEqual({
      allowed: false,
      code: 400,
      message: 'spec.subsets[0].patch.containers[0].image: Required value',
    });
    expect(gets).toEqual(['apps.kruise.io/v1alpha1/clonesets/web']);
    // an Advanced StatefulSet target is read as the apps/v1 StatefulSet of its name, as upstream: none here, no check
    ws.spec.targetRef = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web' };
    expect(await v.validate({ operation: 'CREATE', object: asJson(ws), requestVersion: 'v1beta1' })).toEqual({
      allowed: true,
    });
    expect(gets.at(-1)).toBe('apps/v1/statefulsets/web');
  });
});
