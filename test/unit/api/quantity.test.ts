import { canonicalQuantity } from '../../../lib/api/quantity.js';

/**
 * Each pair: a quantity as written, and what apimachinery v0.32's `ParseQuantity` then `RoundUp(-3)` (Kubernetes'
 * `SetDefaults_ResourceList`) then `String()` printed for it (a Go program run against the module, 2026-12-02).
 */
const GO: [string, string][] = [
  ['10E3', '10E3'],
  ['1.5E3', '1500'],
  ['1E-3', '1E-3'],
  ['2E2', '200'],
  ['3E0', '3E0'],
  ['1E6', '1E6'],
  ['100E-3', '100E-3'],
  ['5e0', '5e0'],
  ['05', '05'],
  ['007m', '007m'],
  ['0.50', '500m'],
  ['+1', '+1'],
  ['1.0', '1'],
  ['1000000k', '1G'],
  ['1000000Ki', '1000000Ki'],
  ['1048576Ki', '1Gi'],
  ['0.5Ki', '512'],
  ['1.5Ki', '1536'],
  ['0.5', '500m'],
  ['1000m', '1'],
  ['1500m', '1500m'],
  ['1.5', '1500m'],
  ['100Mi', '100Mi'],
  ['1024Mi', '1Gi'],
  ['1.5Gi', '1536Mi'],
  ['0.5Gi', '512Mi'],
  ['0.1Ki', '102400m'],
  ['1e3', '1e3'],
  ['1E3', '1E3'],
  ['2e-3', '2e-3'],
  ['1e-4', '1e-3'],
  ['0.0001', '1m'],
  ['100', '100'],
  ['1k', '1k'],
  ['1000', '1k'],
  ['12345678', '12345678'],
  ['1.234567891', '1235m'],
  ['500u', '1m'],
  ['0', '0'],
  ['0.000', '0'],
  ['1Ki', '1Ki'],
  ['1023', '1023'],
  ['1025Ki', '1025Ki'],
  ['2048', '2048'],
  ['1024', '1024'],
  ['-1', '-1'],
  ['1e6', '1e6'],
  ['10e3', '10e3'],
  ['1.5e3', '1500'],
  ['100M', '100M'],
  ['5Ei', '5Ei'],
  ['0.1m', '1m'],
  ['1e21', '1e21'],
  ['3E2', '300'],
  ['8Ki', '8Ki'],
  ['9Ki', '9Ki'],
  ['16Mi', '16Mi'],
  ['250m', '250m'],
  ['2500m', '2500m'],
  ['0.25', '250m'],
  ['64Mi', '64Mi'],
  ['128974848', '128974848'],
  ['129e6', '129e6'],
  ['129M', '129M'],
  ['123Mi', '123Mi'],
  ['1.5m', '2m'],
  ['1500u', '2m'],
  ['10', '10'],
  ['-0.5', '-500m'],
  ['1234567890123456789', '1234567890123456789'],
];

describe("canonicalQuantity is Go's resource.Quantity text after the milli rounding", () => {
  test.each(GO)('%s → %s', (written, go) => {
    expect(canonicalQuantity(written)).toBe(go);
  });

  test('text that is not a quantity is left as it is', () => {
    expect(['', 'abc', '1x', '.', '1.2.3'].map(canonicalQuantity)).toEqual(['', 'abc', '1x', '.', '1.2.3']);
  });
});
