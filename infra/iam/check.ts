/**
 * `tsx infra/iam/check.ts <template.json>`: checks the function roles of a packaged CloudFormation template against
 * their IAM contract (./contract.ts); scripts/package-check.sh runs it on osls's template. Prints one line per
 * violation and exits 1, or one summary line and exits 0.
 */
import { readFileSync } from 'node:fs';
import { checkRoleContracts, ROLE_CONTRACTS } from './contract.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx infra/iam/check.ts <cloudformation-template.json>');
  process.exit(2);
}
const template = JSON.parse(readFileSync(file, 'utf8')) as { Resources?: Record<string, unknown> };
const problems = checkRoleContracts(template.Resources ?? {});
if (problems.length > 0) {
  console.error(problems.map((p) => `  - ${p}`).join('\n'));
  process.exit(1);
}
console.log(
  `[package-check]   IAM contract holds for ${Object.keys(ROLE_CONTRACTS).join(', ')} ` +
    '(registry read-only, writes by partition, no Scan, no EKS action, sts:AssumeRole only on clusterRoleArns)',
);
