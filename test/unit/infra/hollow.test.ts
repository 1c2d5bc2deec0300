/**
 * Hollow runs (infra/reference/hollow.ts): the suites that only checked their skip message are named in ONE line,
 * and under CI=true the run fails unless every missing build failed because the registry was unreachable.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { BuildStatus } from '../../../infra/reference/buildStatus.js';
import {
  excused,
  HOLLOW_LEDGER_ENV,
  hollowVerdict,
  lastBuildNote,
  readHollowLedger,
  recordHollow,
  type HollowSuite,
} from '../../../infra/reference/hollow.js';

const AT = '2026-12-01T10:00:00.000Z';
const NOT_BUILT =
  'OpenKruise v1.9.0 is not built (no /c/openkruise-v1.9.0/.stamp); `npm run reference:build` builds it';
const KK_NOT_BUILT =
  'kubectl-kruise v1.2.2 is not built (no /c/kruise-tools-v1.2.2/.stamp); `npm run kubectl-kruise:build` builds it';
const UNREACHABLE =
  'go mod download github.com/openkruise/kruise@v1.9.0 failed: github.com/openkruise/kruise@v1.9.0: Get "https://proxy.golang.org/github.com/openkruise/kruise/@v/v1.9.0.info": dial tcp: lookup proxy.golang.org: no such host';

/** UNREACHABLE as the line shows it: 200 characters, both ends kept. */
const SHORT = `${UNREACHABLE.slice(0, 99)}…${UNREACHABLE.slice(-100)}`;

const failed = (
  component: BuildStatus['component'],
  version: string,
  error: string,
  cause: BuildStatus['cause'],
): BuildStatus => ({
  component,
  version,
  outcome: 'failed',
  error,
  cause,
  at: AT,
});

const reference: HollowSuite[] = [
  { suite: 'switch', component: 'openkruise', reason: NOT_BUILT },
  { suite: 'parity:quick', component: 'openkruise', reason: NOT_BUILT },
  { suite: 'reference', component: 'openkruise', reason: NOT_BUILT },
];
const kubectlKruise: HollowSuite = {
  suite: 'kubectl-kruise',
  component: 'kubectl-kruise',
  reason: KK_NOT_BUILT,
};

describe('hollowVerdict', () => {
  it('says nothing when every suite ran', () => {
    expect(hollowVerdict([], {}, true)).toBeUndefined();
  });

  it('an unreachable registry: one line naming every hollow suite, and CI passes', () => {
    const verdict = hollowVerdict(
      [...reference, kubectlKruise, reference[0]],
      {
        openkruise: failed('openkruise', 'v1.9.0', UNREACHABLE, 'registry-unreachable'),
        'kubectl-kruise': failed(
          'kubectl-kruise',
          'v1.2.2',
          'go mod download github.com/openkruise/kruise-tools@v1.2.2 failed: github.com/openkruise/kruise-tools@v1.2.2: Get "https://proxy.golang.org/x": dial tcp 1.2.3.4:443: i/o timeout',
          'registry-unreachable',
        ),
      },
      true,
    );
    expect(verdict).toEqual({
      line:
        'HOLLOW: reference, switch, kubectl-kruise, parity:quick did not run: ' +
        `OpenKruise v1.9.0 not built: registry unreachable (${SHORT}) [reference, switch, parity:quick]; ` +
        'kubectl-kruise v1.2.2 not built: registry unreachable (go mod download github.com/openkruise/kruise-tools@v1.2.2 failed: github.com/openkruise/kruise-tools@v1.2.2: Get "https://proxy.golang.org/x": dial tcp 1.2.3.4:443: i/o timeout) [kubectl-kruise]' +
        ' — not failing: the registry is unreachable',
      fail: false,
    });
  });

  it('a build that failed otherwise fails CI=true, and only says so outside CI', () => {
    const statuses = {
      openkruise: failed(
        'openkruise',
        'v1.9.0',
        'go build . exited with 1:\npkg/x.go:1:2: undefined: Foo',
        'build-failed',
      ),
    };
    const ci = hollowVerdict(reference, statuses, true);
    expect(ci).toEqual({
      line:
        'HOLLOW: reference, switch, parity:quick did not run: OpenKruise v1.9.0 not built: build failed ' +
        '(pkg/x.go:1:2: undefined: Foo) — failing (CI=true): only an unreachable registry excuses a hollow run',
      fail: true,
    });
    const local = hollowVerdict(reference, statuses, false);
    expect(local?.fail).toBe(false);
    expect(local?.line).toMatch(/ — CI=true would fail: only an unreachable registry excuses a hollow run$/);
  });

  it('one component unreachable and one not still fails CI', () => {
    const verdict = hollowVerdict(
      [...reference, kubectlKruise],
      { openkruise: failed('openkruise', 'v1.9.0', UNREACHABLE, 'registry-unreachable') },
      true,
    );
    expect(verdict?.fail).toBe(true);
    expect(verdict?.line).toContain(
      `; ${KK_NOT_BUILT} (no build recorded) [kubectl-kruise] — failing (CI=true)`,
    );
  });

  it('no build recorded, a build that never finished, or a missing control plane are not excused', () => {
    expect(hollowVerdict([kubectlKruise], {}, true)).toEqual({
      line: `HOLLOW: kubectl-kruise did not run: ${KK_NOT_BUILT} (no build recorded) — failing (CI=true): only an unreachable registry excuses a hollow run`,
      fail: true,
    });
    const building: BuildStatus = { component: 'openkruise', version: 'v1.9.0', outcome: 'building', at: AT };
    expect(hollowVerdict(reference, { openkruise: building }, true)?.line).toContain(
      `did not run: OpenKruise v1.9.0: its build did not finish (started ${AT}) — failing`,
    );
    const plane =
      'the control plane binaries are not built in /c/k8s-v1.34.4; `npm run cluster:build` builds them';
    expect(hollowVerdict([{ suite: 'switch', component: 'control-plane', reason: plane }], {}, true)).toEqual(
      {
        line: `HOLLOW: switch did not run: ${plane} — failing (CI=true): only an unreachable registry excuses a hollow run`,
        fail: true,
      },
    );
  });

  it('a fallback built because the registry was unreachable for the version asked for is excused', () => {
    const fellBack: BuildStatus = {
      component: 'openkruise',
      version: 'v1.9.0',
      outcome: 'built',
      fallback: 'v1.8.2',
      error: UNREACHABLE,
      cause: 'registry-unreachable',
      at: AT,
    };
    expect(excused(fellBack)).toBe(true);
    const verdict = hollowVerdict(reference, { openkruise: fellBack }, true);
    expect(verdict?.fail).toBe(false);
    expect(verdict?.line).toContain(
      'OpenKruise v1.9.0 not built (built v1.8.2 instead): registry unreachable (',
    );
  });
});

