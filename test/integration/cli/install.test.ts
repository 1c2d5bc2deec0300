/**
 * `kruiseless install` on the real local control plane: it applies the CRDs, the RBAC and the pod guard (by default:
 * review finding 5), waits for the CRDs, and its SubjectAccessReview check passes; run again it changes nothing; a namespace where the watcher group has been
 * granted a write makes the check fail with exactly that line; the admission webhook is rendered and validated by
 * the API server in a server dry run and never stored (it would slow every pod write of the shared test cluster); a
 * CRD left converting through a Kruiseless webhook that does not answer (a killed `kruiseless local`) is put back to
 * no conversion. Runs alone (jest.config.js ALONE): it changes the shared cluster's CRDs.
 */
import net from 'node:net';
import {
  AdmissionregistrationV1Api,
  ApiextensionsV1Api,
  RbacAuthorizationV1Api,
} from '@kubernetes/client-node';
import { conversionWebhookPatch, noConversionPatch } from '../../../lib/api/conversion/crd.js';
import { plainVersionsFor, webhookVersionsFor } from '../../../lib/cli/webhookVersions.js';
import { createKubeClient } from '../../../lib/kube/index.js';
import { CRD_RESOURCE } from '../../../lib/kube/resources.js';
import { runCli } from '../../../lib/cli/program.js';
import { accessExpectations } from '../../../lib/cli/install.js';
import { crdManifests, rbacManifests } from '../../../lib/cli/manifests.js';
import { useTestNamespace } from '../support/cluster.js';
import { testKubeconfig } from '../support/pipeline.js';

const ctx = useTestNamespace('cli-install');
const SECRET = 'not-a-real-secret-0123456789abcdef';

function install(...args: string[]) {
  return runCli(['install', '--kubeconfig', testKubeconfig(), '-n', ctx.namespace, ...args], {
    HOME: '/nonexistent',
    KRUISELESS_ADMISSION_PATH_SECRET: SECRET,
  });
}

// every CRD as infra/crds has it (an earlier test's `kruiseless local` may have left one converting through a
// webhook that is gone, as README says of Advanced StatefulSet's), so that the runs below print exactly these lines
beforeAll(async () => {
  const kube = createKubeClient(ctx.kc);
  for (const c of crdManifests()) {
    const name = c.metadata?.name ?? '';
    await kube.patch(
      CRD_RESOURCE,
      { name },
      { type: 'merge', body: noConversionPatch(plainVersionsFor(name)) },
    );
  }
});

const crdLines = (): string[] =>
  // every CRD is applied first, then each is waited for
  [
    ...crdManifests().map(
      (c) => `customresourcedefinition.apiextensions.k8s.io/${c.metadata?.name ?? ''} serverside-applied`,
    ),
    ...crdManifests().map(
      (c) =>
        `customresourcedefinition.apiextensions.k8s.io/${c.metadata?.name ?? ''} condition met (Established)`,
    ),
  ];
/** The namespaces (infra/namespaces.yaml), then the RBAC: one apply. */
const rbacLines = (): string[] => [
  'namespace/kruise-system serverside-applied',
  'clusterrole.rbac.authorization.k8s.io/kruiseless-controller serverside-applied',
  'clusterrolebinding.rbac.authorization.k8s.io/kruiseless-controller serverside-applied',
  'clusterrole.rbac.authorization.k8s.io/kruiseless-watcher serverside-applied',
  'clusterrolebinding.rbac.authorization.k8s.io/kruiseless-watcher serverside-applied',
  'clusterrole.rbac.authorization.k8s.io/kruiseless-admission serverside-applied',
  'clusterrolebinding.rbac.authorization.k8s.io/kruiseless-admission serverside-applied',
];
const guardLines = (suffix = ''): string[] => [
  `validatingadmissionpolicy.admissionregistration.k8s.io/kruiseless-cloneset-owned-only serverside-applied${suffix}`,
  `validatingadmissionpolicybinding.admissionregistration.k8s.io/kruiseless-cloneset-owned-only serverside-applied${suffix}`,
];

test('applies the CRDs, the RBAC and the pod guard, and every access check comes out as expected', async () => {
  // the count itself is pinned by test/unit/cli/install.test.ts
  const checks = accessExpectations().length;
  expect(rbacManifests()).toHaveLength(6);
  for (let round = 1; round <= 2; round++) {
    const run = await install();
    expect({ round, stderr: run.stderr, code: run.code }).toEqual({ round, stderr: '', code: 0 });
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      ...crdLines(),
      ...rbacLines(),
      ...guardLines(),
      `install: ${crdManifests().length} CRD(s), 6 RBAC object(s), pod guard yes, namespace opt-in no, admission webhook no; access ${checks}/${checks} as expected`,
    ]);
  }
  const rbac = ctx.kc.makeApiClient(RbacAuthorizationV1Api);
  const role = await rbac.readClusterRole({ name: 'kruiseless-watcher' });
  expect(role.metadata?.managedFields?.map((f) => f.manager)).toContain('kruiseless-install');
});

