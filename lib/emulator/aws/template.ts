/**
 * The packaged CloudFormation template (`.serverless/cloudformation-template-update-stack.json`, written by
 * `osls package`) and the few intrinsic functions it uses: `Ref`, `Fn::GetAtt`, `Fn::Sub` and `Fn::Join`
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/intrinsic-function-reference.html).
 */
import { readFileSync } from 'node:fs';
import { KruiselessError } from '../../core/errors.js';

/** One resource of the template. */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
}

/** The parts of a template the emulator reads. */
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown; Description?: string }>;
}

/** What a created resource answers to `Ref` and `Fn::GetAtt`. */
export interface Physical {
  ref: string;
  attrs: Record<string, string>;
}

/** Thrown for an intrinsic the emulator does not resolve, or a reference to a resource not (yet) created. */
export class IntrinsicError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'IntrinsicError';
  }
}

/** Pseudo parameters (`AWS::Region`, `AWS::AccountId`, …) and the physical ids of the resources created so far. */
export interface ResolveContext {
  pseudo: Readonly<Record<string, string>>;
  physical: ReadonlyMap<string, Physical>;
}

/**
 * Read a packaged template.
 * @throws Error when the file is missing or not a template with `Resources`
 */
export function readTemplate(file: string): CfnTemplate {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CfnTemplate>;
  if (!parsed.Resources || typeof parsed.Resources !== 'object')
    throw new Error(`${file} is not a CloudFormation template (no Resources)`);
  return parsed as CfnTemplate;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function lookup(ctx: ResolveContext, name: string, attr?: string): string {
  if (attr === undefined && name in ctx.pseudo) return ctx.pseudo[name];
  const p = ctx.physical.get(name);
  if (!p) throw new IntrinsicError(`reference to ${name}, which is not created (or not in the template)`);
  if (attr === undefined) return p.ref;
  const v = p.attrs[attr];
  if (v === undefined) throw new IntrinsicError(`${name} has no attribute ${attr} here`);
  return v;
}

function sub(ctx: ResolveContext, text: string, vars: Record<string, unknown>): string {
  return text.replace(/\$\{([^}!]+)\}/g, (_, expr: string) => {
    if (expr in vars) return String(resolve(vars[expr], ctx));
    const dot = expr.indexOf('.');
    return dot < 0 ? lookup(ctx, expr) : lookup(ctx, expr.slice(0, dot), expr.slice(dot + 1));
  });
}

/**
 * Replace every intrinsic in `value` by its value.
 * @returns a copy of `value` with only plain JSON left
 * @throws IntrinsicError for other `Fn::` functions or unresolvable references
 */
export function resolve(value: unknown, ctx: ResolveContext): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(v, ctx));
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const [k] = keys;
    const arg = value[k];
    if (k === 'Ref') return lookup(ctx, String(arg));
    if (k === 'Fn::GetAtt') {
      const [name, attr] = Array.isArray(arg) ? arg.map(String) : String(arg).split(/\.(.*)/s);
      return lookup(ctx, name, attr);
    }
    if (k === 'Fn::Sub') {
      if (typeof arg === 'string') return sub(ctx, arg, {});
      const [text, vars] = arg as [string, Record<string, unknown>];
      return sub(ctx, text, vars);
    }
    if (k === 'Fn::Join') {
      const [sep, parts] = arg as [string, unknown[]];
      return (resolve(parts, ctx) as unknown[]).map(String).join(sep);
    }
    if (k.startsWith('Fn::')) throw new IntrinsicError(`${k} is not supported by the emulator`);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, ctx)]));
}

/** The logical ids `value` refers to (`Ref`, `Fn::GetAtt`, `${X}` / `${X.Attr}` in `Fn::Sub`), pseudo parameters left out. */
export function references(value: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObject(v)) return;
    for (const [k, arg] of Object.entries(v)) {
      if (k === 'Ref' && typeof arg === 'string') out.add(arg);
      else if (k === 'Fn::GetAtt') out.add(Array.isArray(arg) ? String(arg[0]) : String(arg).split('.')[0]);
      else if (k === 'Fn::Sub') {
        const text = typeof arg === 'string' ? arg : String((arg as unknown[])[0]);
        for (const m of text.matchAll(/\$\{([^}!.]+)[^}]*\}/g)) out.add(m[1]);
        if (Array.isArray(arg)) walk(arg[1]);
      } else walk(arg);
    }
  };
  walk(value);
  for (const name of out) if (name.startsWith('AWS::')) out.delete(name);
  return out;
}

/**
 * The template's logical ids in an order where every resource comes after those it refers to or `DependsOn`.
 * @throws IntrinsicError on a reference cycle
 */
export function creationOrder(template: CfnTemplate): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string): void => {
    if (state.get(id) === 'done' || !template.Resources[id]) return;
    if (state.get(id) === 'visiting') throw new IntrinsicError(`reference cycle through ${id}`);
    state.set(id, 'visiting');
    const r = template.Resources[id];
    for (const dep of [...references(r.Properties ?? {}), ...[r.DependsOn ?? []].flat()]) visit(dep);
    state.set(id, 'done');
    order.push(id);
  };
  Object.keys(template.Resources).forEach(visit);
  return order;
}
