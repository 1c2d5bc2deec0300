/**
 * The pure parts of `kruiseless install`: rendering the admission webhook from infra/webhook, the CRD take-over
 * rule, the list of access reviews, and kubectl-style object names.
 */
import type { JsonObject } from '../../../lib/api/types.js';
import { createHmac } from 'node:crypto';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import {
  accessExpectations,
  checkCrdTakeover,
  crdsToApply,
  pubUpdateGateOn,
} from '../../../lib/cli/install.js';
import { CliError } from '../../../lib/cli/io.js';
import { cloneSet } from '../../../lib/controllers/cloneset/index.js';
import {
  admissionConvertUrl,
  admissionManifests,
  crdManifests,
  defaultingWebhookManifests,
  validatingWebhookManifests,
  objectRef,
  withConversionWebhook,
} from '../../../lib/cli/manifests.js';

const settings = {
  url: 'https://abc.lambda-url.eu-west-1.on.aws',
  pathSecret: 's3cr3t',
  clusterName: 'prod',
};

describe('admissionManifests', () => {
  test("fills the URL (with its trailing slash), the cluster's own secret and the cluster into both webhooks, never the master secret", () => {
    const [cfg] = admissionManifests(settings) as [{ webhooks: { clientConfig: { url: string } }[] }];
    // HMAC-SHA256(master, 'kruiseless-admission/v1/prod') (docs/architecture.md#admission, review finding 7)
    const own = createHmac('sha256', 's3cr3t').update('kruiseless-admission/v1/prod').digest('hex');
    expect(cfg.webhooks.map((w) => w.clientConfig.url)).toEqual([
      `https://abc.lambda-url.eu-west-1.on.aws/${own}/prod`,
      `https://abc.lambda-url.eu-west-1.on.aws/${own}/prod`,
    ]);
    expect(JSON.stringify(cfg)).not.toContain('s3cr3t');
  });

  test.each([
    [{ url: 'not a url' }, '--admission-url not a url is not a URL'],
    [{ url: 'http://abc.example/' }, '--admission-url must be https (the API server requires it)'],
    [
      { url: 'https://abc.example/?x=1' },
      '--admission-url may carry no query string or user info (the API server refuses them)',
    ],
    [
      { pathSecret: '' },
      '--admission-url needs the admission path secret: pass --admission-path-secret or set KRUISELESS_ADMISSION_PATH_SECRET (the SSM parameter /kruiseless/<stage>/admission-path-secret)',
    ],
    [
      { pathSecret: 'a/b' },
      'the admission path secret must be a non-empty URL path segment (letters, digits, ._~-)',
    ],
    [{ clusterName: 'a b' }, '--cluster-name a b must be one URL path segment (letters, digits, ._~-)'],
  ])('%j is refused', (change, message) => {
    expect(() => admissionManifests({ ...settings, ...change })).toThrow(new CliError(message));
  });
});

