import jsonpatch from 'fast-json-patch';
import type { MutationAnswer } from '../../../../lib/api/admission/mutation.js';
import type { ControllerRevision, JsonObject, Pod } from '../../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../../lib/controllers/sidecarset/api/mutation.js';
import type { SidecarSet } from '../../../../lib/controllers/sidecarset/api/types.js';
import { answerPodMutationReview, type PodMutationStep } from '../../../../lib/api/admission/podMutation.js';
import {
  answerPodAdmission,
  sidecarSetPodSteps,
  type PodInjectionReads,
} from '../../../../lib/controllers/sidecarset/podWebhook.js';
import { parseHashAnnotation } from '../../../../lib/controllers/sidecarset/plan/annotations.js';
import { newSidecarSetRevision } from '../../../../lib/controllers/sidecarset/plan/revision.js';
import {
  SIDECARSET_SETTINGS,
  type SidecarSetSettings,
} from '../../../../lib/controllers/sidecarset/settings.js';
import { reviewBody } from '../../support/admissionReview.js';

const NOW = new Date('2026-01-02T03:04:05Z');
const log: SidecarSet = mutateSidecarSet({
  metadata: { name: 'log' },
  spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image: 'fluentd:1' }] },
});

const reads = (
  sets: SidecarSet[] = [log],
  fail?: Error,
  revisions: ControllerRevision[] = [],
  revisionReads: string[] = [],
): PodInjectionReads => ({
  sidecarSets: () => (fail ? Promise.reject(fail) : Promise.resolve(sets)),
  namespaceLabels: (name) => Promise.resolve({ 'kubernetes.io/metadata.name': name }),
  revision: (name) => {
    revisionReads.push(`get ${name}`);
    return Promise.resolve(revisions.find((r) => r.metadata.name === name));
  },
  customVersionRevisions: (sidecarSet, version) => {
    revisionReads.push(`list ${sidecarSet} ${version}`);
    return Promise.resolve(
      revisions.filter(
        (r) =>
          r.metadata.labels?.['kruise.io/sidecarset-name'] === sidecarSet &&
          r.metadata.labels['apps.kruise.io/sidecarset-custom-version'] === version,
      ),
    );
  },
});

const pod = (): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { generateName: 'web-', labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
});

const review = (request: Record<string, unknown>): string =>
  reviewBody({
    uid: 'u1',
    resource: { group: '', version: 'v1', resource: 'pods' },
    operation: 'CREATE',
    namespace: 'ns1',
    ...request,
  });

const patched = (object: unknown, answer: MutationAnswer): JsonObject => {
  const ops = JSON.parse(
    Buffer.from(answer.review.response.patch ?? 'W10=', 'base64').toString(),
  ) as jsonpatch.Operation[];
  return jsonpatch.applyPatch(structuredClone(object), ops).newDocument as JsonObject;
};