describe('hollowVerdict: versions', () => {
  it('a recorded build of another version than the suites needed explains nothing', () => {
    const suites = reference.map((s) => ({ ...s, version: 'v0.0.0-other' }));
    const verdict = hollowVerdict(
      suites,
      { openkruise: failed('openkruise', 'v1.9.0', UNREACHABLE, 'registry-unreachable') },
      true,
    );
    expect(verdict).toEqual({
      line: `HOLLOW: reference, switch, parity:quick did not run: ${NOT_BUILT} (no build recorded) — failing (CI=true): only an unreachable registry excuses a hollow run`,
      fail: true,
    });
    const same = hollowVerdict(
      suites.map((s) => ({ ...s, version: 'v1.9.0' })),
      { openkruise: failed('openkruise', 'v1.9.0', UNREACHABLE, 'registry-unreachable') },
      true,
    );
    expect(same?.fail).toBe(false);
  });
});

describe('excused', () => {
  it('only a recorded failure (or fallback) caused by an unreachable registry', () => {
    expect(excused(undefined)).toBe(false);
    expect(excused(failed('openkruise', 'v1.9.0', UNREACHABLE, 'registry-unreachable'))).toBe(true);
    expect(excused(failed('openkruise', 'v1.9.0', 'x', 'build-failed'))).toBe(false);
    expect(excused({ component: 'openkruise', version: 'v1.9.0', outcome: 'built', at: AT })).toBe(false);
  });
});

describe('the ledger', () => {
  let dir: string;
  const saved = { ledger: process.env[HOLLOW_LEDGER_ENV], cache: process.env.KRUISELESS_CACHE };
  const restore = (k: string, v: string | undefined): void => {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hollow-'));
    process.env.KRUISELESS_CACHE = path.join(dir, 'cache');
  });
  afterEach(() => {
    restore(HOLLOW_LEDGER_ENV, saved.ledger);
    restore('KRUISELESS_CACHE', saved.cache);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records each hollow suite when the ledger is set, and returns its reason with the last build', () => {
    const ledger = path.join(dir, 'ledger.jsonl');
    process.env[HOLLOW_LEDGER_ENV] = ledger;
    fs.mkdirSync(path.join(dir, 'cache', 'build-status'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'cache', 'build-status', 'openkruise.json'),
      JSON.stringify(failed('openkruise', 'v1.9.0', UNREACHABLE, 'registry-unreachable')),
    );
    expect(recordHollow(reference[2])).toBe(
      `${NOT_BUILT} (last build ${AT}: failed, registry unreachable (${SHORT}))`,
    );
    expect(recordHollow(kubectlKruise)).toBe(KK_NOT_BUILT);
    expect(readHollowLedger(ledger)).toEqual([reference[2], kubectlKruise]);
  });

  it('records nothing without the ledger (a developer run); a missing ledger is empty', () => {
    delete process.env[HOLLOW_LEDGER_ENV];
    expect(recordHollow(kubectlKruise)).toBe(KK_NOT_BUILT);
    expect(readHollowLedger(path.join(dir, 'none.jsonl'))).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses a line that is not a suite record', () => {
    const ledger = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(ledger, `${JSON.stringify(kubectlKruise)}\n{"suite":""}\n`);
    expect(() => readHollowLedger(ledger)).toThrow(`${ledger}:2: not a hollow suite record`);
  });
});

describe('lastBuildNote', () => {
  it('says how the last build ended', () => {
    expect(lastBuildNote(undefined)).toBe('');
    expect(lastBuildNote({ component: 'openkruise', version: 'v1.9.0', outcome: 'built', at: AT })).toBe(
      ` (last build ${AT}: built v1.9.0)`,
    );
    expect(lastBuildNote({ component: 'openkruise', version: 'v1.9.0', outcome: 'building', at: AT })).toBe(
      ` (last build ${AT}: did not finish)`,
    );
  });
});
