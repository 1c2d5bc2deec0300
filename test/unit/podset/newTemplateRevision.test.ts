import { newTemplateRevision, templateRevisionData } from '../../../lib/podset/revision/templateData.js';
import { goJson } from '../../../lib/podset/revision/goJson.js';
import { hashRevision } from '../../../lib/podset/revision/history.js';

const owner = {
  metadata: { name: 'web', namespace: 'ns', annotations: { team: 'a' } },
  spec: {
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.19' }] },
    },
  },
};
const ref = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  name: 'web',
  uid: 'u1',
  controller: true,
};

describe('newTemplateRevision: the ControllerRevision of a pod template, shared by CloneSet and Advanced StatefulSet', () => {
  test('name, labels (+ controller.kubernetes.io/hash), annotations, owner, data and revision number', () => {
    const hash = hashRevision(goJson(templateRevisionData(owner.spec.template)), 2);
    const r = newTemplateRevision(owner, ref, 3, 2, { extra: 'x' });
    expect(r).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `web-${hash}`,
        namespace: 'ns',
        labels: { app: 'web', 'controller.kubernetes.io/hash': hash },
        annotations: { team: 'a', extra: 'x' },
        ownerReferences: [ref],
      },
      data: templateRevisionData(owner.spec.template),
      revision: 3,
    });
  });
  test('the collision count changes the hash; the owner is not modified', () => {
    const before = structuredClone(owner);
    expect(newTemplateRevision(owner, ref, 1, 0).metadata.name).not.toBe(
      newTemplateRevision(owner, ref, 1, 1).metadata.name,
    );
    expect(owner).toEqual(before);
  });
});
