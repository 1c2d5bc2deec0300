/**
 * The packaged CloudFormation template (`.serverless/cloudformation-template-update-stack.json`, written by
 * `osls package`) and the intrinsic functions it uses: `Ref` (resources, parameters at their defaults, pseudo
 * parameters, `AWS::NoValue`), `Fn::GetAtt`, `Fn::Sub`, `Fn::Join`, `Fn::Select`, `Fn::Split`, `Fn::If` and the
 * condition functions `Fn::Equals`, `Fn::Not`, `Fn::And`, `Fn::Or`, `Condition`
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/intrinsic-function-reference.html).
 */
import { readFileSync } from 'node:fs';
import { KruiselessError } from '../../core/errors.js';

/** One resource of the template. */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  /** Created only when this condition holds. */
  Condition?: string;
}

/** The parts of a template the emulator reads. */
export interface CfnTemplate {
  Parameters?: Record<string, { Type: string; Default?: string }>;
  Conditions?: Record<string, unknown>;
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

/**
 * Pseudo parameters (`AWS::Region`, `AWS::AccountId`, …), template parameters, the physical ids of the resources
 * created so far and the template's conditions.
 */
export interface ResolveContext {
  pseudo: Readonly<Record<string, string>>;
  physical: ReadonlyMap<string, Physical>;
  /** Template parameters (their defaults); list types as arrays. */
  parameters?: Readonly<Record<string, string | string[]>>;
  /** The value of a named condition (see {@link conditionsOf}). */
  condition?: (name: string) => boolean;
}

/** `Ref: AWS::NoValue`: the property (or list element) it stands for is removed. */
const NO_VALUE: unique symbol = Symbol('AWS::NoValue');

/**
 * The template's parameters at their defaults (the values `osls package` wrote into the template); a
 * `CommaDelimitedList` or `List<…>` parameter as a list.
 * @throws IntrinsicError for a parameter without a default
 */
export function parameterDefaults(template: CfnTemplate): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(template.Parameters ?? {}).map(([name, p]) => {
      if (p.Default === undefined) throw new IntrinsicError(`parameter ${name} has no Default`);
      const list = p.Type === 'CommaDelimitedList' || p.Type.startsWith('List<');
      return [name, list ? p.Default.split(',') : p.Default];
    }),
  );
}

/**
 * A lookup of the template's conditions, each evaluated once on first use.
 * @throws IntrinsicError (when called) for an unknown condition or a cycle
 */
export function conditionsOf(template: CfnTemplate, ctx: ResolveContext): (name: string) => boolean {
  const values = new Map<string, boolean | 'evaluating'>();
  const condition = (name: string): boolean => {
    const known = values.get(name);
    if (known === 'evaluating') throw new IntrinsicError(`condition cycle through ${name}`);
    if (known !== undefined) return known;
    const expr = template.Conditions?.[name];
    if (expr === undefined) throw new IntrinsicError(`condition ${name} is not in the template`);
    values.set(name, 'evaluating');
    const value = resolve(expr, { ...ctx, condition }) === true;
    values.set(name, value);
    return value;
  };
  return condition;
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

function lookup(ctx: ResolveContext, name: string, attr?: string): string | string[] | typeof NO_VALUE {
  if (attr === undefined && name === 'AWS::NoValue') return NO_VALUE;
  if (attr === undefined && name in ctx.pseudo) return ctx.pseudo[name];
  if (attr === undefined && ctx.parameters && name in ctx.parameters) return ctx.parameters[name];
  const p = ctx.physical.get(name);
  if (!p) throw new IntrinsicError(`reference to ${name}, which is not created (or not in the template)`);
  if (attr === undefined) return p.ref;
  const v = p.attrs[attr];
  if (v === undefined) throw new IntrinsicError(`${name} has no attribute ${attr} here`);
  return v;
}

function sub(ctx: ResolveContext, text: string, vars: Record<string, unknown>): string {
  return text
    .replace(/\$\{([^}!]+)\}/g, (_, expr: string) => {
      if (expr in vars) return String(resolve(vars[expr], ctx));
      const dot = expr.indexOf('.');
      return String(dot < 0 ? lookup(ctx, expr) : lookup(ctx, expr.slice(0, dot), expr.slice(dot + 1)));
    })
    .replace(/\$\{!/g, '${'); // `${!Literal}` is the escape for a literal `${Literal}`
}

function condition(ctx: ResolveContext, name: unknown): boolean {
  if (!ctx.condition) throw new IntrinsicError(`condition ${String(name)} used, but the template has none`);
  return ctx.condition(String(name));
}

/** The condition functions and `Fn::If`, `Fn::Select`, `Fn::Split`: undefined when `k` is none of them. */
function logical(k: string, arg: unknown, ctx: ResolveContext): { value: unknown } | undefined {
  const args = Array.isArray(arg) ? arg : [arg];
  const r = (v: unknown) => resolve(v, ctx);
  switch (k) {
    case 'Fn::If':
      return { value: r(condition(ctx, args[0]) ? args[1] : args[2]) };
    case 'Condition':
      return { value: condition(ctx, arg) };
    case 'Fn::Equals':
      return { value: JSON.stringify(r(args[0])) === JSON.stringify(r(args[1])) };
    case 'Fn::Not':
      return { value: r(args[0]) !== true };
    case 'Fn::And':
      return { value: args.every((a) => r(a) === true) };
    case 'Fn::Or':
      return { value: args.some((a) => r(a) === true) };
    case 'Fn::Select':
      return { value: (r(args[1]) as unknown[])[Number(r(args[0]))] };
    case 'Fn::Split':
      return { value: String(r(args[1])).split(String(args[0])) };
    default:
      return undefined;
  }
}

/**
 * Replace every intrinsic in `value` by its value.
 * @returns a copy of `value` with only plain JSON left
 * @throws IntrinsicError for other `Fn::` functions or unresolvable references
 */
export function resolve(value: unknown, ctx: ResolveContext): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(v, ctx)).filter((v) => v !== NO_VALUE);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const [k] = keys;
    const arg = value[k];
    const l = logical(k, arg, ctx);
    if (l) return l.value;
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
      return [resolve(parts, ctx)].flat().map(String).join(sep);
    }
    if (k.startsWith('Fn::')) throw new IntrinsicError(`${k} is not supported by the emulator`);
  }
  return Object.fromEntries(
    Object.entries(value)
      .map(([k, v]) => [k, resolve(v, ctx)] as const)
      .filter(([, v]) => v !== NO_VALUE),
  );
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
