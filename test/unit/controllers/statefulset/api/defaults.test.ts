import { applyDefaults } from '../../../../../lib/controllers/statefulset/api/defaults.js';
import type { StatefulSet } from '../../../../../lib/controllers/statefulset/api/types.js';

function bare(): StatefulSet {
  return {
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
    },
  };
}

describe('applyDefaults (OpenKruise SetDefaultsStatefulSet)', () => {
  test('a bare object gets every default the webhook stores', () => {
    const out = applyDefaults(bare());
    const { template, volumeClaimTemplates, ...rest } = out.spec;
    expect(rest).toEqual({
      selector: { matchLabels: { app: 'web' } },
      podManagementPolicy: 'OrderedReady',
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
      },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
    });
    expect(template.spec).toEqual({
      containers: [
        {
          name: 'c',
          image: 'nginx',
          imagePullPolicy: 'Always',
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
    });
    expect(volumeClaimTemplates).toEqual([
      { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] }, status: { phase: 'Pending' } },
    ]);
  });

  test('set fields are kept; OnDelete gets no rollingUpdate; the input is not modified', () => {
    const input = bare();
    input.spec.podManagementPolicy = 'Parallel';
    input.spec.updateStrategy = { type: 'OnDelete' };
    input.spec.replicas = 0;
    input.spec.persistentVolumeClaimRetentionPolicy = { whenScaled: 'Delete' };
    const before = structuredClone(input);
    const out = applyDefaults(input);
    expect(input).toEqual(before);
    expect(out.spec.podManagementPolicy).toBe('Parallel');
    expect(out.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(out.spec.replicas).toBe(0);
    expect(out.spec.persistentVolumeClaimRetentionPolicy).toEqual({
      whenScaled: 'Delete',
      whenDeleted: 'Retain',
    });
  });

  test('gates: AutoDeletePVC off leaves no retention policy, AutoResizePVC on defaults OnDelete, TemplateNoDefaults keeps the template', () => {
    const out = applyDefaults(bare(), {
      statefulSetAutoDeletePVC: false,
      statefulSetAutoResizePVC: true,
      templateNoDefaults: true,
    });
    expect(out.spec.persistentVolumeClaimRetentionPolicy).toBeUndefined();
    expect(out.spec.volumeClaimUpdateStrategy).toEqual({ type: 'OnDelete' });
    expect(out.spec.template).toEqual(bare().spec.template);
    expect(out.spec.volumeClaimTemplates).toEqual(bare().spec.volumeClaimTemplates);
  });

  test('defaulting twice gives the same object', () => {
    const once = applyDefaults(bare());
    expect(applyDefaults(once)).toEqual(once);
  });
});
