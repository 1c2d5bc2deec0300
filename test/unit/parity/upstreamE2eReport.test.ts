/**
 * The upstream e2e report parser and table, on a real ginkgo JSON report: OpenKruise v1.9.0's suite run against
 * OpenKruise on the local control plane (`npm run parity:upstream-e2e -- --controller openkruise`), cut down to
 * five of its 337 spec reports (two filtered out by the focus, two passed, one failed) with long captured output
 * shortened.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  GinkgoReportError,
  parseGinkgoReport,
  renderUpstreamE2eTable,
  upstreamE2eSummary,
} from '../../parity/upstreamE2eReport.js';

const FIXTURE = readFileSync(
  path.join(import.meta.dirname, 'fixtures', 'ginkgo-report-openkruise-v1.9.0.json'),
  'utf8',
);

describe('parseGinkgoReport', () => {
  it('returns the specs that ran, in order, with state, seconds and where a failure happened', () => {
    expect(parseGinkgoReport(FIXTURE)).toEqual([
      {
        name: 'CloneSet CloneSet Scaling specific delete a Pod, when scalingExcludePreparingDelete is disabled',
        state: 'passed',
        seconds: 20.4,
      },
      {
        name: 'CloneSet CloneSet Scaling specific scale down with lifecycle and then scale up, when scalingExcludePreparingDelete is enabled',
        state: 'failed',
        seconds: 13.3,
        failure: expect.stringMatching(
          /^Expected <\*v1alpha1\.CloneSetCondition \| 0x[0-9a-f]+>: \{ Type: "Progressing"/,
        ),
        where: 'cloneset.go:650',
      },
      {
        name: 'CloneSet CloneSet Updating CloneSet regard preparing-update pod as update when scaling',
        state: 'passed',
        seconds: 158.4,
      },
    ]);
  });

  it('with ran=false also lists the specs the focus left out (skipped, no run time)', () => {
    const all = parseGinkgoReport(FIXTURE, false);
    expect(all.map((s) => s.state)).toEqual(['skipped', 'passed', 'failed', 'skipped', 'passed']);
    expect(all[0]?.seconds).toBe(0);
  });

  it('with byFile, each name starts with its spec file, so two files with the same spec names keep a row each', () => {
    expect(parseGinkgoReport(FIXTURE, true, true).map((s) => s.name)).toEqual([
      'v1alpha1/cloneset.go: CloneSet CloneSet Scaling specific delete a Pod, when scalingExcludePreparingDelete is disabled',
      'v1alpha1/cloneset.go: CloneSet CloneSet Scaling specific scale down with lifecycle and then scale up, when scalingExcludePreparingDelete is enabled',
      'v1alpha1/cloneset.go: CloneSet CloneSet Updating CloneSet regard preparing-update pod as update when scaling',
    ]);
    const v1beta1 = FIXTURE.replaceAll('/apps/v1alpha1/cloneset.go', '/apps/v1beta1/cloneset.go');
    const both = [...parseGinkgoReport(FIXTURE, true, true), ...parseGinkgoReport(v1beta1, true, true)];
    expect(upstreamE2eSummary({ openkruise: both, kruiseless: both })).toBe(
      'upstream-e2e: 6 specs, OpenKruise 4 passed, Kruiseless 4 passed, 0 pass on OpenKruise only',
    );
  });

  it.each([
    ['not JSON', 'not a ginkgo JSON report: '],
    ['{"SpecReports":[]}', 'not a ginkgo JSON report: '],
    ['[{"SpecReports":[{"LeafNodeType":"It","State":"green"}]}]', 'not a ginkgo JSON report: '],
  ])('%s is refused', (text, message) => {
    expect(() => parseGinkgoReport(text)).toThrow(GinkgoReportError);
    expect(() => parseGinkgoReport(text)).toThrow(message);
  });
});

describe('the table and the summary line', () => {
  const openkruise = parseGinkgoReport(FIXTURE);
  const kruiseless = openkruise.map((s, i) => ({ ...s, state: i === 0 ? ('failed' as const) : s.state }));

  it('one row per spec, pass / FAIL (<state>) per controller, - for a controller not run', () => {
    const lines = renderUpstreamE2eTable({ openkruise, kruiseless });
    expect(lines).toHaveLength(5);
    expect(lines[2]).toMatch(/^CloneSet CloneSet Scaling specific delete a Pod, .* +pass +FAIL \(failed\)$/);
    expect(lines[3]).toMatch(/ +FAIL \(failed\) +FAIL \(failed\)$/);
    expect(lines[4]).toMatch(/preparing-update pod as update when scaling +pass +pass$/);
    expect(renderUpstreamE2eTable({ openkruise })[4]).toMatch(/ +pass +-$/);
  });

  it('counts specs, passes per controller and the specs that pass on OpenKruise only', () => {
    expect(upstreamE2eSummary({ openkruise, kruiseless })).toBe(
      'upstream-e2e: 3 specs, OpenKruise 2 passed, Kruiseless 1 passed, 1 pass on OpenKruise only',
    );
    expect(upstreamE2eSummary({ openkruise })).toBe(
      'upstream-e2e: 3 specs, OpenKruise 2 passed, Kruiseless 0 passed, 2 pass on OpenKruise only',
    );
  });
});
