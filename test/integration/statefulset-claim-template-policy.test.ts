/**
 * OpenKruise's volumeClaimTemplate update rule (`ValidateVolumeClaimTemplateUpdate`) as the ValidatingAdmissionPolicies
 * of infra/rbac/kruiseless-asts-claim-templates.yaml, applied and removed by lib/cli/claimTemplatePolicies.ts, on the
 * real API server with the local control plane's StorageClasses (`allow-volume-expansion`,
 * `disallow-volume-expansion`). The cases are those of OpenKruise's own `TestValidateVolumeClaimTemplateUpdate` and
 * its VolumeExpansion e2e specs that expect the update refused. The cluster's default class is not replaced here
 * (the suite shares the cluster), so the default-class branch is not exercised.
 */
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { useTestNamespace } from './support/cluster.js';
import { syncClaimTemplatePolicies } from '../../lib/cli/claimTemplatePolicies.js';

type Obj = Record<string, unknown>;
const group = 'apps.kruise.io';
const version = 'v1beta1';
const plural = 'statefulsets';
const t = useTestNamespace('asts-vct-policy');

const template = (name: string, storageClassName: string, size = '1Gi'): Obj => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName, resources: { requests: { storage: size } } },
});

const set = (name: string, updateType: string): Obj => ({
  apiVersion: `${group}/${version}`,
  kind: 'StatefulSet',
  metadata: { name },
  spec: {
    replicas: 0,
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
    },
    volumeClaimUpdateStrategy: { type: updateType },
    volumeClaimTemplates: [
      template('data0', 'allow-volume-expansion'),
      template('data1', 'disallow-volume-expansion'),
    ],
  },
});