describe('checkCrdTakeover', () => {
  const ours = crdManifests().find((c) => c.metadata?.name === 'clonesets.apps.kruise.io');
  const crd = (versions: string[], stored: string[], webhook = false): V1CustomResourceDefinition => ({
    metadata: { name: 'clonesets.apps.kruise.io' },
    spec: {
      group: 'apps.kruise.io',
      names: { kind: 'CloneSet', plural: 'clonesets' },
      scope: 'Namespaced',
      versions: versions.map((name) => ({ name, served: true, storage: name === stored[0] })),
      ...(webhook ? { conversion: { strategy: 'Webhook' } } : {}),
    },
    status: {
      storedVersions: stored,
      acceptedNames: { kind: 'CloneSet', plural: 'clonesets' },
      conditions: [],
    },
  });

  test('our own CRD (v1alpha1 only) is replaced', () => {
    expect(ours).toBeDefined();
    expect(() => checkCrdTakeover(crd(['v1alpha1'], ['v1alpha1']), ours!)).not.toThrow();
  });

  test("OpenKruise v1.9's CRD (v1beta1 stored, conversion webhook) is refused with the way out", () => {
    expect(() => checkCrdTakeover(crd(['v1alpha1', 'v1beta1'], ['v1beta1'], true), ours!)).toThrow(
      new CliError(
        'clonesets.apps.kruise.io in this cluster serves or stores v1beta1 through a conversion webhook ' +
          `(OpenKruise's): switch over first as the README's "Switching from OpenKruise" says, or keep it with --skip-crds`,
      ),
    );
  });

  test("Kruiseless's earlier SidecarSet CRD (v1alpha1 stored) is replaced: ours serves v1alpha1 through /convert", () => {
    const sc = crdManifests().find((c) => c.metadata?.name === 'sidecarsets.apps.kruise.io')!;
    const earlier = {
      ...crd(['v1alpha1'], ['v1alpha1']),
      metadata: { name: 'sidecarsets.apps.kruise.io' },
    };
    expect(() => checkCrdTakeover(earlier, sc)).not.toThrow();
    // a stored v1beta1 CloneSet (ours serves its v1beta1 as an alias of v1alpha1 without the webhook) stays refused
    expect(() => checkCrdTakeover(crd(['v1alpha1', 'v1beta1'], ['v1beta1']), ours!)).toThrow(CliError);
  });
});

