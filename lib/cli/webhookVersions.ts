/**
 * The served versions of a CRD whose shape changes when it converts through Kruiseless's `/convert`: the CloneSet
 * CRD serves v1beta1 as an alias of v1alpha1 without a webhook (infra/crds/apps.kruise.io_clonesets.yaml) and as
 * OpenKruise's v1beta1 with one (the overlay infra/crds/webhook/<crd name>.yaml). A CRD without an overlay keeps
 * its versions either way (Advanced StatefulSet). Everything here is raw JSON as the API server takes it (not
 * client-node's models, whose serializer would drop `x-kubernetes-*` keys).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { isJsonObject, type JsonObject, type JsonValue } from '../api/types.js';
import { CliError } from './io.js';

/** An overlay file: the version it defines and what replaces the base version's spec schema parts. */
interface Overlay {
  name: string;
  specValidations: JsonValue[];
  specProperties: JsonObject;
}

const crdDir = (): string => fileURLToPath(new URL('../../infra/crds', import.meta.url));

/**
 * The CRD of infra/crds named `crdName`, raw.
 * @returns undefined when no file there defines it
 */
export function rawCrd(crdName: string): JsonObject | undefined {
  for (const f of readdirSync(crdDir()).filter((n) => n.endsWith('.yaml'))) {
    for (const doc of parseAllDocuments(readFileSync(`${crdDir()}/${f}`, 'utf8'))) {
      const o = doc.toJS() as unknown;
      if (isJsonObject(o) && isJsonObject(o.metadata) && o.metadata.name === crdName) return o;
    }
  }
  return undefined;
}

function readOverlay(crdName: string): Overlay | undefined {
  const file = `${crdDir()}/webhook/${crdName}.yaml`;
  if (!existsSync(file)) return undefined;
  const o = parse(readFileSync(file, 'utf8')) as unknown;
  if (
    !isJsonObject(o) ||
    typeof o.name !== 'string' ||
    !Array.isArray(o.specValidations) ||
    !isJsonObject(o.specProperties)
  )
    throw new CliError(`infra/crds/webhook/${crdName}.yaml: needs name, specValidations and specProperties`);
  return { name: o.name, specValidations: o.specValidations, specProperties: o.specProperties };
}

/**
 * What Kruiseless's CRD adds to a schema for a cluster without the webhook, and OpenKruise's CRD has not: with the
 * webhook, it refuses and defaults instead, in OpenKruise's words, and the CRD must not refuse first (nor refuse a
 * status write of an object OpenKruise's v1beta1 rules let through). `required` and `minLength`/`minItems` stay (a
 * container's name and image present), and so do transition rules (`oldSelf`: the selector's immutability), which
 * the controller could not check after the fact while the webhook (`failurePolicy: Ignore`) is down.
 */
const NO_WEBHOOK_KEYWORDS = new Set([
  'x-kubernetes-validations',
  'enum',
  'default',
  'maxLength',
  'maxItems',
  'maxProperties',
  'minimum',
  'maximum',
]);

/** The transition rules (those reading `oldSelf`) of an `x-kubernetes-validations` list. */
function transitionRules(rules: JsonValue): JsonValue[] {
  return Array.isArray(rules)
    ? rules.filter((r) => isJsonObject(r) && typeof r.rule === 'string' && r.rule.includes('oldSelf'))
    : [];
}

/**
 * `schema` (a JSON schema) without {@link NO_WEBHOOK_KEYWORDS} at any depth, transition rules kept; `properties`
 * keys are field names and are kept whatever they are called. The input is not modified.
 */
function withoutRules(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(withoutRules);
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'x-kubernetes-validations') {
      const kept = transitionRules(v);
      if (kept.length > 0) out[k] = kept;
      continue;
    }
    if (NO_WEBHOOK_KEYWORDS.has(k)) continue;
    out[k] =
      k === 'properties' && isJsonObject(v)
        ? Object.fromEntries(Object.entries(v).map(([field, s]) => [field, withoutRules(s)]))
        : withoutRules(v);
  }
  return out;
}

/** `version` (a CRD version entry) with its spec schema {@link withoutRules}, spec-level rules included. */
function withoutSpecRules(version: JsonObject): JsonObject {
  const out = structuredClone(version);
  const root = isJsonObject(out.schema) ? out.schema.openAPIV3Schema : undefined;
  const props = isJsonObject(root) && isJsonObject(root.properties) ? root.properties : undefined;
  if (props && isJsonObject(props.spec)) props.spec = withoutRules(props.spec);
  return out;
}

/**
 * The versions of `crd` (a raw CRD of infra/crds) while it converts through the webhook: each version the overlay
 * names becomes a copy of the stored version's entry with that name, `storage: false`, and the overlay's spec
 * properties and spec-level `x-kubernetes-validations` in its schema; every version's spec schema, the stored one's
 * too, loses {@link NO_WEBHOOK_KEYWORDS} (transition rules kept).
 * @returns undefined when `crd` has no overlay (its versions stay as they are)
 * @throws CliError when the overlay file is malformed or the CRD has no stored version to start from
 */
export function webhookVersionsOf(crd: JsonObject): JsonObject[] | undefined {
  const name = isJsonObject(crd.metadata) && typeof crd.metadata.name === 'string' ? crd.metadata.name : '';
  const overlay = readOverlay(name);
  if (!overlay) return undefined;
  const versions = ((crd as { spec?: { versions?: JsonObject[] } }).spec?.versions ?? []).map(
    withoutSpecRules,
  );
  const stored = versions.find((v) => v.storage === true);
  const schema = stored?.schema;
  if (!stored || !isJsonObject(schema) || !isJsonObject(schema.openAPIV3Schema))
    throw new CliError(`${name}: no stored version with a schema to derive ${overlay.name} from`);
  const derived = structuredClone(stored);
  const root = (derived.schema as { openAPIV3Schema: JsonObject }).openAPIV3Schema;
  const props = root.properties as { spec: JsonObject & { properties: JsonObject } };
  props.spec.properties = { ...props.spec.properties, ...structuredClone(overlay.specProperties) };
  const specRules = [
    ...transitionRules(props.spec['x-kubernetes-validations'] ?? []),
    ...overlay.specValidations,
  ];
  if (specRules.length > 0) props.spec['x-kubernetes-validations'] = structuredClone(specRules);
  else delete props.spec['x-kubernetes-validations'];
  derived.name = overlay.name;
  derived.storage = false;
  return versions.map((v) => (v.name === overlay.name ? derived : v));
}

/**
 * {@link webhookVersionsOf} for the CRD of infra/crds named `crdName`.
 * @returns undefined when infra/crds has no such CRD or it has no overlay
 */
export function webhookVersionsFor(crdName: string): JsonObject[] | undefined {
  const crd = rawCrd(crdName);
  return crd ? webhookVersionsOf(crd) : undefined;
}

/**
 * The versions of the CRD of infra/crds named `crdName` as that file has them, for a CRD whose versions change
 * with the webhook: what it goes back to without one.
 * @returns undefined when infra/crds has no such CRD, or its versions do not change with the webhook
 */
export function plainVersionsFor(crdName: string): JsonObject[] | undefined {
  const crd = rawCrd(crdName);
  if (!crd || !webhookVersionsOf(crd)) return undefined;
  return (crd as { spec?: { versions?: JsonObject[] } }).spec?.versions?.map((v) => structuredClone(v));
}
