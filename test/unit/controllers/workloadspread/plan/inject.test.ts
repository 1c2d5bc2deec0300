/**
 * A subset injected into a pod against OpenKruise v1.9.0's `injectWorkloadSpreadIntoPod`
 * (pkg/util/workloadspread/workloadspread.go, its tests in workloadspread_test.go): tolerations and preferred terms
 * appended, the required term as the only term or ANDed into each, the patch merged, the annotation written.
 */
import type { JsonObject, Pod } from '../../../../../lib/api/types.js';
import { injectSubset, strategicMergePod } from '../../../../../lib/controllers/workloadspread/plan/index.js';
import { workloadSpread } from '../fixtures.js';

const bare = (): Pod => ({
  metadata: { name: 'web-abcde', labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
});

describe('injectSubset', () => {
  it('writes the required term as the only term, appends tolerations and preferred terms, and annotates', () => {
    const ws = workloadSpread();
    ws.spec.subsets[0] = {
      ...ws.spec.subsets[0],
      tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
      preferredNodeSelector: [
        { weight: 10, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } },
      ],
    };
    expect(injectSubset(ws, bare(), 'zone-a', '')).toEqual({
      metadata: {
        name: 'web-abcde',
        labels: { app: 'web' },
        annotations: { 'apps.kruise.io/matched-workloadspread': '{"name":"ws-a","subset":"zone-a"}' },
      },
      spec: {
        containers: [{ name: 'main', image: 'nginx' }],
        tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 10, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } },
            ],
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
            },
          },
        },
      },
    });
  });

  it('ANDs the required term into each of the pod’s own terms, and records the generated uid', () => {
    const pod = bare();
    pod.spec.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'arch', operator: 'In', values: ['arm64'] }] },
            { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
          ],
        },
      },
    };
    const out = injectSubset(workloadSpread(), pod, 'zone-b', 'u-1');
    expect(out?.spec.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'arch', operator: 'In', values: ['arm64'] },
                { key: 'zone', operator: 'In', values: ['b'] },
              ],
            },
            {
              matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }],
              matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }],
            },
          ],
        },
      },
    });
    expect(out?.metadata.annotations).toEqual({
      'apps.kruise.io/matched-workloadspread': '{"name":"ws-a","subset":"zone-b","uid":"u-1"}',
    });
  });

  it('merges the patch: a label, an annotation and a container’s resources; a new priorityClassName drops priority', () => {
    const ws = workloadSpread();
    ws.spec.subsets[0] = {
      name: 'zone-a',
      patch: {
        metadata: { labels: { zone: 'a' }, annotations: { note: 'x' } },
        spec: {
          priorityClassName: 'high',
          containers: [{ name: 'main', resources: { limits: { cpu: '1' } } }],
        },
      },
    };
    const pod = bare();
    pod.spec.priority = 0;
    expect(injectSubset(ws, pod, 'zone-a', '')).toEqual({
      metadata: {
        name: 'web-abcde',
        labels: { app: 'web', zone: 'a' },
        annotations: {
          note: 'x',
          'apps.kruise.io/matched-workloadspread': '{"name":"ws-a","subset":"zone-a"}',
        },
      },
      spec: {
        containers: [{ name: 'main', image: 'nginx', resources: { limits: { cpu: '1' } } }],
        priorityClassName: 'high',
        affinity: { nodeAffinity: {} },
      },
    });
  });

  it('a subset the spec does not have leaves the pod alone', () => {
    expect(injectSubset(workloadSpread(), bare(), 'zone-c', '')).toBeUndefined();
  });
});

describe('strategicMergePod', () => {
  it('merges containers by name in patch order with the pod’s others interleaved, null deletes, lists without a key replace', () => {
    const pod: JsonObject = {
      metadata: { labels: { a: '1', b: '2' } },
      spec: {
        containers: [
          { name: 'x', image: 'x:1', env: [{ name: 'A', value: '1' }] },
          { name: 'y', image: 'y:1' },
        ],
        tolerations: [{ key: 'old', operator: 'Exists' }],
      },
    };
    const patch: JsonObject = {
      metadata: { labels: { b: null, c: '3' } },
      spec: {
        containers: [
          { name: 'z', image: 'z:1' },
          { name: 'x', env: [{ name: 'B', value: '2' }] },
        ],
        tolerations: [{ key: 'new', operator: 'Exists' }],
      },
    };
    expect(strategicMergePod(pod, patch)).toEqual({
      metadata: { labels: { a: '1', c: '3' } },
      spec: {
        containers: [
          { name: 'z', image: 'z:1' },
          {
            name: 'x',
            image: 'x:1',
            env: [
              { name: 'B', value: '2' },
              { name: 'A', value: '1' },
            ],
          },
          { name: 'y', image: 'y:1' },
        ],
        tolerations: [{ key: 'new', operator: 'Exists' }],
      },
    });
  });

  it('a container’s resizePolicy is replaced, not merged (no merge key in k8s.io/api v0.32)', () => {
    const pod: JsonObject = {
      spec: {
        containers: [{ name: 'x', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }],
      },
    };
    const patch: JsonObject = {
      spec: {
        containers: [
          { name: 'x', resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
        ],
      },
    };
    expect(strategicMergePod(pod, patch)).toEqual({
      spec: {
        containers: [
          { name: 'x', resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
        ],
      },
    });
  });
});