describe('the conversion webhook of the two-version CRDs (issue 17)', () => {
  const own = createHmac('sha256', 's3cr3t').update('kruiseless-admission/v1/prod').digest('hex');

  test("the admission function's /convert URL carries the cluster's own secret, never the master", () => {
    expect(admissionConvertUrl(settings)).toBe(`https://abc.lambda-url.eu-west-1.on.aws/${own}/prod/convert`);
  });

  test('only the two-version CRDs get spec.conversion and the annotation; the inputs are unchanged', () => {
    const crds = crdManifests();
    const before = JSON.stringify(crds);
    const out = withConversionWebhook(crds, { url: admissionConvertUrl(settings), server: 'admission' });
    expect(JSON.stringify(crds)).toBe(before);
    const changed = out.filter((c, i) => c !== crds[i]).map((c) => c.metadata?.name);
    expect(changed).toEqual([
      'clonesets.apps.kruise.io',
      'statefulsets.apps.kruise.io',
      'sidecarsets.apps.kruise.io',
      'daemonsets.apps.kruise.io',
      'workloadspreads.apps.kruise.io',
    ]);
    const sts = out.find((c) => c.metadata?.name === 'statefulsets.apps.kruise.io') as unknown as {
      metadata: { annotations: Record<string, string> };
      spec: { conversion: unknown; versions: unknown[] };
    };
    expect(sts.metadata.annotations).toEqual({
      'controller-gen.kubebuilder.io/version': 'v0.17.3',
      'kruiseless.io/conversion-webhook': 'admission',
    });
    expect(sts.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        clientConfig: { url: `https://abc.lambda-url.eu-west-1.on.aws/${own}/prod/convert` },
        conversionReviewVersions: ['v1'],
      },
    });
    expect(sts.spec.versions).toHaveLength(2);
    // CloneSet's v1beta1 takes OpenKruise's shape with the webhook (an alias of v1alpha1 without one)
    type Version = {
      name: string;
      storage: boolean;
      schema: { openAPIV3Schema: { properties: { spec: JsonObject } } };
    };
    const cs = out.find((c) => c.metadata?.name === 'clonesets.apps.kruise.io') as unknown as {
      spec: { versions: Version[]; conversion: { strategy: string } };
    };
    const plain = crds.find((c) => c.metadata?.name === 'clonesets.apps.kruise.io') as unknown as typeof cs;
    expect(cs.spec.conversion.strategy).toBe('Webhook');
    expect(cs.spec.versions.map((v) => [v.name, v.storage])).toEqual([
      ['v1alpha1', true],
      ['v1beta1', false],
    ]);
    // v1alpha1 keeps its shape but not the rules the webhook makes in OpenKruise's words (webhookVersions.test.ts)
    expect(cs.spec.versions[0]).not.toEqual(plain.spec.versions[0]);
    expect(
      Object.keys(cs.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties as JsonObject),
    ).toEqual(
      Object.keys(plain.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties as JsonObject),
    );
    const betaSpec = (v: Version) => v.schema.openAPIV3Schema.properties.spec as { properties: JsonObject };
    expect(Object.keys(betaSpec(cs.spec.versions[1]).properties.updateStrategy as JsonObject)).toContain(
      'properties',
    );
    expect(
      Object.keys(
        ((betaSpec(cs.spec.versions[1]).properties.updateStrategy as JsonObject).properties as JsonObject) ??
          {},
      ),
    ).toEqual(['type', 'rollingUpdate']);
    expect(
      Object.keys(
        ((betaSpec(plain.spec.versions[1]).properties.updateStrategy as JsonObject)
          .properties as JsonObject) ?? {},
      ),
    ).toEqual([
      'type',
      'partition',
      'maxUnavailable',
      'maxSurge',
      'paused',
      'priorityStrategy',
      'scatterStrategy',
      'inPlaceUpdateStrategy',
    ]);
  });

  test("a CRD converting through Kruiseless's webhook (annotated) is not taken for OpenKruise's", () => {
    const ours = crdManifests().find((c) => c.metadata?.name === 'statefulsets.apps.kruise.io')!;
    const current = {
      metadata: {
        name: 'statefulsets.apps.kruise.io',
        annotations: { 'kruiseless.io/conversion-webhook': 'local' },
      },
      spec: {
        group: 'apps.kruise.io',
        names: { kind: 'StatefulSet', plural: 'statefulsets' },
        scope: 'Namespaced',
        versions: [
          { name: 'v1alpha1', served: true, storage: false },
          { name: 'v1beta1', served: true, storage: true },
        ],
        conversion: { strategy: 'Webhook' },
      },
      status: {
        storedVersions: ['v1beta1'],
        acceptedNames: { kind: 'StatefulSet', plural: 'statefulsets' },
        conditions: [],
      },
    } as V1CustomResourceDefinition;
    expect(() => checkCrdTakeover(current, ours)).not.toThrow();
    const openKruise = { ...current, metadata: { name: 'statefulsets.apps.kruise.io' } };
    expect(() => checkCrdTakeover(openKruise, ours)).toThrow(
      new CliError(
        'statefulsets.apps.kruise.io in this cluster serves or stores versions through a conversion webhook ' +
          `(OpenKruise's): switch over first as the README's "Switching from OpenKruise" says, or keep it with --skip-crds`,
      ),
    );
  });
});

test('the access reviews (CloneSet, Advanced StatefulSet, BroadcastJob, SidecarSet, AdvancedCronJob, Advanced DaemonSet, PodUnavailableBudget, WorkloadSpread, container launch priority and pod readiness): 69 calls of the reconciler, 44 reads and 23 refused writes of the watcher, 24 calls and 9 refused writes of the pod webhooks, 50 refused to all three', () => {
  const e = accessExpectations();
  const count = (groups: string, expected: boolean) =>
    e.filter((x) => x.groups.join('+') === groups && x.expected === expected).length;
  expect({
    controllerAllowed: count('kruiseless:controller', true),
    watcherAllowed: count('kruiseless:watcher', true),
    watcherDenied: count('kruiseless:watcher', false),
    admissionAllowed: count('kruiseless:admission', true),
    admissionDenied: count('kruiseless:admission', false),
    allDenied: count('kruiseless:controller+kruiseless:watcher+kruiseless:admission', false),
    total: e.length,
  }).toEqual({
    controllerAllowed: 69,
    watcherAllowed: 44,
    watcherDenied: 23,
    admissionAllowed: 24,
    admissionDenied: 9,
    allDenied: 50,
    total: 219,
  });
});

