#!/usr/bin/env bash
# Offline packaging check (osls package + cfn-lint):
#   1. `osls package --stage ci` with serverless-esbuild, no AWS credentials, no network;
#   2. every function has its zip, each bundle imports under Node with a `handler` export, and each zip is within
#      its size budget (ZIP_BUDGET_BYTES, set from the sizes measured in BENCHMARKS.md#bundles);
#   3. the template has what docs/architecture.md relies on (rule pattern, retries, DLQ, per-function roles, table shape)
#      and every IAM Allow names its actions and resources (no wildcard action, no Resource "*");
#   4. the function roles keep their IAM contract (infra/iam/contract.ts: the cluster registry read-only, each role's
#      table writes confined to its partition by dynamodb:LeadingKeys, no Scan, no unused or EKS grant,
#      sts:AssumeRole on exactly the clusterRoleArns parameter);
#   5. cfn-lint (pinned) passes on the generated template, with no rule ignored.
# Needs `npm ci` first. Usage: bash scripts/package-check.sh   (or npm run package:check)
set -euo pipefail
cd "$(dirname "$0")/.."

# cfn-lint release pinned here; it is the one preinstalled on the project's machine image. Elsewhere it is installed
# into a virtualenv under ~/.cache/kruiseless/ (needs python3 with venv and access to PyPI).
CFN_LINT_VERSION=1.51.0
STAGE=ci
FUNCTIONS=(watch resync admission reconcile)
# Largest zip allowed, bytes (1.125 MiB). Measured: 0.84–0.97 MiB when set; 2026-12-02 the reconcile zip reached
# 1.003 MiB with the second kind's features (Advanced StatefulSet's planner, pre-download, the resize paths: the
# project's own lib/controllers is 184 KB of the 3.5 MB unminified bundle), so the budget grew by 0.125 MiB, less than
# the 0.2–2 MiB a dependency reached through a barrel file or a whole-package import typically adds, which still trips it.
# 2026-12-04 the seventh kind (PodUnavailableBudget's controller, 11.5 KB of the minified bundle) and CloneSet's
# failure messages took the reconcile zip to 1.127 MiB, 1.7 KB over: the budget grew by 0.0625 MiB to 1.1875 MiB (the
# project's own code is what grows; the largest parts are the AWS SDK and Smithy, 0.57 MiB minified).
ZIP_BUDGET_BYTES=${ZIP_BUDGET_BYTES:-1245184}
TEMPLATE=.serverless/cloudformation-template-update-stack.json

step() { printf '[package-check] %s\n' "$*"; }
fail() {
  printf '[package-check] FAILED: %s\n' "$*" >&2
  exit 1
}

[ -x node_modules/.bin/osls ] || fail "node_modules/.bin/osls is missing: run npm ci first"
command -v python3 >/dev/null 2>&1 || fail "python3 is needed (zip inspection and cfn-lint)"

# Packaging needs no AWS access. Dummy credentials and no instance metadata make sure it cannot reach any, and
# that a developer's real profile is never used by accident.
aws_offline=(env -u AWS_PROFILE -u AWS_SESSION_TOKEN -u AWS_DEFAULT_PROFILE
  AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE AWS_SECRET_ACCESS_KEY=offline-package-check
  AWS_EC2_METADATA_DISABLED=true AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true)

step "osls package --stage $STAGE (offline)"
rm -rf .serverless .esbuild
"${aws_offline[@]}" node_modules/.bin/osls package --stage "$STAGE"
[ -f "$TEMPLATE" ] || fail "$TEMPLATE was not written"

