import { applyDefaults } from '../../../../../lib/controllers/cloneset/api/defaults.js';
import type { CloneSet } from '../../../../../lib/api/types.js';

const bare = (): CloneSet => ({
  metadata: { name: 'demo' },
  spec: {
    selector: { matchLabels: { app: 'demo' } },
    template: {
      metadata: { labels: { app: 'demo' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    },
  },
});

describe('applyDefaults (docs/behaviour/cloneset.md#defaults)', () => {
  test('an empty strategy gets replicas 1, history 10, ReCreate, partition 0, maxUnavailable 20%, maxSurge 0', () => {
    const input = bare();
    const out = applyDefaults(input);
    expect(out.spec).toEqual({
      ...input.spec,
      template: {
        metadata: { labels: { app: 'demo' } },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'nginx',
              imagePullPolicy: 'Always',
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              resources: {},
            },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
          schedulerName: 'default-scheduler',
        },
      },
      replicas: 1,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 },
    });
    expect(input.spec.updateStrategy).toBeUndefined();
    expect(out).not.toBe(input);
  });

  test.each(['InPlaceIfPossible', 'InPlaceOnly'] as const)(
    '%s gets an empty inPlaceUpdateStrategy',
    (type) => {
      const cs = bare();
      cs.spec.updateStrategy = { type };
      expect(applyDefaults(cs).spec.updateStrategy?.inPlaceUpdateStrategy).toEqual({});
    },
  );

  test('set values are kept; with templateNoDefaults the template is not defaulted', () => {
    const cs = bare();
    cs.spec.replicas = 0;
    cs.spec.revisionHistoryLimit = 3;
    cs.spec.updateStrategy = {
      type: 'InPlaceIfPossible',
      partition: '50%',
      maxUnavailable: 0,
      maxSurge: '10%',
      inPlaceUpdateStrategy: { gracePeriodSeconds: 5 },
    };
    const out = applyDefaults(cs, { templateNoDefaults: true });
    expect(out.spec).toEqual(cs.spec);
    expect(out.spec.template.spec.restartPolicy).toBeUndefined();
    expect(applyDefaults(cs).spec.template.spec.restartPolicy).toBe('Always');
  });
});