test('objectRef names objects as kubectl does', () => {
  expect(
    objectRef({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'x' } }),
  ).toBe('clusterrole.rbac.authorization.k8s.io/x');
  expect(objectRef({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'y' } })).toBe('namespace/y');
});

describe('crdsToApply', () => {
  const crds = crdManifests();
  const name = (c: { metadata?: { name?: string } }) => c.metadata?.name ?? '';
  const openKruise = (crdName: string, kind: string, plural: string): V1CustomResourceDefinition => ({
    metadata: { name: crdName },
    spec: {
      group: 'apps.kruise.io',
      names: { kind, plural },
      scope: 'Namespaced',
      versions: [
        { name: 'v1alpha1', served: true, storage: false },
        { name: 'v1beta1', served: true, storage: true },
      ],
      conversion: { strategy: 'Webhook' },
    },
    status: { storedVersions: ['v1beta1'], acceptedNames: { kind, plural }, conditions: [] },
  });

  test("OpenKruise's Advanced StatefulSet CRD (conversion webhook) is refused now that Advanced StatefulSet is reconciled here", () => {
    const current = new Map([
      [
        'statefulsets.apps.kruise.io',
        openKruise('statefulsets.apps.kruise.io', 'StatefulSet', 'statefulsets'),
      ],
    ]);
    expect(() => crdsToApply(crds, current)).toThrow(
      'statefulsets.apps.kruise.io in this cluster serves or stores versions through a conversion webhook',
    );
  });

  test('a CRD no registered controller reconciles is left as it is (a build without Advanced StatefulSet)', () => {
    const current = new Map([
      [
        'statefulsets.apps.kruise.io',
        openKruise('statefulsets.apps.kruise.io', 'StatefulSet', 'statefulsets'),
      ],
    ]);
    const { apply, kept } = crdsToApply(crds, current, [cloneSet]);
    expect(kept).toEqual(['statefulsets.apps.kruise.io']);
    expect(apply.map(name)).toEqual(crds.map(name).filter((n) => n !== 'statefulsets.apps.kruise.io'));
  });

  test("OpenKruise's CloneSet CRD is still refused: CloneSet is reconciled here", () => {
    const current = new Map([
      ['clonesets.apps.kruise.io', openKruise('clonesets.apps.kruise.io', 'CloneSet', 'clonesets')],
    ]);
    expect(() => crdsToApply(crds, current)).toThrow(CliError);
  });

  test('a cluster without them gets every CRD of infra/crds', () => {
    expect(crdsToApply(crds, new Map()).apply.map(name)).toEqual(crds.map(name));
  });
});

