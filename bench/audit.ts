/**
 * `npx tsx bench/audit.ts [--phase rollout|scale-up] <audit.log>...`: the requests of each bench run in each audit
 * log, by client, as Markdown tables (bench/support/audit.ts). The logs are written when the control planes were
 * started with `KRUISELESS_AUDIT_LOG=1`: Kruiseless's at `.kruiseless/logs/audit.log`, OpenKruise's reference at
 * `~/.cache/kruiseless/reference-cluster/logs/audit.log` (BENCHMARKS.md#cloneset-audit).
 */
import { readFileSync } from 'node:fs';
import {
  attributePhase,
  attributionTable,
  benchNamespaces,
  parseAuditLog,
  type Phase,
} from './support/audit.js';

function main(argv: string[]): void {
  let phase: Phase = 'rollout';
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--phase') phase = argv[++i] === 'scale-up' ? 'scale-up' : 'rollout';
    else files.push(argv[i]);
  }
  if (files.length === 0) {
    console.error('usage: npx tsx bench/audit.ts [--phase rollout|scale-up] <audit.log>...');
    process.exit(2);
  }
  for (const file of files) {
    const events = parseAuditLog(readFileSync(file, 'utf8'));
    for (const ns of benchNamespaces(events)) {
      const pods = Number(/-(\d+)-\d+-[a-z0-9]+$/.exec(ns)?.[1] ?? 0);
      try {
        const a = attributePhase(events, ns, phase);
        console.log(`\n${file}: ${ns}, ${phase}, ${a.from} → ${a.to}, ${a.total} requests\n`);
        console.log(attributionTable(a, pods));
      } catch (e) {
        console.log(`\n${file}: ${ns}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}

main(process.argv.slice(2));