step "artifacts"
smoke_dir=$(mktemp -d)
trap 'rm -rf "$smoke_dir"' EXIT
for fn in "${FUNCTIONS[@]}"; do
  zip=.serverless/$fn.zip
  [ -f "$zip" ] || fail "$zip was not written"
  mkdir -p "$smoke_dir/$fn"
  python3 -m zipfile -e "$zip" "$smoke_dir/$fn" # (unzip is not on a minimal Debian; python3 is needed anyway)
  bundle=$smoke_dir/$fn/functions/$fn.mjs
  [ -f "$bundle" ] || fail "$zip has no functions/$fn.mjs"
  # Import the bundle as Lambda would (ESM, the createRequire banner, nothing external) with a dummy environment:
  # catches dynamic require() of Node built-ins and packages left out of the bundle.
  (cd "$smoke_dir/$fn" && env -i PATH="$PATH" AWS_REGION=us-east-1 TABLE_NAME=kruiseless-ci \
    EVENT_BUS_NAME=kruiseless-ci EVENT_BUS_ARN=arn:aws:events:us-east-1:000000000000:event-bus/kruiseless-ci \
    SCHEDULER_ROLE_ARN=arn:aws:iam::000000000000:role/scheduler SCHEDULER_GROUP_NAME=kruiseless-ci-requeue \
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true \
    timeout 60 node --input-type=module \
    -e "const m = await import('./functions/$fn.mjs'); if (typeof m.handler !== 'function') { console.error('no handler export'); process.exit(1); }") ||
    fail "functions/$fn.mjs from $zip does not import with a handler export"
  map=0
  [ -f "$bundle.map" ] && map=$(stat -c %s "$bundle.map")
  zip_bytes=$(stat -c %s "$zip")
  awk -v fn="$fn" -v z="$(stat -c %s "$zip")" -v b="$(stat -c %s "$bundle")" -v m="$map" 'BEGIN {
    printf "[package-check]   %-10s zip %6.2f MB   bundle %6.2f MB (+ source map %.2f MB)\n", fn, z / 1048576, b / 1048576, m / 1048576
  }'
  [ "$zip_bytes" -le "$ZIP_BUDGET_BYTES" ] ||
    fail "$zip is $zip_bytes bytes, over the budget of $ZIP_BUDGET_BYTES (see what grew: npx esbuild functions/$fn.ts --bundle --platform=node --format=esm --metafile=meta.json --outfile=/tmp/$fn.mjs, then npx esbuild --analyze)"
done

step "template assertions"
node --input-type=module - "$TEMPLATE" <<'EOF'
import { readFileSync } from 'node:fs';
const template = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const resources = template.Resources;
const problems = [];
const check = (ok, message) => ok || problems.push(message);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const ofType = (type) => Object.entries(resources).filter(([, r]) => r.Type === type);
const ENV = ['TABLE_NAME', 'EVENT_BUS_NAME', 'EVENT_BUS_ARN', 'SCHEDULER_ROLE_ARN', 'SCHEDULER_GROUP_NAME',
  'REQUEUE_DLQ_ARN', 'ADMISSION_SECRET_PARAM', 'POWERTOOLS_SERVICE_NAME', 'LOG_LEVEL', 'KRUISELESS_FEATURE_GATES',
  'KRUISELESS_SCALING_EXCLUDE_PREPARING_DELETE', 'KRUISELESS_WRITE_CONCURRENCY', 'POWERTOOLS_METRICS_NAMESPACE',
  'KRUISELESS_REQUEST_TIMEOUT_SECONDS', 'KRUISELESS_ALLOW_NON_EKS_ENDPOINTS'];

const functions = Object.fromEntries(ofType('AWS::Lambda::Function'));
check(same(Object.keys(functions).sort(),
  ['AdmissionLambdaFunction', 'ReconcileLambdaFunction', 'ResyncLambdaFunction', 'WatchLambdaFunction']),
  `functions: ${Object.keys(functions)}`);
const roles = new Set();
for (const [id, fn] of Object.entries(functions)) {
  const p = fn.Properties;
  check(p.Runtime === 'nodejs22.x', `${id}: runtime ${p.Runtime}`);
  check(same(p.Architectures, ['arm64']), `${id}: architectures ${p.Architectures}`);
  for (const name of ENV) check(p.Environment?.Variables?.[name] !== undefined, `${id}: env ${name} missing`);
  roles.add(JSON.stringify(p.Role));
}
check(roles.size === 4, 'every function must have its own execution role');
check(!resources.IamRoleLambdaExecution, 'the shared osls role must not exist (per-function roles only)');
check(functions.ReconcileLambdaFunction?.Properties.Timeout === 120, 'reconcile timeout 120 s');
check(functions.ReconcileLambdaFunction?.Properties.ReservedConcurrentExecutions > 0, 'reconcile reserved concurrency');
check(functions.WatchLambdaFunction?.Properties.Timeout === 70, 'watch timeout 70 s');
check(functions.AdmissionLambdaFunction?.Properties.Timeout === 5, 'admission timeout 5 s');

const rules = ofType('AWS::Events::Rule').map(([, r]) => r.Properties);
const patterned = (type) => rules.find((r) => r.EventPattern?.['detail-type']?.[0] === type);
const reconcileRule = patterned('Reconcile Requested');
check(reconcileRule && same(reconcileRule.EventPattern,
  { source: ['kruiseless'], 'detail-type': ['Reconcile Requested'] }), 'reconcile rule pattern');
// a fleet beyond one watch run: the scheduled run's slices start more runs of the watch function
const sliceRule = patterned('Watch Slice Requested');
check(sliceRule && same(sliceRule.EventPattern, { source: ['kruiseless'], 'detail-type': ['Watch Slice Requested'] }) &&
  same(sliceRule.EventBusName, { Ref: 'EventBus' }) &&
  same(sliceRule.Targets?.[0]?.Arn, { 'Fn::GetAtt': ['WatchLambdaFunction', 'Arn'] }), 'watch slice rule');