describe("the admission function's validating webhooks with the pod webhooks of PodUnavailableBudget", () => {
  const own = createHmac('sha256', 's3cr3t').update('kruiseless-admission/v1/prod').digest('hex');
  const base = `https://abc.lambda-url.eu-west-1.on.aws/${own}/prod`;
  type Webhook = {
    name: string;
    failurePolicy: string;
    clientConfig: { url: string };
    rules: { operations: string[]; resources: string[] }[];
  };
  test('without the opt-in, no pod webhook', () => {
    const [cfg] = validatingWebhookManifests(settings) as unknown as [{ webhooks: Webhook[] }];
    expect(
      cfg.webhooks.filter((w) => w.name.startsWith('vpod.') || w.name.startsWith('vpodeviction.')),
    ).toEqual([]);
  });
  test('vpod.kb.io (DELETE) and vpodeviction.kb.io at …/validate-pod, failing closed as OpenKruise; the Kruise validators at …/validate, failing open', () => {
    const [cfg] = validatingWebhookManifests(settings, { enabled: true }) as unknown as [
      { webhooks: Webhook[] },
    ];
    const byName = (n: string) => cfg.webhooks.find((w) => w.name === n);
    expect(byName('vpod.kb.io')).toMatchObject({
      failurePolicy: 'Fail',
      clientConfig: { url: `${base}/validate-pod` },
      rules: [{ operations: ['DELETE'], resources: ['pods'] }],
    });
    expect(byName('vpodeviction.kb.io')).toMatchObject({
      failurePolicy: 'Fail',
      clientConfig: { url: `${base}/validate-pod` },
      rules: [{ operations: ['CREATE'], resources: ['pods/eviction'] }],
    });
    expect(byName('vpodunavailablebudget.kb.io')).toMatchObject({
      failurePolicy: 'Ignore',
      clientConfig: { url: `${base}/validate` },
    });
    expect(JSON.stringify(cfg)).not.toContain('s3cr3t');
  });
  test('--feature-gates decides PodUnavailableBudgetUpdateGate (off when absent, a bad list refused)', () => {
    expect(pubUpdateGateOn(undefined)).toBe(false);
    expect(pubUpdateGateOn('PodUnavailableBudgetUpdateGate=true')).toBe(true);
    expect(pubUpdateGateOn('CloneSetShortHash=true')).toBe(false);
    expect(() => pubUpdateGateOn('PodUnavailableBudgetUpdateGate=maybe')).toThrow(CliError);
  });
  test('with PodUnavailableBudgetUpdateGate, vpod.kb.io also takes pod UPDATE', () => {
    const [cfg] = validatingWebhookManifests(settings, { enabled: true, updates: true }) as unknown as [
      { webhooks: Webhook[] },
    ];
    expect(cfg.webhooks.find((w) => w.name === 'vpod.kb.io')?.rules[0]?.operations).toEqual([
      'DELETE',
      'UPDATE',
    ]);
  });
});

describe("the admission function's mutating webhooks with the pod webhook mpod.kb.io", () => {
  const own = createHmac('sha256', 's3cr3t').update('kruiseless-admission/v1/prod').digest('hex');
  const base = `https://abc.lambda-url.eu-west-1.on.aws/${own}/prod`;
  type Config = { webhooks: { name: string; clientConfig: { url: string } }[] };

  test('without the opt-in, only the defaulting webhooks at …/mutate', () => {
    const [cfg] = defaultingWebhookManifests(settings) as unknown as [Config];
    expect(cfg.webhooks.filter((w) => w.name.startsWith('mpod.'))).toEqual([]);
    expect(new Set(cfg.webhooks.map((w) => w.clientConfig.url))).toEqual(new Set([`${base}/mutate`]));
  });

  test("with it, mpod.kb.io last, at …/mutate-pod: pods CREATE, failing closed, in the namespaces OpenKruise's selector and the system exclusions leave", () => {
    const [cfg] = defaultingWebhookManifests(settings, { enabled: true }) as unknown as [Config];
    expect(cfg.webhooks.at(-1)).toEqual({
      name: 'mpod.kb.io',
      admissionReviewVersions: ['v1'],
      sideEffects: 'NoneOnDryRun',
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      reinvocationPolicy: 'Never',
      timeoutSeconds: 5,
      clientConfig: { url: `${base}/mutate-pod` },
      namespaceSelector: {
        matchExpressions: [
          { key: 'control-plane', operator: 'DoesNotExist' },
          {
            key: 'kubernetes.io/metadata.name',
            operator: 'NotIn',
            values: ['kube-system', 'kube-public', 'kube-node-lease'],
          },
          { key: 'kruiseless.io/pod-webhook', operator: 'NotIn', values: ['disabled'] },
        ],
      },
      rules: [
        {
          apiGroups: [''],
          apiVersions: ['v1'],
          operations: ['CREATE'],
          resources: ['pods'],
          scope: 'Namespaced',
        },
      ],
    });
    expect(cfg.webhooks.filter((w) => w.name.startsWith('mpod.'))).toHaveLength(1);
    expect(cfg.webhooks.slice(0, -1).every((w) => w.clientConfig.url === `${base}/mutate`)).toBe(true);
    expect(JSON.stringify(cfg)).not.toContain('s3cr3t');
  });
});
