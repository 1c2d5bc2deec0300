import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { handleMutationReview } from '../../../../../lib/api/admission/mutation.js';
import { mutatingWebhookConfiguration } from '../../../../../lib/api/admission/webhookConfiguration.js';
import {
  mutateSidecarSet,
  sidecarSetMutator,
} from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import {
  sidecarSetHash,
  sidecarSetHashWithoutImage,
} from '../../../../../lib/controllers/sidecarset/api/hash.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { reviewBody } from '../../../support/admissionReview.js';

const golden = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');
const read = (f: string): SidecarSet =>
  JSON.parse(fs.readFileSync(path.join(golden, f), 'utf8')) as SidecarSet;

describe('SidecarSet webhook (defaults and hash) against OpenKruise v1.9.0 output', () => {
  for (const name of ['minimal', 'every-field', 'init-only', 'hot-upgrade', 'quantities']) {
    it(`${name}: the stored spec and both hash annotations are OpenKruise's, byte for byte`, () => {
      const ours = mutateSidecarSet(read(`${name}.input.json`));
      const theirs = read(`${name}.openkruise.json`);
      expect(ours.metadata.annotations).toEqual(theirs.metadata.annotations);
      for (const key of ['containers', 'initContainers', 'volumes', 'patchPodMetadata'] as const)
        expect(JSON.stringify(ours.spec[key])).toBe(JSON.stringify(theirs.spec[key]));
      expect(ours.spec.updateStrategy).toEqual(theirs.spec.updateStrategy);
      expect(ours.spec.injectionStrategy).toEqual(theirs.spec.injectionStrategy);
      expect(ours.spec.revisionHistoryLimit).toBe(theirs.spec.revisionHistoryLimit);
    });
  }

  it('the minimal SidecarSet hashes to the value OpenKruise stores', () => {
    const stored = read('minimal.openkruise.json');
    expect(sidecarSetHash(stored.spec)).toBe(
      '4w4x4cvdd7dd47548bxdx9b867cx572wzx6v48bdz8z4wbvd6c4vx999c4d29485',
    );
    expect(sidecarSetHashWithoutImage(stored.spec)).toBe(
      'w795w8x62v78dw4274x9974z7x4df7c4cc9cxwb5x84858c45zvd2db7f6vwcbvd',
    );
  });

  it('an image change moves the hash but not the hash without image', () => {
    const stored = read('minimal.openkruise.json');
    const changed = structuredClone(stored.spec);
    changed.containers![0].image = 'centos:8';
    expect(sidecarSetHash(changed)).not.toBe(sidecarSetHash(stored.spec));
    expect(sidecarSetHashWithoutImage(changed)).toBe(sidecarSetHashWithoutImage(stored.spec));
  });

  it('mutating an already stored SidecarSet changes nothing', () => {
    const stored = read('every-field.openkruise.json');
    const again = mutateSidecarSet(mutateSidecarSet(read('every-field.input.json')));
    expect(again.spec.containers).toEqual(stored.spec.containers);
    expect(again.metadata.annotations).toEqual(stored.metadata.annotations);
  });

  it('/mutate answers a SidecarSet CREATE with the patch to the defaulted, hashed object', () => {
    const object = read('minimal.input.json');
    const body = reviewBody({
      uid: 'u1',
      resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'sidecarsets' },
      operation: 'CREATE',
      object,
    });
    const { statusCode, review } = handleMutationReview(body, [sidecarSetMutator]);
    expect(statusCode).toBe(200);
    expect(review.response.allowed).toBe(true);
    const ops = JSON.parse(Buffer.from(review.response.patch!, 'base64').toString()) as { path: string }[];
    expect(ops.map((o) => o.path)).toContain('/metadata/annotations');
  });

  it('stores spec.namespace as OpenKruise v1.9.0 reads it back through its v1beta1 storage: a name-label namespaceSelector', () => {
    const input = read('minimal.input.json');
    input.spec.namespace = 'team-a';
    input.spec.namespaceSelector = { matchLabels: { env: 'prod' } };
    const stored = mutateSidecarSet(input);
    expect(stored.spec.namespace).toBeUndefined();
    expect(stored.spec.namespaceSelector).toEqual({
      matchLabels: { 'kubernetes.io/metadata.name': 'team-a' },
    });
    expect(stored.metadata.annotations).toEqual(read('minimal.openkruise.json').metadata.annotations);
    expect(input.spec.namespace).toBe('team-a');
  });

  it('drops an empty spec.namespace and keeps a namespaceSelector given alone', () => {
    const input = read('minimal.input.json');
    input.spec.namespace = '';
    input.spec.namespaceSelector = { matchLabels: { env: 'prod' } };
    const stored = mutateSidecarSet(input);
    expect('namespace' in stored.spec).toBe(false);
    expect(stored.spec.namespaceSelector).toEqual({ matchLabels: { env: 'prod' } });
  });

  it('drops paused: false of both strategies (v1beta1 omitempty) and keeps paused: true', () => {
    const input = read('minimal.input.json');
    input.spec.updateStrategy = { paused: false, partition: 0 };
    input.spec.injectionStrategy = { paused: false };
    const stored = mutateSidecarSet(input);
    expect(stored.spec.updateStrategy).toEqual({ type: 'RollingUpdate', maxUnavailable: 1, partition: 0 });
    expect(stored.spec.injectionStrategy).toEqual({});
    input.spec.updateStrategy = { paused: true };
    input.spec.injectionStrategy = { paused: true };
    const paused = mutateSidecarSet(input);
    expect(paused.spec.updateStrategy?.paused).toBe(true);
    expect(paused.spec.injectionStrategy?.paused).toBe(true);
  });

  it('is registered for the cluster-scoped resource', () => {
    const config = mutatingWebhookConfiguration({ name: 'x', url: 'https://h/mutate' }, [
      sidecarSetMutator,
    ]) as {
      webhooks: { rules: { scope: string; resources: string[] }[] }[];
    };
    expect(config.webhooks[0].rules).toEqual([
      expect.objectContaining({ resources: ['sidecarsets'], scope: 'Cluster' }),
    ]);
  });
});
