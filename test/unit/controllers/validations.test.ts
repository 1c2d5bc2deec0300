/**
 * lib/controllers/validations.ts through `/validate`'s exchange: each kind's validator refuses what OpenKruise's
 * validating webhook for it refuses, with the webhook's HTTP code and message, and allows a valid object.
 */
import { describe, expect, it } from '@jest/globals';
import { handleValidationReview } from '../../../lib/api/admission/validation.js';
import { admissionValidators, clusterValidationReads } from '../../../lib/controllers/validations.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import type { SidecarSetValidationReads } from '../../../lib/controllers/sidecarset/api/validating.js';
import type { SidecarSet } from '../../../lib/controllers/sidecarset/api/types.js';
import type { JsonObject, Pod } from '../../../lib/api/types.js';
import { convertCloneSet } from '../../../lib/controllers/cloneset/api/conversion.js';
import { reviewBody } from '../support/admissionReview.js';

const ownedBy = (uid: string) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'web',
  uid,
  controller: true,
});

const validators = admissionValidators();
const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
};
const answer = async (
  resource: string,
  version: string,
  operation: string,
  object: unknown,
  oldObject?: unknown,
  requestVersion = version,
  using = validators,
) => {
  const { statusCode, review } = await handleValidationReview(
    reviewBody({
      uid: 'u-1',
      resource: { group: 'apps.kruise.io', version, resource },
      requestResource: { group: 'apps.kruise.io', version: requestVersion, resource },
      operation,
      object,
      ...(oldObject ? { oldObject } : {}),
    }),
    using,
  );
  expect(statusCode).toBe(200);
  return review.response.allowed ? 'allowed' : review.response.status;
};
const meta = { name: 'web', namespace: 'ns' };

