import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goRoundTrip, withGoStoredSpec, type GoRootType } from '../../../lib/api/goRoundTrip.js';
import type { JsonObject, JsonValue } from '../../../lib/api/types.js';

const golden = join(dirname(fileURLToPath(import.meta.url)), '../podset/revision/spew-golden');
const lines = (file: string): string[] =>
  readFileSync(join(golden, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
const cases = lines('roundtrip-cases.jsonl').map(
  (l) => JSON.parse(l) as { type: GoRootType; value: JsonValue },
);
const answers = lines('roundtrip-answers.jsonl');

describe("Go's typed round trip, byte for byte as Go's (spew-golden/roundtrip-answers.jsonl)", () => {
  it('has one answer per case', () => {
    expect(answers).toHaveLength(cases.length);
  });
  it.each(cases.map((c, i) => [i, c.type, c] as const))('case %i (%s)', (i, _type, c) => {
    expect(JSON.stringify(goRoundTrip(c.type, c.value))).toBe(answers[i]);
  });
});

describe('goRoundTrip', () => {
  it('writes a template with a null creationTimestamp and empty resources, and drops zero omitempty fields', () => {
    const template = {
      metadata: { labels: { app: 'a' } },
      spec: {
        containers: [{ name: 'main', image: 'nginx', ports: [{ containerPort: 80 }] }],
        hostNetwork: false,
        notAField: 1,
      },
    };
    expect(goRoundTrip('v1.PodTemplateSpec', template)).toEqual({
      metadata: { creationTimestamp: null, labels: { app: 'a' } },
      spec: { containers: [{ name: 'main', image: 'nginx', ports: [{ containerPort: 80 }], resources: {} }] },
    });
  });

  it('writes a claim template with a null creationTimestamp, an empty status and canonical quantities', () => {
    const claim = { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1024Mi' } } } };
    expect(goRoundTrip('v1.PersistentVolumeClaim', claim)).toEqual({
      metadata: { name: 'data', creationTimestamp: null },
      spec: { resources: { requests: { storage: '1Gi' } } },
      status: {},
    });
  });

  it("keeps a pointer's zero and writes CloneSet's empty structs", () => {
    const spec = { replicas: 0, selector: { matchLabels: { app: 'a' } }, template: {}, minReadySeconds: 0 };
    expect(goRoundTrip('v1alpha1.CloneSetSpec', spec)).toEqual({
      replicas: 0,
      selector: { matchLabels: { app: 'a' } },
      template: { metadata: { creationTimestamp: null }, spec: { containers: null } },
      scaleStrategy: {},
      updateStrategy: {},
    });
  });

  it('does not modify its input', () => {
    const template = { metadata: {}, spec: { containers: [{ name: 'c' }] } };
    const before = structuredClone(template);
    goRoundTrip('v1.PodTemplateSpec', template);
    expect(template).toEqual(before);
  });
});

describe('withGoStoredSpec', () => {
  it('rewrites the spec only', () => {
    const object: JsonObject = {
      metadata: { name: 'x' },
      spec: { template: { spec: { containers: [] } } },
      status: { replicas: 0 },
    };
    expect(withGoStoredSpec(object, 'v1beta1.BroadcastJobSpec')).toEqual({
      metadata: { name: 'x' },
      spec: {
        template: { metadata: { creationTimestamp: null }, spec: { containers: [] } },
        completionPolicy: {},
        failurePolicy: {},
      },
      status: { replicas: 0 },
    });
  });

  it('returns an object without a spec object as it is', () => {
    const object: JsonObject = { metadata: { name: 'x' } };
    expect(withGoStoredSpec(object, 'v1beta1.DaemonSetSpec')).toBe(object);
  });
});
