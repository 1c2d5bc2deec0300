/**
 * The CloneSet CRD's versions while it converts through Kruiseless's webhook (lib/cli/webhookVersions.ts): v1beta1
 * has OpenKruise's CRD's shape — no CEL rule, enum, default (but `enablePVCReuse`'s) or bound — so a v1beta1 write
 * is refused only by the validating webhook, with OpenKruise's v1beta1 words; v1alpha1 keeps its own schema.
 * Parity scenarios `v1beta1-refused-selector`, `v1beta1-refused-policy` and `v1beta1-progress-deadline` found the
 * CRD refusing first with its own words (or refusing what OpenKruise accepts).
 */
import { rawCrd, webhookVersionsFor } from '../../../lib/cli/webhookVersions.js';
import type { JsonObject, JsonValue } from '../../../lib/api/types.js';

/** Every `<path>: <keyword>` of `keywords` under `schema`, `properties` keys read as field names. */
function keywordsIn(schema: JsonValue, keywords: readonly string[], path = ''): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => keywordsIn(s, keywords, `${path}[${i}]`));
  if (schema === null || typeof schema !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(schema)) {
    if (keywords.includes(k)) out.push(`${path}: ${k}`);
    if (k === 'properties' && v && typeof v === 'object' && !Array.isArray(v))
      for (const [field, s] of Object.entries(v)) out.push(...keywordsIn(s, keywords, `${path}.${field}`));
    else out.push(...keywordsIn(v, keywords, path));
  }
  return out;
}

const specOf = (version: JsonObject | undefined): JsonValue =>
  (version?.schema as { openAPIV3Schema: { properties: { spec: JsonValue } } }).openAPIV3Schema.properties
    .spec;

const RULES = [
  'x-kubernetes-validations',
  'enum',
  'default',
  'maxLength',
  'maxItems',
  'maxProperties',
  'minimum',
  'maximum',
];

test('v1beta1: no rule, enum, bound or default in the spec schema but enablePVCReuse false and the selector’s transition rule', () => {
  const versions = webhookVersionsFor('clonesets.apps.kruise.io') ?? [];
  const beta = versions.find((v) => v.name === 'v1beta1');
  expect(beta?.storage).toBe(false);
  expect(keywordsIn(specOf(beta), RULES)).toEqual([
    '.selector: x-kubernetes-validations',
    '.scaleStrategy.enablePVCReuse: default',
  ]);
  // a container's name and image stay required (structural presence, which the webhook does not check for image)
  expect(keywordsIn(specOf(beta), ['required'])).toContain('.template.spec.containers: required');
});

test('v1alpha1, the stored version, loses the same, but the selector’s transition rule; infra/crds keeps all', () => {
  const versions = webhookVersionsFor('clonesets.apps.kruise.io') ?? [];
  const alpha = versions.find((v) => v.name === 'v1alpha1');
  expect(alpha?.storage).toBe(true);
  expect(keywordsIn(specOf(alpha), RULES)).toEqual(['.selector: x-kubernetes-validations']);
  const rules = (
    specOf(alpha) as { properties: { selector: { 'x-kubernetes-validations': { rule: string }[] } } }
  ).properties.selector['x-kubernetes-validations'];
  expect(rules.map((r) => r.rule)).toEqual(['self == oldSelf']);
  const beta = versions.find((v) => v.name === 'v1beta1');
  expect(keywordsIn(specOf(beta), ['x-kubernetes-validations'])).toEqual([
    '.selector: x-kubernetes-validations',
  ]);
  // the plain CRD (no webhook) is untouched: its rules are the only check there
  const plain = (rawCrd('clonesets.apps.kruise.io') as { spec: { versions: JsonObject[] } }).spec.versions;
  expect(
    keywordsIn(specOf(plain.find((v) => v.name === 'v1alpha1')), ['x-kubernetes-validations']).length,
  ).toBeGreaterThan(5);
});

test('a field named like a keyword is kept (properties keys are field names)', () => {
  const versions = webhookVersionsFor('clonesets.apps.kruise.io') ?? [];
  const beta = specOf(versions.find((v) => v.name === 'v1beta1')) as { properties: Record<string, unknown> };
  expect(Object.keys(beta.properties)).toEqual(
    expect.arrayContaining(['replicas', 'selector', 'template', 'scaleStrategy', 'updateStrategy']),
  );
});