describe('/mutate-pod (OpenKruise mpod: pods CREATE)', () => {
  it('answers a pod CREATE with the patch that injects the sidecar', async () => {
    const answer = await answerPodAdmission(review({ object: pod() }), reads(), NOW);
    expect(answer.statusCode).toBe(200);
    expect(answer.review.response).toMatchObject({ uid: 'u1', allowed: true, patchType: 'JSONPatch' });
    const stored = patched(pod(), answer) as unknown as Pod;
    expect(stored.spec.containers.map((c) => c.name)).toEqual(['logger', 'main']);
    expect(stored.metadata.namespace).toBeUndefined();
    expect(stored.metadata.annotations?.['kruise.io/sidecarset-injected-list']).toBe('log');
  });

  it('allows unchanged what it does not handle: no match, an UPDATE, another resource, a subresource', async () => {
    const cases = [
      review({ object: { ...pod(), metadata: { labels: { app: 'db' } } } }),
      review({ object: pod(), operation: 'UPDATE', oldObject: pod() }),
      review({ object: pod(), resource: { group: 'apps', version: 'v1', resource: 'deployments' } }),
      review({ object: pod(), subResource: 'status' }),
    ];
    for (const body of cases) {
      const answer = await answerPodAdmission(body, reads(), NOW);
      expect(answer).toEqual({
        statusCode: 200,
        review: {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: 'u1', allowed: true },
        },
      });
    }
  });

  it('bad bodies get a 400 refusal naming the problem, never a throw', async () => {
    expect((await answerPodAdmission('{', reads())).statusCode).toBe(400);
    const notReview = await answerPodAdmission('{"kind":"Pod"}', reads());
    expect(notReview.statusCode).toBe(400);
    expect(notReview.review.response.status?.message).toMatch(/not an AdmissionReview v1/);
    const notPod = await answerPodAdmission(review({ object: { metadata: {}, spec: {} } }), reads());
    expect(notPod.statusCode).toBe(200);
    expect(notPod.review.response).toEqual({
      uid: 'u1',
      allowed: false,
      status: {
        code: 400,
        message: 'the object is not a Pod: metadata, spec and spec.containers are required',
      },
    });
  });

  it('refuses the pod (500) when the SidecarSets cannot be read, as OpenKruise errors', async () => {
    const answer = await answerPodAdmission(review({ object: pod() }), reads([], new Error('boom')), NOW);
    expect(answer.review.response).toEqual({
      uid: 'u1',
      allowed: false,
      status: { code: 500, message: 'sidecar injection could not read SidecarSets or namespace ns1: boom' },
    });
  });

  it('refuses the pod (500) for a SidecarSet with an invalid selector', async () => {
    const bad = mutateSidecarSet({
      metadata: { name: 'bad' },
      spec: {
        selector: { matchExpressions: [{ key: 'app', operator: 'Nope' }] },
        containers: [{ name: 'x', image: 'x' }],
      },
    });
    const answer = await answerPodAdmission(review({ object: pod() }), reads([bad]), NOW);
    expect(answer.review.response.allowed).toBe(false);
    expect(answer.review.response.status?.code).toBe(500);
    expect(answer.review.response.status?.message).toMatch(
      /^sidecar injection: SidecarSet bad spec.selector/,
    );
  });

  it('refuses the pod (500) with OpenKruise’s own message when a resources policy matches no container', async () => {
    const policy = mutateSidecarSet({
      metadata: { name: 'sized' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        containers: [
          {
            name: 'proxy',
            image: 'envoy:1',
            resourcesPolicy: {
              targetContainersMode: 'sum',
              targetContainersNameRegex: '^nope$',
              resourcesExpr: { limits: { cpu: 'cpu*50%' } },
            },
          },
        ],
      },
    });
    const answer = await answerPodAdmission(review({ object: pod() }), reads([policy]), NOW);
    expect(answer.review.response).toEqual({
      uid: 'u1',
      allowed: false,
      status: { code: 500, message: 'no containers match the regex pattern "^nope$"' },
    });
  });
});

