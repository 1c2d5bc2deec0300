/** The progress lines of the cold Go builds (infra/local/progress.ts), on a fake clock. */
import { fmtSecs, goCompileProgress } from '../../../infra/local/progress.js';

test('a line at most every 15 s with percent, count, elapsed and ETA; downloads are not packages', () => {
  let t = 1_000_000;
  const lines: string[] = [];
  const onLine = goCompileProgress({
    label: '[build] step 2/2 kwok',
    total: 1000,
    log: (l) => lines.push(l),
    now: () => t,
  });
  onLine('go: downloading sigs.k8s.io/kwok v0.7.0');
  for (let i = 0; i < 10; i++) onLine(`pkg${i}`); // 1 % after 0 s: too early for a line
  t += 15_000;
  onLine('pkg10'); // 11 packages after 15 s: 1 %, no ETA yet (under 2 %)
  for (let i = 11; i < 250; i++) onLine(`pkg${i}`);
  t += 15_000;
  onLine('pkg250'); // 251 packages after 30 s: 25 %, ETA 30 × 0.749 / 0.251 ≈ 90 s
  t += 1_000;
  onLine('pkg251'); // within 15 s of the last line: silent
  onLine(''); // blank: ignored
  expect(lines).toEqual([
    '[build] step 2/2 kwok: 1% (11/1000 packages), 15s',
    '[build] step 2/2 kwok: 25% (251/1000 packages), 30s, ETA 1m30s',
  ]);
});

test('fmtSecs', () => {
  expect([fmtSecs(0), fmtSecs(42_400), fmtSecs(65_000), fmtSecs(600_000)]).toEqual([
    '0s',
    '42s',
    '1m05s',
    '10m00s',
  ]);
});
