/**
 * Four projects: `unit` (pure planner and libraries, no services), `integration`
 * (a real kube-apiserver + etcd started once by the global setup, or the cluster named by KUBECONFIG),
 * `state-moto` (the state-store suites of `integration` once more, on moto instead of dynalite: two DynamoDB
 * implementations, docs/reliability.md#two-dynamodb-implementations; moto from `npm run moto:install`) and
 * `integration-alone` (the tests that need the API server to themselves, run after the others).
 * ESM mode: @kubernetes/client-node is ESM-only.
 * @type {import('jest').Config}
 */
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  setupFiles: ['<rootDir>/test/setupEnv.js'],
  // per-checkout cluster state dirs (KRUISELESS_STATE_DIR etc.): etcd's *.snap files there are not jest snapshots
  modulePathIgnorePatterns: ['<rootDir>/.kruiseless/', '<rootDir>/.reference/', '<rootDir>/.parity/'],
};

/**
 * Integration tests that count the API server's own request metrics, so another test file's traffic on the same
 * control plane breaks them (`noop-cost` waits for a quiet server, then asserts exact request counts), or that run a
 * reconciler over the whole cluster (`killed-local`: it would reconcile other files' CloneSets beside their own
 * pipelines). They run in their own project, alone, after the others (`npm run test:integration`).
 */
const ALONE = [
  '<rootDir>/test/integration/e2e/noop-cost.test.ts',
  // the real `kruiseless local` command, killed and restarted: it watches and resyncs the whole cluster
  '<rootDir>/test/integration/e2e/killed-local.test.ts',
  // re-apply every CRD of the shared cluster; install also puts back a CRD whose Kruiseless conversion webhook does
  // not answer, which would pull the conversion from under a test that stopped its converter on purpose
  '<rootDir>/test/integration/testcluster-crds.test.ts',
  '<rootDir>/test/integration/cli/install.test.ts',
  // applies the AdvancedCronJob CRD of this checkout to the shared cluster (its storage is rebuilt under the others)
  '<rootDir>/test/integration/advancedcronjob/advancedcronjob-crd.test.ts',
  // deletes a CRD of the shared cluster and has clusterUp put it back
  '<rootDir>/test/integration/local/clusterUpCrds.test.ts',
];

export default {
  maxWorkers: 2,
  // testTimeout is a global option (jest ignores it inside a project): integration tests wait on a real cluster
  testTimeout: 120000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...ALONE.map((p) => p.replace('<rootDir>', ''))],
      globalSetup: '<rootDir>/test/integration/globalSetup.ts',
      globalTeardown: '<rootDir>/test/integration/globalTeardown.ts',
    },
    {
      ...common,
      displayName: 'integration-alone',
      testMatch: ALONE,
      globalSetup: '<rootDir>/test/integration/globalSetup.ts',
      globalTeardown: '<rootDir>/test/integration/globalTeardown.ts',
    },
    {
      ...common,
      displayName: 'state-moto',
      testMatch: ['<rootDir>/test/integration/state/**/*.test.ts'],
      setupFiles: [...common.setupFiles, '<rootDir>/test/integration/state/motoEnv.js'],
      globalSetup: '<rootDir>/test/integration/state/motoSetup.ts',
    },
  ],
};
