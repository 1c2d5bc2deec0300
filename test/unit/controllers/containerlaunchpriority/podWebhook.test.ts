/**
 * The container launch priority step of `/mutate-pod` (OpenKruise v1.9.0's `containerLaunchPriorityInitialization`),
 * through the webhook's frame: the barrier env on every container, the name given to a `generateName` pod, the
 * refusal of a priority that is not an int, and the order after SidecarSet injection (an injected sidecar is ordered
 * too).
 */
import jsonpatch from 'fast-json-patch';
import type { MutationAnswer } from '../../../../lib/api/admission/mutation.js';
import { answerPodMutationReview, type PodMutationStep } from '../../../../lib/api/admission/podMutation.js';
import type { JsonObject, Pod } from '../../../../lib/api/types.js';
import { launchPriorityPodStep } from '../../../../lib/controllers/containerlaunchpriority/podWebhook.js';
import { podCreateBody } from '../../support/admissionReview.js';

const patched = (object: unknown, answer: MutationAnswer): Pod => {
  const ops = JSON.parse(
    Buffer.from(answer.review.response.patch ?? 'W10=', 'base64').toString(),
  ) as jsonpatch.Operation[];
  return jsonpatch.applyPatch(structuredClone(object), ops).newDocument as Pod;
};

const web = (metadata: JsonObject = { name: 'web-0' }): Pod => ({
  metadata,
  spec: {
    containers: [
      { name: 'nginx', image: 'nginx:1.25' },
      { name: 'redis', image: 'redis:7', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '10' }] },
    ],
  },
});
const barrier = (pod: string, key: string) => ({
  name: 'KRUISE_CONTAINER_BARRIER',
  valueFrom: { configMapKeyRef: { name: `${pod}-barrier`, key } },
});

describe('/mutate-pod: container launch priority', () => {
  it('appends the barrier env to every container, its key the container’s priority', async () => {
    const answer = await answerPodMutationReview(podCreateBody(web()), [launchPriorityPodStep()]);
    expect(answer.statusCode).toBe(200);
    expect(answer.review.response).toMatchObject({ uid: 'u1', allowed: true, patchType: 'JSONPatch' });
    expect(patched(web(), answer).spec.containers.map((c) => c.env)).toEqual([
      [barrier('web-0', 'p_0')],
      [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '10' }, barrier('web-0', 'p_10')],
    ]);
  });

  it('names a pod sent with generateName only, so its barrier has a name', async () => {
    const pod = web({ generateName: 'web-' });
    const answer = await answerPodMutationReview(podCreateBody(pod), [launchPriorityPodStep(() => 'x2b4z')]);
    const stored = patched(pod, answer);
    expect(stored.metadata.name).toBe('web-x2b4z');
    expect(stored.spec.containers[0].env).toEqual([barrier('web-x2b4z', 'p_0')]);
  });

  it('leaves alone a pod that asks for no order, and an UPDATE', async () => {
    const plain: Pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }, { name: 'b' }] } };
    for (const body of [
      podCreateBody(plain),
      podCreateBody(web(), { operation: 'UPDATE', oldObject: web() }),
    ]) {
      const answer = await answerPodMutationReview(body, [launchPriorityPodStep()]);
      expect(answer.review.response).toEqual({ uid: 'u1', allowed: true });
    }
  });

  it('refuses a priority that is not an int with 500 and Go’s message, as upstream’s admission.Errored', async () => {
    const pod = web();
    pod.spec.containers[1].env = [{ name: 'KRUISE_CONTAINER_PRIORITY', value: 'high' }];
    const answer = await answerPodMutationReview(podCreateBody(pod), [launchPriorityPodStep()]);
    expect(answer.review.response).toMatchObject({
      uid: 'u1',
      allowed: false,
      status: { code: 500, message: 'strconv.Atoi: parsing "high": invalid syntax' },
    });
  });

  it('runs after SidecarSet injection: an injected sidecar of an Ordered pod gets its place', async () => {
    const inject: PodMutationStep = (pod) =>
      Promise.resolve({
        pod: { ...pod, spec: { ...pod.spec, containers: [{ name: 'logger' }, ...pod.spec.containers] } },
      });
    const pod: Pod = {
      metadata: { name: 'o', annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } },
      spec: { containers: [{ name: 'main' }] },
    };
    const answer = await answerPodMutationReview(podCreateBody(pod), [inject, launchPriorityPodStep()]);
    expect(patched(pod, answer).spec.containers).toEqual([
      { name: 'logger', env: [barrier('o', 'p_0')] },
      { name: 'main', env: [barrier('o', 'p_-1')] },
    ]);
  });
});
