/**
 * The counting wrapper (lib/runtime/counting.ts), one generic implementation of the KubeClient: every call is
 * counted under `<method> <plural>[/<subresource>]` and passed on unchanged.
 */
import { describe, expect, test } from '@jest/globals';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { countingKube, kubeCallName, type CallCounts } from '../../../lib/runtime/counting.js';
import { RecordingKube } from '../controllers/cloneset/reconcile/support/recordingKube.js';
import { CLONESET_RESOURCE } from '../../../lib/controllers/cloneset/api/resource.js';

describe('countingKube', () => {
  test('counts each call by method and resource, subresources apart, and returns what the client returns', async () => {
    const inner = new RecordingKube([], () => new Date('2024-05-01T08:00:00Z'));
    const counts: CallCounts = { kube: {}, dynamo: {}, dynamoWatch: {} };
    const kube = countingKube(inner, counts);
    const ref = { namespace: 'ns', name: 'p' };
    const created = await kube.create(RESOURCES.pods, {
      metadata: { name: 'p', namespace: 'ns' },
      spec: { containers: [] },
    });
    expect(created.metadata.uid).toBe('uid-p');
    await kube.get(RESOURCES.pods, ref);
    await kube.list(RESOURCES.pods, { namespace: 'ns' });
    await kube.list(RESOURCES.controllerrevisions, { namespace: 'ns' });
    await kube.patch(RESOURCES.pods, ref, { type: 'strategic-merge', body: {} });
    await kube.patch(RESOURCES.pods, ref, { type: 'strategic-merge', body: {} }, { subresource: 'status' });
    await kube.recordEvent(RESOURCES.pods, created, { type: 'Normal', reason: 'R', message: 'm' });
    await kube.delete(RESOURCES.pods, ref, { uid: 'uid-p' });
    expect(counts.kube).toEqual({
      'create pods': 1,
      'get pods': 1,
      'list pods': 1,
      'list controllerrevisions': 1,
      'patch pods': 1,
      'patch pods/status': 1,
      'recordEvent pods': 1,
      'delete pods': 1,
    });
    expect(inner.pods.size).toBe(0);
  });

  test('the name of a status PUT of a CloneSet', () => {
    expect(kubeCallName('replace', CLONESET_RESOURCE, 'status')).toBe('replace clonesets/status');
  });
});