check(rules.filter((r) => r.EventPattern).length === 2, 'two patterned rules (reconcile requests, watch slices)');
check(same(reconcileRule?.EventBusName, { Ref: 'EventBus' }), 'reconcile rule on the Kruiseless bus');
const target = reconcileRule?.Targets?.[0] ?? {};
check(target.RetryPolicy?.MaximumRetryAttempts >= 0 && target.RetryPolicy?.MaximumEventAgeInSeconds >= 60,
  'reconcile rule RetryPolicy');
check(same(target.DeadLetterConfig?.Arn, { 'Fn::GetAtt': ['DeadLetterQueue', 'Arn'] }), 'reconcile rule DLQ');
check(rules.filter((r) => r.ScheduleExpression).map((r) => r.ScheduleExpression).sort().join() ===
  'rate(1 minute),rate(5 minutes)', 'watch and resync schedules');
const invoke = resources.ReconcileLambdaEvConf?.Properties ?? {};
check(invoke.MaximumRetryAttempts !== undefined, 'reconcile async MaximumRetryAttempts');
check(same(invoke.DestinationConfig?.OnFailure?.Destination, { 'Fn::GetAtt': ['DeadLetterQueue', 'Arn'] }),
  'reconcile on-failure destination is the DLQ');

const table = resources.StateTable?.Properties ?? {};
check(same(table.KeySchema, [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }]),
  'table keys pk/sk');
check(same(table.AttributeDefinitions?.map((a) => a.AttributeType), ['S', 'S']), 'table keys are strings');
check(table.BillingMode === 'PAY_PER_REQUEST', 'table on demand');
check(same(table.TimeToLiveSpecification, { AttributeName: 'ttl', Enabled: true }), 'table TTL on ttl');
check(table.PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled === true, 'table PITR');
check(ofType('AWS::Scheduler::ScheduleGroup').length === 1, 'requeue schedule group');
check(ofType('AWS::Lambda::Url').length === 1, 'admission Function URL');
// Least privilege: every Allow names its actions (no wildcard in any action) and its resources (never "*").
const statements = Object.entries(resources).flatMap(([id, r]) => {
  const docs = r.Type === 'AWS::IAM::Role' ? (r.Properties.Policies ?? []).map((p) => p.PolicyDocument)
    : ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy', 'AWS::SQS::QueuePolicy'].includes(r.Type) ? [r.Properties.PolicyDocument]
    : [];
  // a statement under Fn::If (e.g. sts:AssumeRole with HasClusterRoles) is checked in both branches
  const branches = (st) => st?.['Fn::If'] ? st['Fn::If'].slice(1).flatMap(branches)
    : st?.Ref === 'AWS::NoValue' ? [] : [st];
  return docs.flatMap((d) => [d.Statement].flat().flatMap(branches).map((st) => [id, st]));
});
check(statements.length >= 10, `IAM statements found: ${statements.length}`);
for (const [id, st] of statements) {
  if (st.Effect !== 'Allow') continue;
  for (const action of [st.Action].flat()) check(!String(action).includes('*'), `${id}: wildcard action ${action}`);
  for (const res of [st.Resource].flat()) check(res !== '*', `${id}: Resource "*" for ${[st.Action].flat()}`);
  check(st.NotAction === undefined && st.NotResource === undefined, `${id}: NotAction/NotResource in an Allow`);
}
// Observability (README.md#observability): the alarms, the dashboard and the VPC option are in the template.
const namespace = functions.ReconcileLambdaFunction?.Properties.Environment?.Variables?.POWERTOOLS_METRICS_NAMESPACE;
const alarmActions = { 'Fn::If': ['HasAlarmTopic', [{ Ref: 'AlarmTopicArn' }], { Ref: 'AWS::NoValue' }] };
const dlqAlarm = resources.DeadLetterQueueAlarm?.Properties ?? {};
check(dlqAlarm.Namespace === 'AWS/SQS' && dlqAlarm.MetricName === 'ApproximateNumberOfMessagesVisible' &&
  same(dlqAlarm.Dimensions, [{ Name: 'QueueName', Value: { 'Fn::GetAtt': ['DeadLetterQueue', 'QueueName'] } }]) &&
  dlqAlarm.Threshold === 0 && dlqAlarm.ComparisonOperator === 'GreaterThanThreshold', 'DLQ depth alarm (> 0 messages)');
