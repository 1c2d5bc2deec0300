/**
 * A small IAM policy evaluator over CloudFormation role definitions, for checking what serverless.yml's function
 * roles allow (./contract.ts) without AWS: moto, the emulated AWS, does not enforce IAM. It follows the AWS policy
 * evaluation logic for identity policies of one account
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html): an explicit Deny
 * wins, else an Allow whose action, resource and every condition match, else denied. Condition operators and
 * the multivalued `ForAllValues:` / `ForAnyValue:` set operators as documented
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-single-vs-multi-valued-context-keys.html):
 * `ForAllValues:` holds for a key absent from the request (the empty set), which is why a `dynamodb:LeadingKeys`
 * condition does not constrain a Scan (it has no leading key).
 * Resources are compared as the template writes them (`{ "Fn::GetAtt": ["StateTable", "Arn"] }`); text resources
 * (strings, `Fn::Sub`) as IAM wildcard patterns, each `${…}` matching anything; an operator this evaluator does
 * not know is an error, never a silent match.
 */

/** A statement as a template writes it (`Action`/`Resource` a value or a list). */
export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  Resource?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
  NotAction?: unknown;
  NotResource?: unknown;
}

/** One request to authorize: an action on a resource, with the request's context keys. */
export interface AuthzRequest {
  /** e.g. `dynamodb:PutItem` */
  action: string;
  /** The resource as the template names it, e.g. `{ "Fn::GetAtt": ["StateTable", "Arn"] }`. */
  resource: unknown;
  /** Context keys (lower-cased or not: keys compare case-insensitively) and their values. */
  context?: Record<string, string | string[] | boolean>;
}

/** Thrown for a template or statement this evaluator cannot read exactly. */
export class PolicyEvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyEvaluationError';
  }
}

/** IAM's wildcard match: `*` any run of characters, `?` one; case-sensitive unless `ignoreCase`. */
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, ignoreCase ? 'i' : '').test(value);
}

const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function actionMatches(st: PolicyStatement, action: string): boolean {
  if (st.NotAction !== undefined) throw new PolicyEvaluationError('NotAction is not evaluated');
  return list(st.Action).some((a) => typeof a === 'string' && wildcardMatch(a, action, true));
}

/**
 * A statement's resource as a wildcard pattern when it is text: a string, or an `Fn::Sub` whose `${…}` parts (account,
 * region, partition, stage) may be anything; undefined for other intrinsics (compared as written).
 */
function resourcePattern(r: unknown): string | undefined {
  if (typeof r === 'string') return r.replace(/\$\{[^}]+\}/g, '*');
  const sub = (r as { 'Fn::Sub'?: unknown } | null)?.['Fn::Sub'];
  const text: unknown = Array.isArray(sub) ? (sub as unknown[])[0] : sub;
  return typeof text === 'string' ? text.replace(/\$\{[^}]+\}/g, '*') : undefined;
}

function resourceMatches(st: PolicyStatement, resource: unknown): boolean {
  if (st.NotResource !== undefined) throw new PolicyEvaluationError('NotResource is not evaluated');
  return list(st.Resource).some((r) => {
    const pattern = resourcePattern(r);
    if (pattern === '*') return true;
    if (pattern !== undefined && typeof resource === 'string') return wildcardMatch(pattern, resource);
    return JSON.stringify(r) === JSON.stringify(resource);
  });
}

/** One value test of a condition operator (without its set qualifier or `IfExists`). */
function valueMatches(operator: string, expected: string, actual: string | boolean): boolean {
  const a = String(actual);
  switch (operator) {
    case 'StringEquals':
    case 'ArnEquals':
      return a === expected;
    case 'StringNotEquals':
      return a !== expected;
    case 'StringEqualsIgnoreCase':
      return a.toLowerCase() === expected.toLowerCase();
    case 'StringLike':
    case 'ArnLike':
      return wildcardMatch(expected, a);
    case 'StringNotLike':
      return !wildcardMatch(expected, a);
    case 'Bool':
      return a === expected;
    default:
      throw new PolicyEvaluationError(`condition operator ${operator} is not evaluated`);
  }
}

