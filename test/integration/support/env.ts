/** Names of the environment variables the global setup uses to hand the cluster to test files and teardown. */

/** Absolute path of the kubeconfig the integration tests must use (set by globalSetup). */
export const TEST_KUBECONFIG_ENV = 'KRUISELESS_TEST_KUBECONFIG';
/** Set to "1" by globalSetup when it started the control plane itself (so teardown stops it). */
export const STARTED_BY_SETUP_ENV = 'KRUISELESS_TEST_STARTED_CLUSTER';
/** Set to "1" by the user to keep a cluster started by the tests running after the run (faster reruns). */
export const KEEP_CLUSTER_ENV = 'KRUISELESS_KEEP_CLUSTER';