describe('/mutate-pod with injectionStrategy.revision (getSuitableRevisionSidecarSet, CREATE)', () => {
  const at = (image: string, extra: Partial<SidecarSet['spec']> = {}, labels?: Record<string, string>) =>
    mutateSidecarSet({
      metadata: { name: 'log', uid: 'uid-log', ...(labels ? { labels } : {}) },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        containers: [{ name: 'logger', image }],
        ...extra,
      },
    });
  const revisionAt = (image: string, n: number, labels?: Record<string, string>): ControllerRevision => {
    const r = newSidecarSetRevision(at(image, {}, labels), n, 0);
    return { ...r, metadata: { ...r.metadata, creationTimestamp: `2026-01-01T00:0${n}:00Z` } };
  };
  const V1 = revisionAt('fluentd:1', 1);
  const V2 = revisionAt('fluentd:2', 2);
  const latest = (extra: Partial<SidecarSet['spec']>): SidecarSet => ({
    ...at('fluentd:3', extra),
    status: { latestRevision: 'log-latest' },
  });
  const inject = async (s: SidecarSet, revisions: ControllerRevision[], random = 0.5) => {
    const calls: string[] = [];
    const answer = await answerPodAdmission(
      review({ object: pod() }),
      reads([s], undefined, revisions, calls),
      NOW,
      () => random,
    );
    const stored = patched(pod(), answer) as unknown as Pod;
    const entry = parseHashAnnotation(
      'kruise.io/sidecarset-hash',
      stored.metadata.annotations?.['kruise.io/sidecarset-hash'],
    ).get('log');
    return { answer, calls, image: stored.spec.containers[0]?.image, entry };
  };

  it('revisionName: the revision’s containers, its hash and its name as controllerRevision', async () => {
    const r = await inject(latest({ injectionStrategy: { revision: { revisionName: V1.metadata.name } } }), [
      V1,
      V2,
    ]);
    expect(r.calls).toEqual(['get log-9c7dddd9c']);
    expect(r.image).toBe('fluentd:1');
    expect(r.entry).toMatchObject({
      hash: at('fluentd:1').metadata.annotations?.['kruise.io/sidecarset-hash'],
      controllerRevision: 'log-9c7dddd9c',
    });
  });

  it('customVersion: the newest revision labelled with it', async () => {
    const stable = { 'apps.kruise.io/sidecarset-custom-version': 'stable' };
    const s1 = revisionAt('fluentd:1', 1, stable);
    const s2 = revisionAt('fluentd:2', 2, stable);
    const r = await inject(latest({ injectionStrategy: { revision: { customVersion: 'stable' } } }), [
      s2,
      s1,
    ]);
    expect(r.calls).toEqual(['list log stable']);
    expect(r.image).toBe('fluentd:2');
    expect(r.entry?.controllerRevision).toBe('log-5b7b58d5bb');
  });

  it('Partial: a pod the update selector does not match gets the pinned revision; else the partition decides', async () => {
    const pin = { revisionName: V1.metadata.name ?? '', policy: 'Partial' };
    const unselected = await inject(
      latest({
        injectionStrategy: { revision: pin },
        updateStrategy: { selector: { matchLabels: { canary: 'y' } } },
      }),
      [V1],
    );
    expect(unselected.image).toBe('fluentd:1');
    const byInt = await inject(
      latest({ injectionStrategy: { revision: pin }, updateStrategy: { partition: 2 } }),
      [V1],
    );
    expect([byInt.image, byInt.entry?.controllerRevision]).toEqual(['fluentd:3', 'log-latest']);
    const percent = latest({ injectionStrategy: { revision: pin }, updateStrategy: { partition: '40%' } });
    expect((await inject(percent, [V1], 0.4)).image).toBe('fluentd:1');
    expect((await inject(percent, [V1], 0.41)).image).toBe('fluentd:3');
    const paused = latest({
      injectionStrategy: { revision: pin },
      updateStrategy: { partition: 2, paused: true },
    });
    expect((await inject(paused, [V1])).image).toBe('fluentd:1');
  });

  it('a pinned revision that does not exist refuses the pod (500), as OpenKruise’s NotFound', async () => {
    const r = await inject(latest({ injectionStrategy: { revision: { revisionName: 'log-gone' } } }), []);
    expect(r.answer.review.response).toEqual({
      uid: 'u1',
      allowed: false,
      status: { code: 500, message: 'sidecar injection: controllerrevisions.apps "log-gone" not found' },
    });
  });

  it('a pinned SidecarSet the pod does not match reads no revision', async () => {
    const other = {
      ...latest({ injectionStrategy: { revision: { revisionName: 'log-gone' } } }),
      spec: { ...latest({}).spec, selector: { matchLabels: { app: 'db' } } },
    };
    const calls: string[] = [];
    const answer = await answerPodAdmission(
      review({ object: pod() }),
      reads([other], undefined, [], calls),
      NOW,
    );
    expect(calls).toEqual([]);
    expect(answer.review.response).toEqual({ uid: 'u1', allowed: true });
  });
});

