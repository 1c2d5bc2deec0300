/**
 * serverless.yml agrees with the controller registrations (it is written by hand, not generated: its resources,
 * IAM and alarms are not per kind): every registered kind's requests reach the reconcile function, and every
 * controller flag a registration reads from the environment is set there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { CONTROLLERS, KNOWN_KINDS } from '../../../lib/controllers/index.js';
import { loadRulesFromServerless, matchesPattern } from '../../../lib/emulator/index.js';
import { DETAIL_TYPE, EVENT_VERSION, SOURCE, parseReconcileEvent } from '../../../lib/requests/index.js';

const TEXT = readFileSync(new URL('../../../serverless.yml', import.meta.url), 'utf8');

describe('serverless.yml and the registrations', () => {
  it("routes every registered kind's reconcile requests to the reconcile function", () => {
    const [rule] = loadRulesFromServerless(TEXT).filter((r) => r.functionName === 'reconcile');
    for (const c of CONTROLLERS) {
      const detail = {
        version: EVENT_VERSION,
        cluster: 'prod',
        kind: c.kind,
        ...(c.resource.namespaced ? { namespace: 'default' } : {}),
        name: 'x',
        reason: 'Resync',
      };
      const event = { source: SOURCE, 'detail-type': DETAIL_TYPE, detail };
      expect(parseReconcileEvent(event, KNOWN_KINDS)).toMatchObject({ kind: c.kind });
      expect(matchesPattern(rule.pattern, event)).toBe(true);
    }
  });

  it('sets every controller flag variable in the functions’ environment', () => {
    // provider.environment, as the text writes it (the file's CloudFormation tags need the emulator's parser)
    const block = /^ {2}environment:\n((?: {4}.*\n| *#.*\n)+)/m.exec(TEXT)?.[1] ?? '';
    const set = new Set([...block.matchAll(/^ {4}([A-Z0-9_]+):/gm)].map((m) => m[1]));
    expect(set.has('KRUISELESS_FEATURE_GATES')).toBe(true);
    const wanted = CONTROLLERS.flatMap((c) => c.settings.flags.map((f) => f.env));
    expect(wanted.length).toBeGreaterThan(0);
    expect(wanted.filter((env) => !set.has(env))).toEqual([]);
  });
});
