/**
 * OpenKruise: `pkg/util/calculator` (v1.9.0: calculator.y, calculator.go, lexer.go), the expression language of a
 * SidecarSet container's `resourcesPolicy.resourcesExpr`: numbers (`0.5`, `50%` = 0.5, `1e3`), Kubernetes quantities
 * with a unit (`100m`, `200Mi`, `1Gi`), the variables `cpu` / `memory`, `+ - * /`, unary minus, parentheses and
 * `max(a, b)` / `min(a, b)`. A number meets a quantity as that many milli-units' thousandth (`toQuantity`: 0.5 →
 * `500m`), a quantity times or over a number keeps the quantity's format, two quantities multiplied or a quantity
 * divisor are refused, and a negative result is refused. Errors carry upstream's messages: the last semantic error
 * of the parse wins over a syntax error (`parse error: syntax error at line 1, col N`), as Go's yacc parser records
 * them while it reduces.
 *
 * Own recursive-descent parser over the same grammar (no npm expression library has the quantity tokens, percent
 * numbers and these error rules); it reduces in the order the LALR parser does, so the same error is reported.
 */
import { KruiselessError } from '../../../core/errors.js';
import {
  addQuantity,
  cmpQuantity,
  goInt64,
  milliQuantity,
  milliValue,
  negQuantity,
  parseQuantityValue,
  QuantityParseError,
  quantityString,
  withMilli,
  type QuantityValue,
} from '../../../api/quantityValue.js';

/** `calculator.Value`: a plain number or a quantity. */
export type CalcValue =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'quantity'; readonly quantity: QuantityValue };

/** The expression could not be evaluated; the message is the calculator's error text. */
export class ResourceExpressionError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceExpressionError';
  }
}

const num = (n: number): CalcValue => ({ kind: 'number', number: n });
const qty = (q: QuantityValue): CalcValue => ({ kind: 'quantity', quantity: q });

/** Go's `fmt.Sprintf("%g", f)` of a float64: the shortest digits, in `%e` form below 1e-4 and from 1e6 (`1e+06`). */
export function goFormatG(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, exp] = f.toExponential().split('e');
  const exponent = Number(exp);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 6) {
    const e = Math.abs(exponent).toString().padStart(2, '0');
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exponent < 0 ? '-' : '+'}${e}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const intPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const frac = digits.slice(exponent + 1);
  return `${sign}${intPart}${frac ? `.${frac}` : ''}`;
}

/** `Value.String()`: `%g` of a number, `Quantity.String()` of a quantity. */
export function calcValueString(v: CalcValue): string {
  return v.kind === 'number' ? goFormatG(v.number) : quantityString(v.quantity);
}

// ---- lexer (lexer.go): bytes, as Go indexes the string; a byte ≥ 0x80 is read as the Latin-1 rune of that value

type TokenKind = 'NUMBER' | 'QUANTITY' | 'IDENT' | 'CHAR' | 'EOF';
interface Token {
  kind: TokenKind;
  text: string;
  /** Line and column after the token was read (what the lexer's `Error` prints). */
  line: number;
  col: number;
}

