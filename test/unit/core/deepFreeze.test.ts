/** lib/core/deepFreeze.ts: every level frozen, the same value returned, a frozen value left as it is. */
import { describe, expect, it } from '@jest/globals';
import { deepFreeze } from '../../../lib/core/deepFreeze.js';

describe('deepFreeze', () => {
  it('freezes objects and arrays at every depth and returns the value itself', () => {
    const pod = {
      metadata: { labels: { a: 'b' } },
      spec: { containers: [{ name: 'main', ports: [{ p: 80 }] }] },
    };
    expect(deepFreeze(pod)).toBe(pod);
    expect(Object.isFrozen(pod)).toBe(true);
    expect(Object.isFrozen(pod.metadata.labels)).toBe(true);
    expect(Object.isFrozen(pod.spec.containers)).toBe(true);
    expect(Object.isFrozen(pod.spec.containers[0].ports[0])).toBe(true);
    expect(() => {
      pod.metadata.labels.a = 'c';
    }).toThrow(TypeError);
    expect(() => pod.spec.containers.push({ name: 'x', ports: [] })).toThrow(TypeError);
  });

  it('leaves primitives and null as they are', () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze('x')).toBe('x');
    expect(deepFreeze(null)).toBeNull();
  });

  it('takes a frozen object as frozen all the way down (only deepFreeze freezes, parents last)', () => {
    const inner = { x: 1 };
    const outer = Object.freeze({ inner });
    deepFreeze(outer);
    expect(Object.isFrozen(inner)).toBe(false);
  });
});