describe('the validators of /validate', () => {
  it('lists one per workload, under OpenKruise webhook names', () => {
    expect(validators.map((v) => [v.webhookName, v.resource, v.version, v.operations.join(',')])).toEqual([
      ['vcloneset.kb.io', 'clonesets', 'v1alpha1', 'CREATE,UPDATE'],
      ['vstatefulset.kb.io', 'statefulsets', 'v1beta1', 'CREATE,UPDATE'],
      ['vdaemonset.kb.io', 'daemonsets', 'v1beta1', 'CREATE,UPDATE'],
      ['vbroadcastjob.kb.io', 'broadcastjobs', 'v1beta1', 'CREATE,UPDATE'],
      ['vadvancedcronjob.kb.io', 'advancedcronjobs', 'v1beta1', 'CREATE,UPDATE'],
      ['vsidecarset.kb.io', 'sidecarsets', 'v1alpha1', 'CREATE,UPDATE'],
      ['vpodunavailablebudget.kb.io', 'podunavailablebudgets', 'v1beta1', 'CREATE,UPDATE'],
      ['vworkloadspread.kb.io', 'workloadspreads', 'v1beta1', 'CREATE,UPDATE'],
    ]);
  });

  it('CloneSet: a valid one allowed, negative replicas refused with 422, OnDelete only through v1beta1', async () => {
    const cs = (spec: Record<string, unknown>) => ({
      metadata: meta,
      spec: { selector: { matchLabels: { app: 'web' } }, template, ...spec },
    });
    await expect(answer('clonesets', 'v1alpha1', 'CREATE', cs({ replicas: 2 }))).resolves.toBe('allowed');
    await expect(answer('clonesets', 'v1alpha1', 'CREATE', cs({ replicas: -1 }))).resolves.toEqual({
      code: 422,
      message: 'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    });
    const onDelete = cs({ updateStrategy: { type: 'OnDelete' } });
    await expect(answer('clonesets', 'v1alpha1', 'CREATE', onDelete)).resolves.toMatchObject({ code: 422 });
    await expect(answer('clonesets', 'v1alpha1', 'CREATE', onDelete, undefined, 'v1beta1')).resolves.toBe(
      'allowed',
    );
  });

  it('CloneSet through v1beta1: converted back and checked with OpenKruise’s v1beta1 rules, paths and words', async () => {
    const beta = (updateStrategy: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'CloneSet',
      metadata: meta,
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template, updateStrategy, ...extra },
    });
    // the API server sends the webhook the object as Kruiseless's /convert made it, in v1alpha1
    const alpha = (o: Record<string, unknown>) => convertCloneSet(o as JsonObject, 'v1beta1', 'v1alpha1');
    const inPlaceOnly = beta({
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceOnly', partition: 0, maxUnavailable: 1 },
    });
    const withEnv = structuredClone(inPlaceOnly);
    (withEnv.spec.template.spec.containers[0] as Record<string, unknown>).env = [{ name: 'A', value: '1' }];
    // OpenKruise's v1beta1 rules have no InPlaceOnly images-only rule; its v1alpha1 ones refuse the same change
    await expect(
      answer('clonesets', 'v1alpha1', 'UPDATE', alpha(withEnv), alpha(inPlaceOnly), 'v1beta1'),
    ).resolves.toBe('allowed');
    await expect(
      answer('clonesets', 'v1alpha1', 'UPDATE', alpha(withEnv), alpha(inPlaceOnly), 'v1alpha1'),
    ).resolves.toMatchObject({ code: 422 });
    await expect(
      answer(
        'clonesets',
        'v1alpha1',
        'CREATE',
        alpha(beta({ type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'Sometimes' } })),
        undefined,
        'v1beta1',
      ),
    ).resolves.toEqual({
      code: 422,
      message:
        "spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: \"Sometimes\": must be 'ReCreate', 'InPlaceIfPossible' or 'InPlaceOnly'",
    });
    await expect(
      answer(
        'clonesets',
        'v1alpha1',
        'CREATE',
        alpha(beta({}, { minReadySeconds: 10, progressDeadlineSeconds: 5 })),
        undefined,
        'v1beta1',
      ),
    ).resolves.toBe('allowed');
  });

  it("CloneSet UPDATE through v1alpha1 of one written through v1beta1: the controller's podsToDelete truncation passes an old breach, any other edit is refused for it", async () => {
    // OnDelete and a progressDeadlineSeconds not above minReadySeconds, as OpenKruise's v1beta1 rules let through
    const stored = convertCloneSet(
      {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'CloneSet',
        metadata: meta,
        spec: {
          replicas: 2,
          minReadySeconds: 10,
          progressDeadlineSeconds: 5,
          selector: { matchLabels: { app: 'web' } },
          template,
          updateStrategy: { type: 'OnDelete' },
          scaleStrategy: { podsToDelete: ['web-a', 'web-b'] },
        },
      },
      'v1beta1',
      'v1alpha1',
    );
    const edited = (edit: (spec: JsonObject, metadata: JsonObject) => void): JsonObject => {
      const o = structuredClone(stored);
      edit(o.spec as JsonObject, o.metadata as JsonObject);
      return o;
    };
    const podsToDelete = (names: string[] | undefined) => (spec: JsonObject) => {
      const strategy = spec.scaleStrategy as JsonObject;
      if (names) strategy.podsToDelete = names;
      else delete strategy.podsToDelete; // the merge patch's null removes the list
    };
    // Kruiseless's controller truncates podsToDelete through v1alpha1 (OpenKruise's writes through v1beta1)
    for (const names of [['web-b'], undefined])
      await expect(
        answer('clonesets', 'v1alpha1', 'UPDATE', edited(podsToDelete(names)), stored),
      ).resolves.toBe('allowed');
    // a user's v1alpha1 edit is refused for the old breach, as OpenKruise's webhook refuses it
    const oldBreach = {
      code: 422,
      message: expect.stringContaining('spec.updateStrategy.type') as unknown,
    };
    const labelled = edited((_spec, metadata) => {
      metadata.labels = { team: 'a' };
    });
    await expect(answer('clonesets', 'v1alpha1', 'UPDATE', labelled, stored)).resolves.toMatchObject(
      oldBreach,
    );
    const grown = edited(podsToDelete(['web-a', 'web-b', 'web-c']));
    await expect(answer('clonesets', 'v1alpha1', 'UPDATE', grown, stored)).resolves.toMatchObject(oldBreach);
    const swapped = edited(podsToDelete(['web-c']));
    await expect(answer('clonesets', 'v1alpha1', 'UPDATE', swapped, stored)).resolves.toMatchObject(
      oldBreach,
    );
    const truncatedAndScaled = edited((spec) => {
      podsToDelete(['web-a'])(spec);
      spec.replicas = 3;
    });
    await expect(
      answer('clonesets', 'v1alpha1', 'UPDATE', truncatedAndScaled, stored),
    ).resolves.toMatchObject(oldBreach);
    // a new breach in the truncation's write is still refused
    const broken = edited((spec) => {
      podsToDelete(['web-a'])(spec);
      spec.replicas = -1;
    });
    await expect(answer('clonesets', 'v1alpha1', 'UPDATE', broken, stored)).resolves.toMatchObject({
      code: 422,
      message: expect.stringContaining('spec.replicas: Invalid value: -1') as unknown,
    });
    // a create through v1alpha1 is not ratcheted
    await expect(answer('clonesets', 'v1alpha1', 'CREATE', stored)).resolves.toMatchObject({ code: 422 });
  });

  it('CloneSet UPDATE: the selector is fixed', async () => {
    const old = { metadata: meta, spec: { selector: { matchLabels: { app: 'web' } }, template } };
    const changed = {
      metadata: meta,
      spec: {
        selector: { matchLabels: { app: 'web', tier: 'x' } },
        template: { ...template, metadata: { labels: { app: 'web', tier: 'x' } } },
      },
    };
    const verdict = await answer('clonesets', 'v1alpha1', 'UPDATE', changed, old);
    expect(verdict).toMatchObject({ code: 422 });
    expect((verdict as { message: string }).message).toContain('spec: Forbidden: updates to cloneset spec');
  });

  it('Advanced StatefulSet: InPlaceOnly changes beyond images refused with the bare sentence', async () => {
    const sts = (env: string | undefined) => ({
      metadata: meta,
      spec: {
        selector: { matchLabels: { app: 'web' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } },
        template: {
          ...template,
          spec: {
            readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
            containers: [
              { name: 'main', image: 'nginx:1', ...(env ? { env: [{ name: 'A', value: env }] } : {}) },
            ],
          },
        },
      },
    });
    await expect(answer('statefulsets', 'v1beta1', 'CREATE', sts(undefined))).resolves.toBe('allowed');
    await expect(answer('statefulsets', 'v1beta1', 'UPDATE', sts('1'), sts(undefined))).resolves.toEqual({
      code: 422,
      message:
        'invalid template modified with InPlaceOnly strategy: add /containers/0/env, currently only image update is allowed for InPlaceOnly',
    });
    await expect(
      answer('statefulsets', 'v1beta1', 'CREATE', {
        metadata: meta,
        spec: { ...sts(undefined).spec, replicas: -2 },
      }),
    ).resolves.toMatchObject({
      code: 422,
      message: expect.stringContaining('spec.replicas: Invalid value: -2'),
    });
  });

  it('Advanced DaemonSet: CREATE refused with 500 as the handler answers, a selector change with 422', async () => {
    const ds = (spec: Record<string, unknown> = {}) => ({
      metadata: meta,
      spec: { selector: { matchLabels: { app: 'web' } }, template, ...spec },
    });
    await expect(answer('daemonsets', 'v1beta1', 'CREATE', ds())).resolves.toBe('allowed');
    await expect(
      answer('daemonsets', 'v1beta1', 'CREATE', ds({ updateStrategy: { type: 'Sideways' } })),
    ).resolves.toMatchObject({ code: 500 });
    const moved = ds({
      selector: { matchLabels: { app: 'other' } },
      template: { ...template, metadata: { labels: { app: 'other' } } },
    });
    await expect(answer('daemonsets', 'v1beta1', 'UPDATE', moved, ds())).resolves.toEqual({
      code: 422,
      message:
        "spec: Forbidden: updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', and 'revisionHistoryLimit' are forbidden",
    });
    await expect(answer('daemonsets', 'v1beta1', 'UPDATE', ds({ minReadySeconds: 5 }), ds())).resolves.toBe(
      'allowed',
    );
  });

  it('BroadcastJob: the reserved pod labels refused with 500', async () => {
    const job = (labels: Record<string, string>) => ({
      metadata: meta,
      spec: { template: { metadata: { labels }, spec: { ...template.spec, restartPolicy: 'Never' } } },
    });
    await expect(answer('broadcastjobs', 'v1beta1', 'CREATE', job({ app: 'x' }))).resolves.toBe('allowed');
    await expect(
      answer('broadcastjobs', 'v1beta1', 'CREATE', job({ 'broadcastjob-name': 'x' })),
    ).resolves.toMatchObject({ code: 500 });
  });

  it('AdvancedCronJob: a four-field schedule refused on CREATE, a template change on UPDATE', async () => {
    const acj = (schedule: string, image = 'busybox') => ({
      metadata: { name: 'hello', namespace: 'ns' },
      spec: {
        schedule,
        template: {
          jobTemplate: {
            spec: {
              template: { spec: { containers: [{ name: 'box', image }], restartPolicy: 'Never' } },
            },
          },
        },
      },
    });
    await expect(answer('advancedcronjobs', 'v1beta1', 'CREATE', acj('*/1 * * * *'))).resolves.toBe(
      'allowed',
    );
    await expect(answer('advancedcronjobs', 'v1beta1', 'CREATE', acj('*/1 * * *'))).resolves.toEqual({
      code: 422,
      message: 'spec.schedule: Invalid value: "*/1 * * *": expected exactly 5 fields, found 4: [*/1 * * *]',
    });
    await expect(
      answer('advancedcronjobs', 'v1beta1', 'UPDATE', acj('*/2 * * * *'), acj('*/1 * * * *')),
    ).resolves.toBe('allowed');
    await expect(
      answer('advancedcronjobs', 'v1beta1', 'UPDATE', acj('*/1 * * * *', 'busybox:1.36'), acj('*/1 * * * *')),
    ).resolves.toEqual({
      code: 422,
      message:
        "spec: Forbidden: updates to advancedcronjob spec for fields other than 'imageListPullJobTemplate', 'schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'timeZone' and 'paused' are forbidden",
    });
  });

  it('SidecarSet: a container name another SidecarSet of an overlapping selector has, refused with 500', async () => {
    const sidecarSet = (name: string, container: string): SidecarSet => ({
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        containers: [{ name: container, image: 'fluentd:1' }],
      },
    });
    const calls: string[] = [];
    const reads: SidecarSetValidationReads = {
      sidecarSets: () => (calls.push('sidecarSets'), Promise.resolve([sidecarSet('first', 'logger')])),
      revisions: () => (calls.push('revisions'), Promise.resolve([])),
      patchMetadataWhitelist: () => (calls.push('whitelist'), Promise.resolve(null)),
    };
    const withReads = admissionValidators({}, { sidecarSet: reads });
    await expect(
      answer(
        'sidecarsets',
        'v1alpha1',
        'CREATE',
        sidecarSet('second', 'logger'),
        undefined,
        'v1alpha1',
        withReads,
      ),
    ).resolves.toEqual({
      code: 500,
      message: 'spec.containers: Invalid value: "logger": container logger already exist in first',
    });
    // neither a pinned revision nor patchPodMetadata: only the other SidecarSets are read
    expect(calls).toEqual(['sidecarSets']);
    await expect(
      answer(
        'sidecarsets',
        'v1alpha1',
        'CREATE',
        sidecarSet('second', 'proxy'),
        undefined,
        'v1alpha1',
        withReads,
      ),
    ).resolves.toBe('allowed');
    // without the cluster reads (the admission function) the conflict rule is skipped, the others still apply
    await expect(answer('sidecarsets', 'v1alpha1', 'CREATE', sidecarSet('second', 'logger'))).resolves.toBe(
      'allowed',
    );
    await expect(
      answer('sidecarsets', 'v1alpha1', 'CREATE', { metadata: { name: 'bad' }, spec: { selector: {} } }),
    ).resolves.toMatchObject({ code: 500 });
  });

  it('SidecarSet: the revisions are read for a pinned revision, the whitelist for patchPodMetadata, each only then', async () => {
    const calls: string[] = [];
    const reads: SidecarSetValidationReads = {
      sidecarSets: () => (calls.push('sidecarSets'), Promise.resolve([])),
      revisions: () => (calls.push('revisions'), Promise.resolve([])),
      patchMetadataWhitelist: () => (calls.push('whitelist'), Promise.resolve(null)),
    };
    const withReads = admissionValidators({}, { sidecarSet: reads });
    const base = {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'logger', image: 'fluentd:1' }],
    };
    const create = (spec: object): Promise<unknown> =>
      answer(
        'sidecarsets',
        'v1alpha1',
        'CREATE',
        { metadata: { name: 's' }, spec },
        undefined,
        'v1alpha1',
        withReads,
      );
    await expect(
      create({ ...base, injectionStrategy: { revision: { revisionName: 's-abc', policy: 'Always' } } }),
    ).resolves.toEqual({
      code: 500,
      message:
        'revision: Invalid value: "null": Cannot find specific ControllerRevision, err: controllerrevisions.apps "s-abc" not found',
    });
    expect(calls).toEqual(['sidecarSets', 'revisions']);
    calls.length = 0;
    await expect(
      create({
        ...base,
        patchPodMetadata: [{ annotations: { 'oom-score': '1' }, patchPolicy: 'Retain' }],
      }),
    ).resolves.toEqual({
      code: 500,
      message: 'spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found',
    });
    expect(calls).toEqual(['sidecarSets', 'whitelist']);
  });

  it("clusterValidationReads: every validator's reads over one client, the whitelist's ConfigMap among them", async () => {
    const calls: string[] = [];
    const kube = {
      list: (r: { plural: string }, o: { namespace?: string } = {}) => (
        calls.push(`list ${r.plural} ${o.namespace ?? '(all)'}`),
        Promise.resolve({ items: [], resourceVersion: '1' })
      ),
      get: (r: { plural: string }, ref: { namespace?: string; name: string }) => (
        calls.push(`get ${r.plural} ${ref.namespace ?? ''}/${ref.name}`),
        Promise.resolve(undefined)
      ),
    } as unknown as Pick<KubeClient, 'list' | 'get'>;
    const create = () =>
      answer(
        'sidecarsets',
        'v1alpha1',
        'CREATE',
        {
          metadata: { name: 's' },
          spec: {
            selector: { matchLabels: { app: 'web' } },
            containers: [{ name: 'logger', image: 'fluentd:1' }],
            patchPodMetadata: [{ annotations: { 'oom-score': '1' }, patchPolicy: 'Retain' }],
          },
        },
        undefined,
        'v1alpha1',
        admissionValidators({}, clusterValidationReads(kube)),
      );
    await expect(create()).resolves.toEqual({
      code: 500,
      message: 'spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found',
    });
    expect(calls).toEqual(['list sidecarsets (all)', 'get configmaps kruise-system/kruise-configuration']);
  });

  it('SidecarSet: a read that fails is the webhook failing (500), not an allow', async () => {
    const failing: SidecarSetValidationReads = {
      sidecarSets: () => Promise.reject(new Error('connection refused')),
      revisions: () => Promise.resolve([]),
      patchMetadataWhitelist: () => Promise.resolve(null),
    };
    await expect(
      answer(
        'sidecarsets',
        'v1alpha1',
        'CREATE',
        {
          metadata: { name: 's' },
          spec: { selector: { matchLabels: { a: 'b' } }, containers: [{ name: 'c', image: 'i' }] },
        },
        undefined,
        'v1alpha1',
        admissionValidators({}, { sidecarSet: failing }),
      ),
    ).resolves.toEqual({ code: 500, message: 'validation failed: connection refused' });
  });

  it("CloneSet podsToDelete, with the pod reads: a missing, a terminating and another's pod refused, in name order", async () => {
    const pods: Record<string, Pod> = {
      mine: { metadata: { name: 'mine', ownerReferences: [ownedBy('cs-uid')] } } as Pod,
      theirs: { metadata: { name: 'theirs', ownerReferences: [ownedBy('other-uid')] } } as Pod,
      going: {
        metadata: {
          name: 'going',
          deletionTimestamp: '2026-12-04T00:00:00Z',
          ownerReferences: [ownedBy('cs-uid')],
        },
      } as Pod,
    };
    const asked: string[] = [];
    const withPods = admissionValidators(
      {},
      {
        cloneSet: {
          getPod: (namespace, name) => (asked.push(`${namespace}/${name}`), Promise.resolve(pods[name])),
        },
      },
    );
    const cs = (podsToDelete: string[], maxSurge?: string) => ({
      metadata: { ...meta, uid: 'cs-uid' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template,
        scaleStrategy: { podsToDelete },
        ...(maxSurge ? { updateStrategy: { maxSurge } } : {}),
      },
    });
    const verdict = await answer(
      'clonesets',
      'v1alpha1',
      'UPDATE',
      cs(['theirs', 'ghost', 'mine', 'going', 'kept'], '5'),
      cs(['kept']),
      'v1alpha1',
      withPods,
    );
    expect(asked).toEqual(['ns/ghost', 'ns/going', 'ns/mine', 'ns/theirs']);
    expect((verdict as { message: string }).message.split('spec.').map((m) => m.trim())).toEqual([
      '[',
      'scaleStrategy.podsToDelete: Invalid value: "ghost": find pod ghost failed: Pod "ghost" not found,',
      'scaleStrategy.podsToDelete: Invalid value: "going": find pod going already terminating,',
      'scaleStrategy.podsToDelete: Invalid value: "theirs": find pod theirs owner is not this CloneSet,',
      expect.stringMatching(/^updateStrategy\.maxSurge: /),
    ]);
    await expect(
      answer('clonesets', 'v1alpha1', 'UPDATE', cs(['mine']), cs([]), 'v1alpha1', withPods),
    ).resolves.toBe('allowed');
    // duplicates are refused by the pure rule alone, with no read
    asked.length = 0;
    await expect(
      answer('clonesets', 'v1alpha1', 'UPDATE', cs(['ghost', 'ghost']), cs([]), 'v1alpha1', withPods),
    ).resolves.toEqual({
      code: 422,
      message: 'spec.scaleStrategy.podsToDelete: Invalid value: ["ghost","ghost"]: duplicated items [ghost]',
    });
    expect(asked).toEqual([]);
    // without the reads (the admission function) the rule is skipped
    await expect(answer('clonesets', 'v1alpha1', 'UPDATE', cs(['ghost']), cs([]))).resolves.toBe('allowed');
  });
});
