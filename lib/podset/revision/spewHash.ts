/**
 * OpenKruise: Kubernetes v1.32 pkg/controller/controller_utils.go `ComputeHash` over pkg/util/hash `DeepHashObject`
 * (apimachinery pkg/util/dump `ForHash`: go-spew `%#v` with sorted keys, methods disabled), which names Advanced
 * DaemonSet revisions and labels their pods (pkg/controller/daemonset/daemonset_history.go `snapshot`).
 *
 * The go-spew text of the typed `PodTemplateSpec` a JSON template decodes to, walked through its Go layout
 * (lib/api/goTypeLayout.ts): every field of every struct, typed, in declaration order, zero values included; and the
 * hash: FNV-1a 32 of that text, then the collision count as 8 little-endian bytes, in decimal, safe-encoded.
 * Checked against Go itself (test/unit/podset/revision/spew-golden).
 */
import type { JsonValue } from '../../api/types.js';
import { KruiselessError } from '../../core/errors.js';
import type { GoTypeLayout } from '../../api/goLayout.js';
import { parseGoQuantity } from './goQuantity.js';
import { safeEncodeString, utf8 } from './goJson.js';
import { GO_TYPE_LAYOUT } from '../../api/goTypeLayout.js';

/** A template value Go would not decode into its typed field, or a type the renderer does not know. */
export class SpewRenderError extends KruiselessError {}

type Layouts = Readonly<Record<string, GoTypeLayout>>;

const ZERO_TIME = '{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}';

const isObject = (v: JsonValue | undefined): v is { [k: string]: JsonValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: JsonValue | undefined): boolean => v === undefined || v === null;

function typed(type: string, text: string, ignoreType: boolean): string {
  return ignoreType ? text : `(${type})${text}`;
}

function quantityText(v: JsonValue | undefined): string {
  if (absent(v))
    return '{i:(resource.int64Amount){value:(int64)0 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string) Format:(resource.Format)}';
  if (typeof v !== 'string' && typeof v !== 'number')
    throw new SpewRenderError(`a quantity is text or a number, not ${JSON.stringify(v)}`);
  const q = parseGoQuantity(String(v).trim());
  return `{i:(resource.int64Amount){value:(int64)${q.value} scale:(resource.Scale)${q.scale}} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)${q.cached} Format:(resource.Format)${q.format}}`;
}

function intOrStringText(v: JsonValue | undefined): string {
  if (typeof v === 'number') return `{Type:(intstr.Type)0 IntVal:(int32)${v} StrVal:(string)}`;
  if (typeof v === 'string') return `{Type:(intstr.Type)1 IntVal:(int32)0 StrVal:(string)${v}}`;
  if (absent(v)) return '{Type:(intstr.Type)0 IntVal:(int32)0 StrVal:(string)}';
  throw new SpewRenderError(`an int-or-string is a number or text, not ${JSON.stringify(v)}`);
}

function scalarText(kind: string, v: JsonValue | undefined): string {
  if (kind === 'string') {
    if (absent(v)) return '';
    if (typeof v !== 'string') throw new SpewRenderError(`expected text, got ${JSON.stringify(v)}`);
    return v;
  }
  if (kind === 'bool') {
    if (absent(v)) return 'false';
    if (typeof v !== 'boolean') throw new SpewRenderError(`expected a boolean, got ${JSON.stringify(v)}`);
    return String(v);
  }
  if (absent(v)) return '0';
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new SpewRenderError(`expected an integer, got ${JSON.stringify(v)}`);
  return String(v);
}

function render(layouts: Layouts, type: string, v: JsonValue | undefined, ignoreType: boolean): string {
  if (type === 'resource.Quantity') return typed(type, quantityText(v), ignoreType);
  if (type === 'intstr.IntOrString') return typed(type, intOrStringText(v), ignoreType);
  if (type === 'v1.Time') {
    if (!absent(v)) throw new SpewRenderError('a set timestamp in a pod template is not rendered');
    return typed(type, ZERO_TIME, ignoreType);
  }
  const layout = layouts[type];
  if (!layout) throw new SpewRenderError(`no Go layout for ${type}`);
  switch (layout.kind) {
    case 'ptr': {
      if (absent(v)) return ignoreType ? '<nil>' : `(${type})<nil>`;
      const elem = layout.elem ?? '';
      return `${ignoreType ? '<*>' : `(*${elem})`}${render(layouts, elem, v, true)}`;
    }
    case 'slice': {
      if (absent(v)) return typed(type, '<nil>', ignoreType);
      if (!Array.isArray(v)) throw new SpewRenderError(`${type}: expected a list, got ${JSON.stringify(v)}`);
      const elem = layout.elem ?? '';
      return typed(type, `[${v.map((e) => render(layouts, elem, e, true)).join(' ')}]`, ignoreType);
    }
    case 'map': {
      if (absent(v)) return typed(type, '<nil>', ignoreType);
      if (!isObject(v)) throw new SpewRenderError(`${type}: expected an object, got ${JSON.stringify(v)}`);
      const elem = layout.elem ?? '';
      const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return typed(
        type,
        `map[${keys.map((k) => `${k}:${render(layouts, elem, v[k], true)}`).join(' ')}]`,
        ignoreType,
      );
    }
    case 'struct': {
      if (!absent(v) && !isObject(v))
        throw new SpewRenderError(`${type}: expected an object, got ${JSON.stringify(v)}`);
      const obj = isObject(v) ? v : undefined;
      const fields = (layout.fields ?? []).map((f) => {
        const child = f.inline ? obj : f.json !== undefined && obj ? obj[f.json] : undefined;
        return `${f.name}:${render(layouts, f.type, child, false)}`;
      });
      return typed(type, `{${fields.join(' ')}}`, ignoreType);
    }
    default:
      return typed(type, scalarText(layout.kind, v), ignoreType);
  }
}

/**
 * go-spew's `%#v` text (`dump.ForHash`) of the `v1.PodTemplateSpec` that `template` (JSON, as stored) decodes to.
 * @throws SpewRenderError for values Go would not decode and timestamps set in the template;
 *   UnsupportedQuantityError (./goQuantity.ts) for quantities Go keeps as `inf.Dec`
 */
export function spewPodTemplate(template: JsonValue, layouts: Layouts = GO_TYPE_LAYOUT): string {
  return render(layouts, 'v1.PodTemplateSpec', template, false);
}

/** FNV-1a 32 over `bytes`, continuing from `h` (Go's `hash/fnv.New32a()` written to in parts). */
function fnv1a(bytes: Uint8Array, h = 0x811c9dc5): number {
  let sum = h;
  for (const b of bytes) {
    sum = (sum ^ b) >>> 0;
    sum = Math.imul(sum, 0x01000193) >>> 0;
  }
  return sum;
}

/**
 * Kubernetes' `ComputeHash(template, collisionCount)`: FNV-1a 32 of {@link spewPodTemplate}, then — when a
 * collision count is given — its low 32 bits as 8 little-endian bytes (the upper four zero), printed in decimal and
 * safe-encoded (`rand.SafeEncodeString`), e.g. `75dff5d588`.
 * @param collisionCount `status.collisionCount`; undefined when unset (no bytes added)
 * @throws what {@link spewPodTemplate} throws
 */
export function computePodTemplateHash(template: JsonValue, collisionCount?: number): string {
  let h = fnv1a(utf8(spewPodTemplate(template)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv1a(bytes, h);
  }
  return safeEncodeString(String(h));
}