describe("sidecarSetPodSteps: the injection's reads started early, per request", () => {
  /** Reads that log when each starts and finishes; every read settles only when `release()` is called. */
  function gatedReads(fail?: Error) {
    const events: string[] = [];
    const gates: (() => void)[] = [];
    const gated = <T>(name: string, value: () => Promise<T>): Promise<T> => {
      events.push(`start ${name}`);
      return new Promise<void>((r) => gates.push(r)).then(() => {
        events.push(`end ${name}`);
        return value();
      });
    };
    const r: PodInjectionReads = {
      ...reads(),
      sidecarSets: () => gated('sidecarsets', () => (fail ? Promise.reject(fail) : Promise.resolve([log]))),
      namespaceLabels: (name) => gated(`namespace ${name}`, () => Promise.resolve({})),
    };
    return { r, events, release: () => gates.splice(0).forEach((g) => g()) };
  }

  it('prefetch starts both reads before the steps between run, and inject uses them without reading again', async () => {
    const { r, events, release } = gatedReads();
    const steps = sidecarSetPodSteps(r, NOW);
    const between: PodMutationStep = (p) => {
      events.push('workloadspread step');
      release();
      return Promise.resolve({ pod: p });
    };
    const answer = await answerPodMutationReview(review({ object: pod() }), [
      steps.prefetch,
      between,
      steps.inject,
    ]);
    expect(events).toEqual([
      'start sidecarsets',
      'start namespace ns1',
      'workloadspread step',
      'end sidecarsets',
      'end namespace ns1',
    ]);
    expect(
      (patched(pod(), answer).spec as { containers: { name: string }[] }).containers.map((c) => c.name),
    ).toEqual(['logger', 'main']);
  });

  it('reads afresh for each request when the steps are built once, as kruiseless local builds them', async () => {
    const { r, events, release } = gatedReads();
    const steps = sidecarSetPodSteps(r, NOW);
    const releasing: PodMutationStep = (p) => {
      release();
      return Promise.resolve({ pod: p });
    };
    for (let i = 0; i < 2; i++)
      await answerPodMutationReview(review({ object: pod() }), [steps.prefetch, releasing, steps.inject]);
    expect(events.filter((e) => e.startsWith('start'))).toEqual([
      'start sidecarsets',
      'start namespace ns1',
      'start sidecarsets',
      'start namespace ns1',
    ]);
  });

  it('a read that fails is answered by inject with a 500; with the request refused before inject it is not unhandled', async () => {
    const { r, release } = gatedReads(new Error('etcd timeout'));
    const steps = sidecarSetPodSteps(r, NOW);
    const releasing: PodMutationStep = (p) => {
      release();
      return Promise.resolve({ pod: p });
    };
    const answered = await answerPodMutationReview(review({ object: pod() }), [
      steps.prefetch,
      releasing,
      steps.inject,
    ]);
    expect(answered.review.response).toMatchObject({
      allowed: false,
      status: {
        code: 500,
        message: 'sidecar injection could not read SidecarSets or namespace ns1: etcd timeout',
      },
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const refusing: PodMutationStep = () => {
        release();
        return Promise.resolve({ refuse: { code: 403, message: 'no' } });
      };
      const refused = await answerPodMutationReview(review({ object: pod() }), [
        steps.prefetch,
        refusing,
        steps.inject,
      ]);
      expect(refused.review.response).toMatchObject({ allowed: false, status: { code: 403, message: 'no' } });
      await new Promise((res) => setTimeout(res, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('sidecarSetPodSteps under gate EnableSortSidecarContainerByName', () => {
  const two: SidecarSet = mutateSidecarSet({
    metadata: { name: 'two' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [
        { name: 'zz-proxy', image: 'envoy:1' },
        { name: 'aa-agent', image: 'agent:1' },
      ],
    },
  });
  const names = async (settings: SidecarSetSettings) => {
    const steps = sidecarSetPodSteps(reads([two]), NOW, Math.random, settings);
    const answer = await answerPodMutationReview(review({ object: pod() }), [steps.inject]);
    return (patched(pod(), answer).spec as { containers: { name: string }[] }).containers.map((c) => c.name);
  };

  it('the settings parser reads the gate (alpha, off by default)', () => {
    expect(
      SIDECARSET_SETTINGS.parse({ featureGates: 'EnableSortSidecarContainerByName=true', flags: {} })
        .settings,
    ).toEqual({ sortSidecarContainersByName: true });
    expect(SIDECARSET_SETTINGS.parse({ featureGates: '', flags: {} }).settings).toEqual({});
  });

  it('injects in name order with the gate, in declaration order without it', async () => {
    expect(await names({ sortSidecarContainersByName: true })).toEqual(['aa-agent', 'zz-proxy', 'main']);
    expect(await names({})).toEqual(['zz-proxy', 'aa-agent', 'main']);
  });
});
