/** The parts `npm run bench -- --only <list>` selects (bench/support/parts.ts). */
import { describe, expect, it } from '@jest/globals';
import { PARTS, selectParts } from '../../../bench/support/parts.js';

describe('selectParts', () => {
  it('selects every part without --only', () => {
    expect([...selectParts(undefined)]).toEqual([
      'packaging',
      'planner',
      'rollout',
      'asts',
      'ads',
      'reaction',
      'noop',
      'fleet',
    ]);
    expect(PARTS).toHaveLength(8);
  });
  it('selects the listed parts', () => {
    expect([...selectParts('fleet,rollout')]).toEqual(['fleet', 'rollout']);
    expect([...selectParts(' fleet , ')]).toEqual(['fleet']);
    expect([...selectParts('asts')]).toEqual(['asts']);
    expect([...selectParts('ads')]).toEqual(['ads']);
  });
  it('refuses a name that is no part, in one line, before anything starts', () => {
    expect(() => selectParts('rollout,fleets')).toThrow(
      new Error(
        'bench: --only names no part fleets; the parts are packaging, planner, rollout, asts, ads, reaction, noop, fleet',
      ),
    );
    expect(() => selectParts(',')).toThrow(
      new Error(
        'bench: --only is empty; the parts are packaging, planner, rollout, asts, ads, reaction, noop, fleet',
      ),
    );
  });
});
