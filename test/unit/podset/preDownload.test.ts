/**
 * The kind-neutral parts of image pre-download (lib/podset/predownload,
 * docs/behaviour/cloneset.md#image-pre-download): the workload's pre-download annotations, the images a revision
 * change brings, and the ImagePullJob OpenKruise's `CreateJobForWorkload` builds.
 */
import type { PodTemplateSpec } from '../../../lib/api/types.js';
import { changedImages, imagePullJobForWorkload } from '../../../lib/podset/predownload/imagePullJobs.js';
import { preDownloadSettings } from '../../../lib/podset/predownload/settings.js';
import { revision } from '../support/fixtures.js';

function template(image: string, sidecar = 'busybox:1'): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'web' }, annotations: { note: 'x' } },
    spec: {
      containers: [
        { name: 'main', image },
        { name: 'side', image: sidecar },
      ],
      imagePullSecrets: [{ name: 'regcred' }],
    },
  };
}

describe('annotations and image diff', () => {
  const settings: [Record<string, string>, ReturnType<typeof preDownloadSettings>][] = [
    [{}, { parallelism: 1, timeoutSeconds: 300, minUpdatedReadyPods: 0 }],
    [
      {
        'apps.kruise.io/image-predownload-parallelism': '50%',
        'apps.kruise.io/image-predownload-timeout-seconds': 'ten',
        'apps.kruise.io/image-predownload-min-updated-ready-pods': '3',
      },
      { parallelism: '50%', timeoutSeconds: 300, minUpdatedReadyPods: 3 },
    ],
    [
      { 'apps.kruise.io/image-predownload-parallelism': '' },
      { parallelism: 1, timeoutSeconds: 300, minUpdatedReadyPods: 0 },
    ],
  ];
  test.each(settings)('%j → %j', (annotations, expected) => {
    expect(preDownloadSettings({ metadata: { name: 'web', annotations } })).toEqual(expected);
  });

  test('a changed image and a new container are listed in the update template order; an unchanged one is not', () => {
    const current = revision('web-1', template('nginx:1.18'), 1);
    const next = template('nginx:1.19');
    next.spec.containers.unshift({ name: 'init-like', image: 'alpine:3' });
    expect(changedImages(current, revision('web-2', next, 2))).toEqual([
      ['init-like', 'alpine:3'],
      ['main', 'nginx:1.19'],
    ]);
  });
});

describe('imagePullJobForWorkload (OpenKruise CreateJobForWorkload)', () => {
  const owner = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    name: 'web',
    uid: 'uid-web',
    controller: true,
    blockOwnerDeletion: true,
  };
  const job = {
    namespace: 'ns',
    name: 'web-2-main',
    image: 'nginx:1.19',
    controllerRef: owner,
    labels: { app: 'web' },
    annotations: { note: 'x' },
    podSelector: { matchLabels: { app: 'web' } },
    pullSecrets: ['regcred'],
    settings: { parallelism: '50%', timeoutSeconds: 120, minUpdatedReadyPods: 0 },
  };

  test('a job controlled by the workload, pulling on its pods with the settings, one retry, kept 600 s', () => {
    expect(imagePullJobForWorkload(job)).toEqual({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImagePullJob',
      metadata: { namespace: 'ns', name: 'web-2-main', ownerReferences: [owner], labels: { app: 'web' } },
      spec: {
        image: 'nginx:1.19',
        pullSecrets: ['regcred'],
        podSelector: { matchLabels: { app: 'web' } },
        parallelism: '50%',
        pullPolicy: { backoffLimit: 1, timeoutSeconds: 120 },
        completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
        sandboxConfig: { annotations: { note: 'x' }, labels: { app: 'web' } },
        imagePullPolicy: 'IfNotPresent',
      },
    });
  });

  test('no pull secrets and no sandbox annotations when there are none; the inputs are not shared', () => {
    const built = imagePullJobForWorkload({ ...job, annotations: {}, pullSecrets: [] });
    expect(built.spec.pullSecrets).toBeUndefined();
    expect(built.spec.sandboxConfig).toEqual({ labels: { app: 'web' } });
    expect(built.metadata.labels).not.toBe(job.labels);
    expect(built.spec.podSelector).not.toBe(job.podSelector);
  });
});