test('the check fails, naming the grant, where the watcher group may write pods', async () => {
  const rbac = ctx.kc.makeApiClient(RbacAuthorizationV1Api);
  await rbac.createNamespacedRole({
    namespace: ctx.namespace,
    body: {
      metadata: { name: 'too-much' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: ctx.namespace,
    body: {
      metadata: { name: 'too-much' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'too-much' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'kruiseless:watcher' }],
    },
  });
  const run = await install('--check-only');
  expect(run.code).toBe(1);
  expect(run.stderr).toBe('access: kruiseless:watcher may create pods (expected denied)\n');
  const checks = accessExpectations().length;
  expect(run.stdout).toBe(
    `install: nothing applied (--check-only); access ${checks - 1}/${checks} as expected\n`,
  );
});

test('the namespace opt-in and the admission webhook are rendered and validated by the API server in a dry run, and not stored', async () => {
  const run = await install(
    '--dry-run',
    '--namespace-opt-in',
    '--admission-url',
    'https://abcdefghij0123456789.lambda-url.us-east-1.on.aws',
    '--cluster-name',
    'prod',
  );
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.stdout.trimEnd().split('\n').slice(-8)).toEqual([
    ...guardLines(' (server dry run)'),
    'validatingadmissionpolicy.admissionregistration.k8s.io/kruiseless-opted-in-namespaces-only serverside-applied (server dry run)',
    'validatingadmissionpolicybinding.admissionregistration.k8s.io/kruiseless-opted-in-namespaces-only serverside-applied (server dry run)',
    'validatingwebhookconfiguration.admissionregistration.k8s.io/kruiseless serverside-applied (server dry run)',
    'mutatingwebhookconfiguration.admissionregistration.k8s.io/kruiseless-defaults serverside-applied (server dry run)',
    'validatingwebhookconfiguration.admissionregistration.k8s.io/kruiseless-validation serverside-applied (server dry run)',
    `install: ${crdManifests().length} CRD(s), 6 RBAC object(s), pod guard yes, namespace opt-in yes, admission webhook yes (server dry run; access not checked, nothing was stored)`,
  ]);
  expect(run.stdout).not.toContain(SECRET);
  const admission = ctx.kc.makeApiClient(AdmissionregistrationV1Api);
  await expect(admission.readValidatingWebhookConfiguration({ name: 'kruiseless' })).rejects.toMatchObject({
    code: 404,
  });
});

test('bad admission settings are refused before anything is applied', async () => {
  const http = await install('--admission-url', 'http://example.com/', '--cluster-name', 'prod');
  expect(http).toEqual({
    code: 1,
    stdout: '',
    stderr: 'error: --admission-url must be https (the API server requires it)\n',
  });
  const noName = await install('--admission-url', 'https://example.com/');
  expect(noName).toEqual({
    code: 1,
    stdout: '',
    stderr: 'error: --admission-url needs --cluster-name (the name in the cluster registry)\n',
  });
});

test('a CRD left converting through a dead Kruiseless webhook is put back with its plain versions; the next run says nothing', async () => {
  // the grant of the watcher-write test above would fail the access check
  const rbac = ctx.kc.makeApiClient(RbacAuthorizationV1Api);
  await rbac
    .deleteNamespacedRoleBinding({ name: 'too-much', namespace: ctx.namespace })
    .catch(() => undefined);
  await rbac.deleteNamespacedRole({ name: 'too-much', namespace: ctx.namespace }).catch(() => undefined);
  const name = 'clonesets.apps.kruise.io';
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const url = `https://127.0.0.1:${port}/convert`;
  const kube = createKubeClient(ctx.kc);
  await kube.patch(
    CRD_RESOURCE,
    { name },
    { type: 'merge', body: conversionWebhookPatch({ url, server: 'local' }, webhookVersionsFor(name)) },
  );
  const checks = accessExpectations().length;
  const summary = `install: ${crdManifests().length} CRD(s), 6 RBAC object(s), pod guard yes, namespace opt-in no, admission webhook no; access ${checks}/${checks} as expected`;
  const first = await install();
  expect({ stderr: first.stderr, code: first.code }).toEqual({ stderr: '', code: 0 });
  expect(first.stdout.trimEnd().split('\n')).toEqual([
    ...crdLines(),
    `customresourcedefinition.apiextensions.k8s.io/${name} conversion webhook removed (local at ${url} does not answer)`,
    ...rbacLines(),
    ...guardLines(),
    summary,
  ]);
  const crd = await ctx.kc.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name });
  expect({
    strategy: crd.spec.conversion?.strategy,
    webhook: crd.spec.conversion?.webhook,
    annotation: crd.metadata?.annotations?.['kruiseless.io/conversion-webhook'],
    // v1beta1 is the alias of v1alpha1 again: the same spec fields (OpenKruise's v1beta1 has rollingUpdate etc.)
    v1beta1SpecFields: Object.keys(
      crd.spec.versions.find((v) => v.name === 'v1beta1')?.schema?.openAPIV3Schema?.properties?.spec
        ?.properties ?? {},
    ).sort(),
  }).toEqual({
    strategy: 'None',
    webhook: undefined,
    annotation: undefined,
    v1beta1SpecFields: Object.keys(
      crd.spec.versions.find((v) => v.name === 'v1alpha1')?.schema?.openAPIV3Schema?.properties?.spec
        ?.properties ?? {},
    ).sort(),
  });
  const second = await install();
  expect(second.stdout.trimEnd().split('\n')).toEqual([
    ...crdLines(),
    ...rbacLines(),
    ...guardLines(),
    summary,
  ]);
});
