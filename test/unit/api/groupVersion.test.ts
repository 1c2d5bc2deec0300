/** apimachinery's `schema.ParseGroupVersion` cases, as lib/api/groupVersion.ts reads them. */
import { describe, expect, it } from '@jest/globals';
import { parseGroupVersion } from '../../../lib/api/groupVersion.js';

describe('parseGroupVersion', () => {
  it('reads the empty, core, grouped and malformed forms', () => {
    expect(parseGroupVersion('')).toEqual({ group: '', version: '' });
    expect(parseGroupVersion('/')).toEqual({ group: '', version: '' });
    expect(parseGroupVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(parseGroupVersion('apps.kruise.io/v1alpha1')).toEqual({
      group: 'apps.kruise.io',
      version: 'v1alpha1',
    });
    expect(parseGroupVersion('a/b/c')).toEqual({ error: 'unexpected GroupVersion string: a/b/c' });
  });
});