const NEGATED = new Set(['StringNotEquals', 'StringNotLike']);

/** Whether one `Operator: { key: values }` block holds for `context`. */
function conditionHolds(
  qualified: string,
  keys: Record<string, unknown>,
  context: Record<string, string | string[] | boolean>,
): boolean {
  const [qualifier, rest] = qualified.includes(':') ? qualified.split(':', 2) : [undefined, qualified];
  if (qualifier !== undefined && qualifier !== 'ForAllValues' && qualifier !== 'ForAnyValue')
    throw new PolicyEvaluationError(`condition qualifier ${qualifier} is not evaluated`);
  const ifExists = rest.endsWith('IfExists');
  const operator = ifExists ? rest.slice(0, -'IfExists'.length) : rest;
  const lowered = Object.fromEntries(Object.entries(context).map(([k, v]) => [k.toLowerCase(), v]));
  return Object.entries(keys).every(([key, raw]) => {
    const expected = list(raw).map(String);
    const present = lowered[key.toLowerCase()];
    const actual = present === undefined ? [] : list(present).map((v) => v as string | boolean);
    // a negated operator holds when no expected value matches; the others when one does
    const one = (v: string | boolean) =>
      NEGATED.has(operator)
        ? expected.every((e) => valueMatches(operator, e, v))
        : expected.some((e) => valueMatches(operator, e, v));
    if (qualifier === 'ForAllValues') return actual.every(one);
    if (qualifier === 'ForAnyValue') return actual.some(one);
    if (present === undefined) return ifExists;
    if (Array.isArray(present))
      throw new PolicyEvaluationError(
        `${key} is multivalued: use ForAllValues or ForAnyValue with ${operator}`,
      );
    return one(present);
  });
}

/** Whether `st` applies to `request` (action, resource and every condition block). */
export function statementMatches(st: PolicyStatement, request: AuthzRequest): boolean {
  if (!actionMatches(st, request.action) || !resourceMatches(st, request.resource)) return false;
  return Object.entries(st.Condition ?? {}).every(([op, keys]) =>
    conditionHolds(op, keys, request.context ?? {}),
  );
}

/** IAM's decision for `request` under `statements`: `Deny` (explicit), `Allow`, or `ImplicitDeny`. */
export function decide(
  statements: readonly PolicyStatement[],
  request: AuthzRequest,
): 'Allow' | 'Deny' | 'ImplicitDeny' {
  const matching = statements.filter((st) => statementMatches(st, request));
  if (matching.some((st) => st.Effect === 'Deny')) return 'Deny';
  return matching.some((st) => st.Effect === 'Allow') ? 'Allow' : 'ImplicitDeny';
}

/**
 * The statements of an `AWS::IAM::Role`'s inline policies, with `Fn::If` statements resolved under `conditions`
 * (a statement whose condition is false, or `AWS::NoValue`, is left out).
 * @param conditions the value of every condition the role's statements name
 * @throws PolicyEvaluationError for a condition not given, or a statement of another shape
 */
export function roleStatements(
  role: { Properties?: { Policies?: { PolicyDocument?: { Statement?: unknown } }[] } },
  conditions: Record<string, boolean>,
): PolicyStatement[] {
  const resolveIf = (st: unknown): unknown[] => {
    if (typeof st === 'object' && st !== null && 'Fn::If' in st) {
      const [name, yes, no] = (st as { 'Fn::If': [string, unknown, unknown] })['Fn::If'];
      if (!(name in conditions)) throw new PolicyEvaluationError(`condition ${name} has no value`);
      return resolveIf(conditions[name] ? yes : no);
    }
    if (typeof st === 'object' && st !== null && (st as { Ref?: unknown }).Ref === 'AWS::NoValue') return [];
    return [st];
  };
  return (role.Properties?.Policies ?? [])
    .flatMap((p) => list(p.PolicyDocument?.Statement))
    .flatMap(resolveIf)
    .map((st) => {
      const s = st as PolicyStatement;
      if (s.Effect !== 'Allow' && s.Effect !== 'Deny')
        throw new PolicyEvaluationError(`a statement without Effect: ${JSON.stringify(st)}`);
      return s;
    });
}
