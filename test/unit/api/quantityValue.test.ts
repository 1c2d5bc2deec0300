/**
 * lib/api/quantityValue.ts: apimachinery's `resource.Quantity` as a value — `ParseQuantity` (its errors, the text it
 * keeps, nano rounding), `Add`'s format rule, `MilliValue`'s rounding and `String()`'s canonical forms. The
 * expected values are what Go's apimachinery v0.32 printed for the same calls; the calculator's golden answers
 * (test/unit/controllers/sidecarset/plan/calculator-golden) check them against Go too.
 */
import {
  addQuantity,
  goInt64,
  milliValue,
  negQuantity,
  parseQuantityValue,
  quantityString,
  ZERO_QUANTITY,
} from '../../../lib/api/quantityValue.js';

const s = (text: string): string => quantityString(parseQuantityValue(text));

describe('resource.Quantity as a value', () => {
  it('String() is the canonical text', () => {
    expect(
      ['1000m', '0.5', '1024Ki', '1.5Gi', '1536Mi', '0.1Mi', '1e3', '1000', '0.0000000001', '00', '-2k'].map(
        s,
      ),
    ).toEqual(['1', '500m', '1Mi', '1536Mi', '1536Mi', '104857600m', '1e3', '1k', '1n', '0', '-2k']);
  });

  it('ParseQuantity refuses with apimachinery’s messages', () => {
    expect(() => parseQuantityValue('')).toThrow(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    expect(() => parseQuantityValue('1e5m')).toThrow('quantities must match the regular expression');
    expect(() => parseQuantityValue('1Mb')).toThrow('quantities must match the regular expression');
    expect(() => parseQuantityValue('1Mk')).toThrow("unable to parse quantity's suffix");
    expect(() => parseQuantityValue('1e')).toThrow("unable to parse quantity's suffix");
  });

  it('a zero receiver takes the addend’s format; otherwise the receiver’s is kept', () => {
    expect(quantityString(addQuantity(ZERO_QUANTITY, parseQuantityValue('1Mi')))).toBe('1Mi');
    expect(quantityString(addQuantity(parseQuantityValue('1Ki'), parseQuantityValue('1k')))).toBe('2024');
    expect(quantityString(addQuantity(parseQuantityValue('1k'), parseQuantityValue('1Ki')))).toBe('2024');
    expect(quantityString(negQuantity(parseQuantityValue('1Mi')))).toBe('-1Mi');
  });

  it('MilliValue rounds a finer remainder away from zero; int64(f) truncates, out of range is -2^63', () => {
    expect([milliValue(parseQuantityValue('1n')), milliValue(parseQuantityValue('-1n'))]).toEqual([1n, -1n]);
    expect([goInt64(2.9), goInt64(-2.9), goInt64(NaN), goInt64(1e300)]).toEqual([
      2n,
      -2n,
      -(2n ** 63n),
      -(2n ** 63n),
    ]);
  });
});
