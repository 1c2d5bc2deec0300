/**
 * `tsx scripts/hollow.ts <ledger>`: the end of `.ci/run`. Reads the hollow-run ledger the suites wrote (env
 * KRUISELESS_HOLLOW_LEDGER during the run, infra/reference/hollow.ts) and the builds' recorded outcomes
 * (infra/reference/buildStatus.ts), and prints ONE line: `HOLLOW: <suites> did not run: <why> — <verdict>` when a
 * suite only checked its skip message, else that none skipped. Exit code 1 when the run must fail: `CI=true`
 * and a missing build that an unreachable registry does not excuse; else 0.
 */
import { readBuildStatus } from '../infra/reference/buildStatus.js';
import { hollowVerdict, readHollowLedger } from '../infra/reference/hollow.js';

const [ledger] = process.argv.slice(2);
if (!ledger) {
  console.error('usage: tsx scripts/hollow.ts <ledger file>');
  process.exit(2);
}
const ci = /^(true|1)$/i.test(process.env.CI ?? '');
const verdict = hollowVerdict(
  readHollowLedger(ledger),
  { openkruise: readBuildStatus('openkruise'), 'kubectl-kruise': readBuildStatus('kubectl-kruise') },
  ci,
);
console.log(
  verdict?.line ??
    '[ci] no hollow run: no suite skipped for lack of the OpenKruise reference or kubectl-kruise',
);
process.exit(verdict?.fail ? 1 : 0);