const rateAlarm = resources.ReconcileErrorRateAlarm?.Properties ?? {};
const stat = (id) => rateAlarm.Metrics?.find((m) => m.Id === id)?.MetricStat;
check(stat('errors')?.Metric.MetricName === 'controller_runtime_reconcile_errors_total' &&
  stat('errors')?.Metric.Namespace === namespace && stat('reconciles')?.Stat === 'SampleCount' &&
  rateAlarm.Metrics?.some((m) => m.ReturnData && /errors \/ reconciles/.test(m.Expression ?? '')),
  'reconcile error-rate alarm on the EMF metrics of the functions\' namespace');
for (const a of [dlqAlarm, rateAlarm])
  check(same(a.AlarmActions, alarmActions) && same(a.OKActions, alarmActions), 'alarm actions: the alarmTopicArn param, if set');
// every metric name of lib/core/metrics.ts is on the dashboard, with the DLQ depth and the throttles
const metricNames = [...readFileSync('lib/core/metrics.ts', 'utf8').matchAll(/: '([a-z_]+_(?:total|seconds))'/g)].map((m) => m[1]);
check(metricNames.length === 11, `metric names in lib/core/metrics.ts: ${metricNames}`);
const [body, vars] = resources.Dashboard?.Properties.DashboardBody?.['Fn::Sub'] ?? [''];
let dashboard = '';
try {
  dashboard = JSON.stringify(JSON.parse(body.replace(/\$\{[^}]+\}/g, 'x')));
} catch (e) {
  problems.push(`dashboard body is not JSON: ${e.message}`);
}
for (const name of [...metricNames, 'ApproximateNumberOfMessagesVisible', 'Throttles'])
  check(dashboard.includes(name), `dashboard shows ${name}`);
check(vars?.Namespace === namespace, 'dashboard reads the functions\' metrics namespace');
// private EKS endpoints: the functions that call API servers can run in a VPC; admission never needs to
const vpc = { 'Fn::If': ['InVpc', { SubnetIds: { Ref: 'VpcSubnetIds' }, SecurityGroupIds: { Ref: 'VpcSecurityGroupIds' } }, { Ref: 'AWS::NoValue' }] };
for (const fn of ['Watch', 'Resync', 'Reconcile']) {
  check(same(functions[`${fn}LambdaFunction`]?.Properties.VpcConfig, vpc), `${fn}: VpcConfig under InVpc`);
  check(same(resources[`${fn}Role`]?.Properties.ManagedPolicyArns, { 'Fn::If': ['InVpc',
    [{ 'Fn::Sub': 'arn:${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole' }], { Ref: 'AWS::NoValue' }] }),
    `${fn}Role: only the VPC access policy, only in a VPC`);
}
check(functions.AdmissionLambdaFunction?.Properties.VpcConfig === undefined, 'admission stays out of the VPC');
check(Object.values(resources).every((r) => r.Type !== 'AWS::IAM::Role' || r.Properties.ManagedPolicyArns === undefined ||
  JSON.stringify(r.Properties.ManagedPolicyArns).includes('AWSLambdaVPCAccessExecutionRole')), 'no other managed policy');

for (const out of ['EventBusArn', 'StateTableName', 'AdmissionUrl', 'DeadLetterQueueUrl'])
  check(template.Outputs?.[out], `output ${out}`);

if (problems.length > 0) {
  console.error(problems.map((p) => `  - ${p}`).join('\n'));
  process.exit(1);
}
console.log(`[package-check]   ${Object.keys(resources).length} resources, all assertions hold`);
EOF

step "IAM contract (infra/iam/contract.ts)"
node_modules/.bin/tsx infra/iam/check.ts "$TEMPLATE" || fail "a function role breaks its IAM contract (above)"

step "cfn-lint $CFN_LINT_VERSION"
cfn_lint=
if command -v cfn-lint >/dev/null 2>&1 && [ "$(cfn-lint --version 2>/dev/null)" = "cfn-lint $CFN_LINT_VERSION" ]; then
  cfn_lint=$(command -v cfn-lint)
else
  venv=${XDG_CACHE_HOME:-$HOME/.cache}/kruiseless/cfn-lint-$CFN_LINT_VERSION
  if [ ! -x "$venv/bin/cfn-lint" ]; then
    step "installing cfn-lint $CFN_LINT_VERSION into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv" || fail "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "cfn-lint==$CFN_LINT_VERSION" ||
      fail "pip install cfn-lint==$CFN_LINT_VERSION failed"
  fi
  cfn_lint=$venv/bin/cfn-lint
fi
# No rule is ignored: errors, warnings and informational findings all fail the check.
"$cfn_lint" --format parseable -- "$TEMPLATE" || fail "cfn-lint found problems in $TEMPLATE"
step "cfn-lint: no findings"
step "OK"