/** Replaces the set's volumeClaimTemplates (a JSON merge patch replaces the list): 'accepted' or the API server's message. */
async function updateTemplates(name: string, templates: Obj[]): Promise<string> {
  try {
    await t.custom.patchNamespacedCustomObject(
      {
        group,
        version,
        plural,
        namespace: t.namespace,
        name,
        body: { spec: { volumeClaimTemplates: templates } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    return 'accepted';
  } catch (e) {
    const body = (e as { body?: string }).body;
    if (!body) throw e;
    return (JSON.parse(body) as { message: string }).message;
  }
}

describe("Advanced StatefulSet volumeClaimTemplate updates under OpenKruise's rule (gate StatefulSetAutoResizePVCGate)", () => {
  beforeAll(async () => {
    expect(await syncClaimTemplatePolicies(t.kc, true)).toEqual({
      action: 'applied',
      objects: [
        'ValidatingAdmissionPolicy/kruiseless-asts-claim-templates',
        'ValidatingAdmissionPolicyBinding/kruiseless-asts-claim-templates',
        'ValidatingAdmissionPolicy/kruiseless-asts-claim-expansion',
        'ValidatingAdmissionPolicyBinding/kruiseless-asts-claim-expansion',
      ],
    });
    for (const [name, type] of [
      ['rolling', 'OnPodRollingUpdate'],
      ['ondelete', 'OnDelete'],
      ['probe-a', 'OnPodRollingUpdate'],
      ['probe-b', 'OnPodRollingUpdate'],
    ])
      await t.custom.createNamespacedCustomObject({
        group,
        version,
        plural,
        namespace: t.namespace,
        body: set(name, type),
      });
    // the API server takes new policies up within moments (the one with StorageClass params once it has read the
    // classes): until then an update they refuse goes through, so probe each on a set of its own, every try a new
    // rename or resize of the last state
    const probes: [string, string, (i: number) => Obj[]][] = [
      [
        'probe-a',
        'name can not be modified',
        (i) => [template(`p${i}`, 'standard'), template(`q${i}`, 'standard')],
      ],
      [
        'probe-b',
        'does not support volume expansion',
        (i) => [
          template('data0', 'allow-volume-expansion'),
          template('data1', 'disallow-volume-expansion', `${i + 2}Gi`),
        ],
      ],
    ];
    for (const [name, refusal, templates] of probes) {
      let answer = '';
      for (let i = 0; i < 300 && !answer.includes(refusal); i++) {
        answer = await updateTemplates(name, templates(i));
        if (!answer.includes(refusal)) await new Promise((r) => setTimeout(r, 100));
      }
      if (!answer.includes(refusal))
        throw new Error(`${name}: the policy did not take effect within 30 s (${answer})`);
    }
  }, 90_000);

  afterAll(async () => {
    await syncClaimTemplatePolicies(t.kc, false);
  });

  test('a resize on a class that cannot expand is refused, naming the template and class; on one that can, accepted', async () => {
    const refused =
      'spec.volumeClaimTemplates[data1].spec.resources.requests.storage: Forbidden: storage class disallow-volume-expansion does not support volume expansion';
    const answer = await updateTemplates('rolling', [
      template('data0', 'allow-volume-expansion'),
      template('data1', 'disallow-volume-expansion', '2Gi'),
    ]);
    expect(answer).toContain(refused);
    expect(answer).toContain("ValidatingAdmissionPolicy 'kruiseless-asts-claim-expansion'");
    // the same quantity spelled otherwise is no resize
    expect(
      await updateTemplates('rolling', [
        template('data0', 'allow-volume-expansion'),
        template('data1', 'disallow-volume-expansion', '1024Mi'),
      ]),
    ).toBe('accepted');
    expect(
      await updateTemplates('rolling', [
        template('data0', 'allow-volume-expansion', '3Gi'),
        template('data1', 'disallow-volume-expansion', '1024Mi'),
      ]),
    ).toBe('accepted');
  });

  test('adding, removing, renaming a template, or changing its class or access modes is refused', async () => {
    const current = [
      template('data0', 'allow-volume-expansion', '3Gi'),
      template('data1', 'disallow-volume-expansion'),
    ];
    expect(
      await updateTemplates('rolling', [...current, template('data2', 'allow-volume-expansion')]),
    ).toContain(
      'spec.volumeClaimTemplates: Invalid value: "array": volumeClaimTemplate can not be added or deleted when OnRollingUpdate',
    );
    expect(await updateTemplates('rolling', [current[0]])).toContain(
      'volumeClaimTemplate can not be added or deleted when OnRollingUpdate',
    );
    expect(
      await updateTemplates('rolling', [current[0], template('logs', 'disallow-volume-expansion')]),
    ).toContain(
      'spec.volumeClaimTemplates[logs].name: Forbidden: volumeClaimTemplate name can not be modified',
    );
    expect(
      await updateTemplates('rolling', [current[0], template('data1', 'allow-volume-expansion')]),
    ).toContain(
      'spec.volumeClaimTemplates[data1]: Invalid value: "object": volumeClaimTemplate can not be modified when OnRollingUpdate',
    );
    const manyModes = {
      ...current[1],
      spec: { ...(current[1].spec as Obj), accessModes: ['ReadWriteMany'] },
    };
    expect(await updateTemplates('rolling', [current[0], manyModes])).toContain(
      'spec.volumeClaimTemplates[data1]: Invalid value: "object": volumeClaimTemplate can not be modified when OnRollingUpdate',
    );
  });

  test('with volumeClaimUpdateStrategy OnDelete the rule does not apply', async () => {
    expect(
      await updateTemplates('ondelete', [
        template('data0', 'allow-volume-expansion'),
        template('data1', 'disallow-volume-expansion', '5Gi'),
        template('data2', 'standard'),
      ]),
    ).toBe('accepted');
  });

  test('with the gate off the policies are removed and the same resize is accepted', async () => {
    expect((await syncClaimTemplatePolicies(t.kc, false)).action).toBe('removed');
    // removing again finds nothing, and that is no error
    expect((await syncClaimTemplatePolicies(t.kc, false)).action).toBe('removed');
    let answer = '';
    for (let i = 0; i < 100 && answer !== 'accepted'; i++) {
      answer = await updateTemplates('rolling', [
        template('data0', 'allow-volume-expansion', '3Gi'),
        template('data1', 'disallow-volume-expansion', '7Gi'),
      ]);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(answer).toBe('accepted');
  });
});