const VALID_UNITS = new Set(['m', 'k', 'M', 'G', 'T', 'P', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi']);
const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;
const isLetter = (b: number): boolean => /\p{L}/u.test(String.fromCharCode(b));
const isSpace = (b: number): boolean => b === 0x20 || (b >= 0x09 && b <= 0x0d) || b === 0x85 || b === 0xa0;

class Lexer {
  private pos = 0;
  private line = 1;
  private col = 1;
  constructor(private readonly input: Uint8Array) {}

  private peek(): number {
    return this.pos < this.input.length ? this.input[this.pos] : 0;
  }

  private next(): number {
    if (this.pos >= this.input.length) return 0;
    const b = this.input[this.pos++];
    if (b === 0x0a) {
      this.line++;
      this.col = 1;
    } else this.col++;
    return b;
  }

  private text(start: number): string {
    return Buffer.from(this.input.subarray(start, this.pos)).toString('utf8');
  }

  /** `readNumber`: digits, one `.`, one exponent `e±d`, one `%`, then letters as a unit (ending the token). */
  private readNumber(): string {
    const start = this.pos;
    let seenDot = false;
    let seenE = false;
    let seenPercent = false;
    let expectExponentDigit = false;
    for (;;) {
      const r = this.peek();
      if (r === 0) break;
      if (isDigit(r)) {
        expectExponentDigit = false;
        this.next();
      } else if (r === 0x2e) {
        if (seenDot || seenE || seenPercent) break;
        seenDot = true;
        this.next();
      } else if (r === 0x65 || r === 0x45) {
        if (seenE || seenPercent) break;
        seenE = true;
        expectExponentDigit = true;
        this.next();
      } else if (r === 0x2b || r === 0x2d) {
        if (!expectExponentDigit) break;
        expectExponentDigit = false;
        this.next();
      } else if (r === 0x25) {
        if (seenPercent) break;
        seenPercent = true;
        this.next();
      } else if (isLetter(r)) {
        if (expectExponentDigit) break;
        while (isLetter(this.peek())) this.next();
        break;
      } else break;
    }
    return this.text(start);
  }

  private token(kind: TokenKind, text: string): Token {
    return { kind, text, line: this.line, col: this.col };
  }

  lex(): Token {
    while (this.peek() !== 0 && isSpace(this.peek())) this.next();
    const r = this.next();
    if (r === 0) return this.token('EOF', '');
    if ('+-*/(),'.includes(String.fromCharCode(r))) return this.token('CHAR', String.fromCharCode(r));
    if (r === 0x2e || isDigit(r)) {
      this.pos--;
      this.col--;
      const n = this.readNumber();
      return this.token(isQuantityToken(n) ? 'QUANTITY' : 'NUMBER', n);
    }
    if (isLetter(r)) {
      this.pos--;
      this.col--;
      const start = this.pos;
      while (isLetter(this.peek()) || isDigit(this.peek()) || this.peek() === 0x5f) this.next();
      return this.token('IDENT', this.text(start));
    }
    return this.token('CHAR', String.fromCharCode(r));
  }
}

/** `isQuantity`: a numeric part (digits, `.`, `e`, `E`, `+`, `-`) then exactly one of the units OpenKruise lists. */
function isQuantityToken(s: string): boolean {
  const m = /^[0-9.eE+-]+/.exec(s);
  return m !== null && VALID_UNITS.has(s.slice(m[0].length));
}

/** `parseNumber`: Go's `ParseFloat`, `%` divides by 100; what Go cannot parse is 0 (the grammar drops the error). */
function parseNumber(s: string): number {
  const percent = s.endsWith('%');
  const body = percent ? s.slice(0, -1) : s;
  if (!/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(body)) return 0;
  const f = Number(body);
  if (percent) return Number.isFinite(f) ? f / 100 : 0; // out of range: Go returns (0, err) for a percent
  return f;
}

// ---- the grammar's actions (calculator.y)

class Evaluation {
  lastError: string | undefined;
  constructor(private readonly variables: ReadonlyMap<string, CalcValue>) {}

  fail(message: string): undefined {
    this.lastError = message;
    return undefined;
  }

  toQuantity(v: CalcValue): QuantityValue {
    return v.kind === 'quantity' ? v.quantity : milliQuantity(goInt64(v.number * 1000));
  }

  add(l: CalcValue | undefined, r: CalcValue | undefined): CalcValue | undefined {
    if (!l || !r) return undefined;
    if (l.kind === 'number' && r.kind === 'number') return num(l.number + r.number);
    return qty(addQuantity(this.toQuantity(l), this.toQuantity(r)));
  }

  sub(l: CalcValue | undefined, r: CalcValue | undefined): CalcValue | undefined {
    if (!l || !r) return undefined;
    if (l.kind === 'number' && r.kind === 'number') return num(l.number - r.number);
    return qty(addQuantity(this.toQuantity(l), negQuantity(this.toQuantity(r))));
  }

  mul(l: CalcValue | undefined, r: CalcValue | undefined): CalcValue | undefined {
    if (!l || !r) return undefined;
    if (l.kind === 'quantity' && r.kind === 'quantity') return this.fail('multiplication of two quantities');
    if (l.kind === 'quantity' && r.kind === 'number')
      return qty(withMilli(l.quantity, goInt64(Number(milliValue(l.quantity)) * r.number)));
    if (r.kind === 'quantity' && l.kind === 'number')
      return qty(withMilli(r.quantity, goInt64(Number(milliValue(r.quantity)) * l.number)));
    return num((l as { number: number }).number * (r as { number: number }).number);
  }

  div(l: CalcValue | undefined, r: CalcValue | undefined): CalcValue | undefined {
    if (!l || !r) return undefined;
    if (r.kind === 'quantity') return this.fail('division by quantity');
    if (r.number === 0) return this.fail('division by zero');
    if (l.kind === 'quantity')
      return qty(withMilli(l.quantity, goInt64(Number(milliValue(l.quantity)) / r.number)));
    return num(l.number / r.number);
  }

  /** `callFunc`, `maxFunc`, `minFunc`: the argument count is checked before the arguments are. */
  call(name: string, args: (CalcValue | undefined)[]): CalcValue | undefined {
    const fn = name.toLowerCase();
    if (fn !== 'max' && fn !== 'min') return this.fail(`unknown function: ${name}`);
    if (args.length !== 2)
      return this.fail(`${fn} function requires exactly 2 arguments, got ${args.length}`);
    const [l, r] = args;
    if (!l || !r) return undefined;
    if (l.kind === 'number' && r.kind === 'number') {
      const left = fn === 'max' ? l.number >= r.number : l.number <= r.number;
      return num(left ? l.number : r.number);
    }
    const lq = this.toQuantity(l);
    const rq = this.toQuantity(r);
    const c = cmpQuantity(lq, rq);
    return qty((fn === 'max' ? c >= 0 : c <= 0) ? lq : rq);
  }

  variable(name: string): CalcValue | undefined {
    const key = name.toLowerCase();
    const v = this.variables.get(key);
    return v ?? this.fail(`undefined variable: ${key}`);
  }
}

class ParseAbort extends Error {}

class Parser {
  private tok: Token;
  private syntaxError: string | undefined;
  constructor(
    private readonly lexer: Lexer,
    private readonly ev: Evaluation,
  ) {
    this.tok = lexer.lex();
  }

  private advance(): void {
    this.tok = this.lexer.lex();
  }

  private isChar(c: string): boolean {
    return this.tok.kind === 'CHAR' && this.tok.text === c;
  }

  private fail(): never {
    this.syntaxError = `parse error: syntax error at line ${this.tok.line}, col ${this.tok.col}`;
    throw new ParseAbort();
  }

  private expect(c: string): void {
    if (!this.isChar(c)) this.fail();
    this.advance();
  }

  /** The whole input; `undefined` with `syntaxError` set when it is not a sentence of the grammar. */
  run(): { value: CalcValue | undefined; syntaxError: string | undefined } {
    try {
      const value = this.expr();
      if (this.tok.kind !== 'EOF') this.fail();
      return { value, syntaxError: undefined };
    } catch (e) {
      if (e instanceof ParseAbort) return { value: undefined, syntaxError: this.syntaxError };
      throw e;
    }
  }

  private expr(): CalcValue | undefined {
    let v = this.term();
    while (this.isChar('+') || this.isChar('-')) {
      const op = this.tok.text;
      this.advance();
      const r = this.term();
      v = op === '+' ? this.ev.add(v, r) : this.ev.sub(v, r);
      if (!v && this.ev.lastError === undefined)
        this.ev.lastError = `invalid ${op === '+' ? 'addition' : 'subtraction'} operation`;
    }
    return v;
  }

  private term(): CalcValue | undefined {
    let v = this.factor();
    while (this.isChar('*') || this.isChar('/')) {
      const op = this.tok.text;
      this.advance();
      const r = this.factor();
      v = op === '*' ? this.ev.mul(v, r) : this.ev.div(v, r);
      if (!v && this.ev.lastError === undefined)
        this.ev.lastError = `invalid ${op === '*' ? 'multiplication' : 'division'} operation`;
    }
    return v;
  }

  private factor(): CalcValue | undefined {
    const t = this.tok;
    if (t.kind === 'NUMBER') {
      this.advance();
      return num(parseNumber(t.text));
    }
    if (t.kind === 'QUANTITY') {
      this.advance();
      try {
        return qty(parseQuantityValue(t.text));
      } catch (e) {
        if (e instanceof QuantityParseError) return this.ev.fail(e.message);
        throw e;
      }
    }
    if (t.kind === 'IDENT') {
      this.advance();
      if (!this.isChar('(')) return this.ev.variable(t.text);
      this.advance();
      const args = [this.expr()];
      if (this.isChar(',')) {
        this.advance();
        args.push(this.expr());
      }
      this.expect(')');
      const v = this.ev.call(t.text, args);
      if (!v && this.ev.lastError === undefined) this.ev.lastError = 'function call failed';
      return v;
    }
    if (this.isChar('(')) {
      this.advance();
      const v = this.expr();
      this.expect(')');
      return v;
    }
    if (this.isChar('-')) {
      this.advance();
      const v = this.factor();
      if (!v) return undefined;
      return v.kind === 'quantity' ? qty(negQuantity(v.quantity)) : num(-v.number);
    }
    return this.fail();
  }
}

/**
 * `Calculator.Parse` with `variables` set: the value of `expr`.
 * @param variables by lower-case name (`cpu`, `memory`); a name not here is `undefined variable: <name>`
 * @throws ResourceExpressionError with the calculator's message: the last semantic error, else the syntax error,
 *   else `calculation result is negative: <value>`
 */
export function evaluateExpression(expr: string, variables: ReadonlyMap<string, CalcValue>): CalcValue {
  const ev = new Evaluation(variables);
  const { value, syntaxError } = new Parser(new Lexer(Buffer.from(expr, 'utf8')), ev).run();
  if (syntaxError !== undefined) throw new ResourceExpressionError(ev.lastError ?? syntaxError);
  if (!value) throw new ResourceExpressionError(ev.lastError ?? 'no result from parser');
  if (value.kind === 'quantity' && value.quantity.nano < 0n)
    throw new ResourceExpressionError(`calculation result is negative: ${quantityString(value.quantity)}`);
  if (value.kind === 'number' && value.number < 0)
    throw new ResourceExpressionError(`calculation result is negative: ${goFormatG(value.number)}`);
  return value;
}

/**
 * Upstream `validateResourceExpression` (the SidecarSet validating webhook): `expr` evaluated with `variable` bound to
 * the number 1; an empty expression is fine.
 * @returns the calculator's error message, or undefined when the expression evaluates
 */
export function resourceExpressionProblem(expr: string, variable: 'cpu' | 'memory'): string | undefined {
  if (expr === '') return undefined;
  try {
    evaluateExpression(expr, new Map([[variable, num(1)]]));
    return undefined;
  } catch (e) {
    if (e instanceof ResourceExpressionError) return e.message;
    throw e;
  }
}
