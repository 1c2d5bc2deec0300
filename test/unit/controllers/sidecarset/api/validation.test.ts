/**
 * lib/controllers/sidecarset/api/validation.ts: what OpenKruise v1.9.0's SidecarSet validating webhook refuses, with
 * its paths and messages — the cases of upstream's `TestValidateSidecarSet`, `TestSidecarSetNameConflict`,
 * `TestSidecarSetPodMetadataConflict`, `TestSidecarSetVolumeConflict` and `TestSidecarSetUpdateConflict`
 * (pkg/webhook/sidecarset/validating/*_test.go), on the same objects.
 */
import { describe, expect, it } from '@jest/globals';
import type { ControllerRevision } from '../../../../../lib/api/types.js';
import { defaultSidecarSet } from '../../../../../lib/controllers/sidecarset/api/defaults.js';
import type {
  SidecarContainer,
  SidecarSet,
  SidecarSetSpec,
} from '../../../../../lib/controllers/sidecarset/api/types.js';
import {
  validateSidecarSet,
  validateSidecarSetSpec,
  type SidecarSetValidationOptions,
} from '../../../../../lib/controllers/sidecarset/api/validation.js';

/** Upstream's test sidecar: a complete container as the mutating webhook leaves it. */
const sidecar = (over: Partial<SidecarContainer> = {}): SidecarContainer => ({
  name: 'test-sidecar',
  image: 'test-image',
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePolicy: 'File',
  podInjectPolicy: 'BeforeAppContainer',
  shareVolumePolicy: { type: 'disabled' },
  upgradeStrategy: { upgradeType: 'ColdUpgrade' },
  ...over,
});
const ss = (
  spec: SidecarSetSpec,
  name = 'test-sidecarset',
  annotations?: Record<string, string>,
): SidecarSet => ({
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec,
});
const base = (spec: Partial<SidecarSetSpec> = {}): SidecarSetSpec => ({
  selector: { matchLabels: { a: 'b' } },
  updateStrategy: { type: 'NotUpdate' },
  containers: [sidecar()],
  ...spec,
});
const show = (errs: { path: string; message: string }[]) => errs.map((e) => `${e.path}: ${e.message}`);
const specErrors = (spec: SidecarSetSpec, opts: Partial<SidecarSetValidationOptions> = {}) =>
  show(validateSidecarSetSpec(ss(spec), { others: [], ...opts }));
const errors = (s: SidecarSet, opts: Partial<SidecarSetValidationOptions> = {}) =>
  show(validateSidecarSet(s, { others: [], ...opts }));

const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('validateSidecarSetSpec (upstream TestValidateSidecarSet)', () => {
  it('admits a SidecarSet the mutating webhook defaulted from a minimal one', () => {
    const minimal = ss({
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'logger', image: 'fluentd:1' }],
    });
    expect(errors(defaultSidecarSet(minimal))).toEqual([]);
  });

  it('missing-selector', () => {
    expect(specErrors(base({ selector: undefined }))).toEqual([
      'spec.selector: Required value: no selector defined for SidecarSet',
    ]);
  });

  it('wrong-updateStrategy: a duplicated scatter term', () => {
    const scatterStrategy = [
      { key: 'key-1', value: 'value-1' },
      { key: 'key-1', value: 'value-1' },
    ];
    expect(specErrors(base({ updateStrategy: { type: 'RollingUpdate', scatterStrategy } }))).toEqual([
      'spec.updateStrategy.scatterStrategy: Required value: duplicated key=key-1 value=value-1',
    ]);
  });

  it('wrong-selector: an invalid label value, reported once more as unparseable', () => {
    const selector = {
      matchLabels: { a: 'b' },
      matchExpressions: [{ key: 'app-name', operator: 'NotIn', values: ['app-group', 'app-risk-'] }],
    };
    expect(
      specErrors(
        base({
          selector,
          updateStrategy: {},
          containers: [sidecar({ shareVolumePolicy: { type: 'enabled' } })],
        }),
      ),
    ).toEqual([
      `spec.selector.matchExpressions[0].values[1]: Invalid value: "app-risk-": ${LABEL_VALUE_MESSAGE}`,
      'spec.selector.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app-name", Operator:"NotIn", Values:[]string{"app-group", "app-risk-"}}}}',
    ]);
  });

  it('wrong-namespaceSelector, and a valid one', () => {
    const bad = {
      matchLabels: { a: 'b' },
      matchExpressions: [{ key: 'app-name', operator: 'NotIn', values: ['app-group', 'app-risk-'] }],
    };
    expect(specErrors(base({ namespaceSelector: bad }))).toEqual([
      `spec.namespaceSelector.matchExpressions[0].values[1]: Invalid value: "app-risk-": ${LABEL_VALUE_MESSAGE}`,
      'spec.namespaceSelector.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app-name", Operator:"NotIn", Values:[]string{"app-group", "app-risk-"}}}}',
    ]);
    expect(specErrors(base({ namespaceSelector: { matchLabels: { a: 'b' } } }))).toEqual([]);
  });

  it('reads v1alpha1 `namespace` as the namespaceSelector it converts to (and it wins over namespaceSelector)', () => {
    expect(
      specErrors(base({ namespace: 'Bad_NS-', namespaceSelector: { matchLabels: { a: 'b' } } })),
    ).toEqual([
      `spec.namespaceSelector.matchLabels: Invalid value: "Bad_NS-": ${LABEL_VALUE_MESSAGE}`,
      'spec.namespaceSelector.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"kubernetes.io/metadata.name":"Bad_NS-"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}',
    ]);
  });

  it('refuses an empty selector', () => {
    expect(specErrors(base({ selector: {} }))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is not valid for sidecarset.',
    ]);
  });

  it('wrong-initContainer: an init container without an image', () => {
    const init = { name: 'test-sidecar', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' };
    expect(specErrors(base({ containers: undefined, initContainers: [init] }))).toEqual([
      'spec.initContainers[0].image: Required value',
    ]);
  });

  it('missing-container: reported at the root path', () => {
    expect(specErrors(base({ containers: undefined }))).toEqual([
      ': Required value: no initContainer or container defined for SidecarSet',
    ]);
  });

  it('wrong-containers: no shareVolumePolicy, an unknown podInjectPolicy', () => {
    expect(specErrors(base({ containers: [sidecar({ shareVolumePolicy: undefined })] }))).toEqual([
      'container.shareVolumePolicy: Invalid value: v1beta1.ShareVolumePolicy{Type:""}: unsupported share volume policy',
    ]);
    expect(specErrors(base({ containers: [sidecar({ podInjectPolicy: 'Middle' })] }))).toEqual([
      'container.podInjectPolicy: Invalid value: "Middle": unsupported pod inject policy',
    ]);
  });

  it('wrong-volumes: a volume without a source (a projected token volume is fine)', () => {
    const volumes = [
      { name: 'test-volume' },
      {
        name: 'istio-token',
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { audience: 'istio-ca', expirationSeconds: 43200, path: 'istio-token' } },
          ],
        },
      },
    ];
    expect(specErrors(base({ volumes }))).toEqual([
      'spec.volumes[0]: Required value: must specify a volume type',
    ]);
  });

  it('volumeDevices: not found, on a PVC, and sharing a path with a volumeMount', () => {
    const device = { name: 'disk0', devicePath: '/dev/nvme1' };
    const pvc = { name: 'disk0', persistentVolumeClaim: { claimName: 'pvc-0' } };
    expect(specErrors(base({ containers: [sidecar({ volumeDevices: [device] })] }))).toEqual([
      'spec.containers[0].volumeDevices[0].name: Not found: "disk0"',
    ]);
    expect(specErrors(base({ containers: [sidecar({ volumeDevices: [device] })], volumes: [pvc] }))).toEqual(
      [],
    );
    const c = sidecar({
      volumeDevices: [{ name: 'disk0', devicePath: '/home/admin/log' }],
      volumeMounts: [{ name: 'log', mountPath: '/home/admin/log' }],
    });
    expect(specErrors(base({ containers: [c], volumes: [pvc, { name: 'log', emptyDir: {} }] }))).toEqual([
      'spec.containers[0].volumeMounts[0].mountPath: Invalid value: "/home/admin/log": must not already exist as a path in volumeDevices',
      'spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/home/admin/log": must not already exist as a path in volumeMounts',
    ]);
  });

  it('checks container names across containers and init containers, pull and termination-message policies', () => {
    const spec = base({
      containers: [
        sidecar({ name: 'log', imagePullPolicy: 'Sometimes' }),
        sidecar({ name: 'log', terminationMessagePolicy: undefined }),
      ],
      initContainers: [sidecar({ name: 'log', restartPolicy: 'OnFailure' })],
    });
    expect(specErrors(spec)).toEqual([
      'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      'spec.containers[1].terminationMessagePolicy: Required value',
      'spec.containers[1].name: Duplicate value: "log"',
      'spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.initContainers[0].name: Duplicate value: "log"',
    ]);
  });

  it('wrong-metadata: an annotation patched twice', () => {
    const patchPodMetadata = [
      { annotations: { key1: 'value1' }, patchPolicy: 'MergePatchJson' },
      { annotations: { key1: 'value1' }, patchPolicy: 'Overwrite' },
    ];
    expect(
      specErrors(base({ patchPodMetadata }), {
        patchMetadataWhitelist: null,
        patchMetadataDefaultsAllowed: true,
      }),
    ).toEqual(['spec.patchPodMetadata: Required value: patch annotation[key1] already exist']);
  });

  it('patchPodMetadata: no annotations, no policy, an invalid key', () => {
    const patchPodMetadata: SidecarSetSpec['patchPodMetadata'] = [
      { annotations: {} },
      { annotations: { 'bad key': 'v' }, patchPolicy: 'Retain' },
    ];
    expect(specErrors(base({ patchPodMetadata }))).toEqual([
      'spec.patchPodMetadata: Required value: no annotations defined for SidecarSet',
      'spec.patchPodMetadata: Required value: no patchPolicy defined for patchPodMetadata',
      `patchPodMetadata.annotations: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]);
  });

  it('the patch-metadata whitelist: absent, not matching, matching; the gate allows without one', () => {
    const spec = base({
      patchPodMetadata: [{ annotations: { 'oom-score': '1' }, patchPolicy: 'Overwrite' }],
    });
    expect(specErrors(spec, { patchMetadataWhitelist: null })).toEqual([
      'spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found',
    ]);
    expect(specErrors(spec, { patchMetadataWhitelist: null, patchMetadataDefaultsAllowed: true })).toEqual(
      [],
    );
    expect(
      specErrors(spec, {
        patchMetadataWhitelist: [
          { selector: { matchLabels: { x: 'y' } }, allowedAnnotationKeyExprs: ['.*'] },
        ],
      }),
    ).toEqual(['spec.patchPodMetadata: Required value: sidecarSet patch metadata annotation is not allowed']);
    expect(specErrors(spec, { patchMetadataWhitelist: [{ allowedAnnotationKeyExprs: ['^log-'] }] })).toEqual([
      'spec.patchPodMetadata: Required value: sidecarSet patch metadata annotation(oom-score) is not allowed',
    ]);
    expect(specErrors(spec, { patchMetadataWhitelist: [{ allowedAnnotationKeyExprs: ['^oom-'] }] })).toEqual(
      [],
    );
  });

  const revisions: ControllerRevision[] = [
    { metadata: { name: 'test-sidecarset-01234' }, revision: 1, data: {} },
    { metadata: { name: 'test-sidecarset-56789' }, revision: 2, data: {} },
  ];

  it('wrong-name-injectionStrategy: no revision labelled with the custom version', () => {
    const spec = base({ injectionStrategy: { revision: { customVersion: 'normal-sidecarset-01234' } } });
    expect(specErrors(spec, { revisions })).toEqual([
      'revision: Invalid value: "null": Cannot find specific ControllerRevision, err: ControllerRevision.apps "test-sidecarset" not found',
    ]);
    const labelled = {
      metadata: {
        name: 'test-sidecarset-99999',
        labels: {
          'kruise.io/sidecarset-name': 'test-sidecarset',
          'apps.kruise.io/sidecarset-custom-version': 'normal-sidecarset-01234',
        },
      },
      revision: 3,
    } as ControllerRevision;
    expect(specErrors(spec, { revisions: [...revisions, labelled] })).toEqual([]);
  });

  it('not-existing-injectionStrategy: a revision name not found; an unknown policy; neither name nor version', () => {
    expect(
      specErrors(
        base({
          injectionStrategy: { revision: { revisionName: 'test-sidecarset-678235', policy: 'Always' } },
        }),
        { revisions },
      ),
    ).toEqual([
      'revision: Invalid value: "null": Cannot find specific ControllerRevision, err: controllerrevisions.apps "test-sidecarset-678235" not found',
    ]);
    expect(
      specErrors(
        base({
          injectionStrategy: { revision: { revisionName: 'test-sidecarset-01234', policy: 'Sometimes' } },
        }),
        { revisions },
      ),
    ).toEqual([
      'revision.policy: Invalid value: v1beta1.SidecarSetInjectRevision{CustomVersion:(*string)(nil), RevisionName:"test-sidecarset-01234", Policy:"Sometimes"}: Invalid policy Sometimes, supported: [Always, Partial]',
    ]);
    expect(specErrors(base({ injectionStrategy: { revision: { policy: 'Always' } } }))).toEqual([
      'revision: Invalid value: v1beta1.SidecarSetInjectRevision{CustomVersion:(*string)(nil), RevisionName:(*string)(nil), Policy:"Always"}: revisionName and customVersion cannot be empty simultaneously',
    ]);
  });

  it('a native-sidecar init container cannot be rolled in place', () => {
    const spec = base({
      updateStrategy: { type: 'RollingUpdate' },
      containers: undefined,
      initContainers: [sidecar({ restartPolicy: 'Always' })],
    });
    expect(specErrors(spec)).toEqual([
      'spec.updateStrategy: Required value: The initContainer in-place upgrade is not currently supported.',
    ]);
  });

  it('updateStrategy (RollingUpdate only): partition and maxUnavailable, partition with a selector, priority', () => {
    expect(
      specErrors(base({ updateStrategy: { type: 'RollingUpdate', partition: -1, maxUnavailable: '50' } })),
    ).toEqual([
      'spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0',
      `spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"50"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ]);
    expect(specErrors(base({ updateStrategy: { type: 'NotUpdate', partition: -1 } }))).toEqual([]);
    const us = { type: 'RollingUpdate', partition: 1, selector: { matchLabels: { x: 'y' } } };
    expect(specErrors(base({ updateStrategy: us }))).toEqual([
      `updateStrategy: Invalid value: ${JSON.stringify(JSON.stringify(us))}: Partition and Selector cannot be used together`,
    ]);
    const priorityStrategy = {
      weightPriority: [{ weight: 101, matchSelector: { matchLabels: { x: 'y' } } }],
    };
    expect(specErrors(base({ updateStrategy: { type: 'RollingUpdate', priorityStrategy } }))).toEqual([
      'spec.updateStrategy.priorityStrategy: Required value: weight must be valid number in the range 1-100',
    ]);
  });

  it('transferEnv: the source container name read from a label or an annotation only', () => {
    const from = (fieldPath: string, apiVersion = 'v1') => ({
      sourceContainerNameFrom: { fieldRef: { apiVersion, fieldPath } },
      envName: 'X',
    });
    const spec = base({
      containers: [
        sidecar({
          transferEnv: [
            from("metadata.labels['app']"),
            from('metadata.name'),
            from("spec['x']"),
            from("metadata.labels['a b']"),
            from("metadata.labels['k']", 'v2'),
          ],
        }),
      ],
    });
    expect(specErrors(spec)).toEqual([
      '[0].transferEnv.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: field label not supported: metadata.name',
      `[0].transferEnv.fieldRef.fieldPath: Invalid value: "spec['x']": error converting fieldPath: field path not supported: spec`,
      `[0].transferEnv.fieldRef: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `[0].transferEnv.fieldRef.fieldPath: Invalid value: "metadata.labels['k']": error converting fieldPath: unsupported pod version: v2`,
    ]);
  });

  it('resourcesPolicy: not with resources; an init container only as a native sidecar', () => {
    const resourcesPolicy = {
      targetContainersMode: 'sum',
      targetContainersNameRegex: '.*',
      resourcesExpr: { limits: { cpu: 'cpu*50%' } },
    };
    const withResources = sidecar({ resources: { limits: { cpu: '100m' } }, resourcesPolicy });
    expect(specErrors(base({ containers: [withResources] }))).toEqual([
      `[0].resourcesPolicy: Invalid value: ${JSON.stringify(JSON.stringify(resourcesPolicy))}: resourcesPolicy and resources cannot be configured together`,
    ]);
    expect(
      specErrors(
        base({ containers: undefined, initContainers: [sidecar({ name: 'test-init', resourcesPolicy })] }),
      ),
    ).toEqual([
      `[0].resourcesPolicy: Invalid value: ${JSON.stringify(JSON.stringify(resourcesPolicy))}: resourcesPolicy is only supported for containers with RestartPolicy Always`,
    ]);
    expect(
      specErrors(
        base({
          containers: undefined,
          initContainers: [sidecar({ name: 'test-init', restartPolicy: 'Always', resourcesPolicy })],
        }),
      ),
    ).toEqual([]);
    expect(
      specErrors(
        base({
          containers: [
            sidecar({
              resourcesPolicy: {
                targetContainersMode: 'invalid',
                resourcesExpr: { limits: { cpu: 'cpu*50%' } },
              },
            }),
          ],
        }),
      ),
    ).toEqual(['[0].resourcesPolicy.targetContainersNameRegex: Required value: invalid empty regex']);
  });
});

describe('validateSidecarSet', () => {
  it('refuses a name that is not alphanumerics and dashes, and a namespace', () => {
    const s = ss(base(), 'side_car');
    s.metadata.namespace = 'default';
    expect(errors(s)).toEqual([
      `metadata.name: Invalid value: "side_car": sidecarset name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')`,
      'metadata.namespace: Forbidden: not allowed on this type',
    ]);
  });

  it('update: a container may not be added, nor its upgradeType changed (upstream TestSidecarSetUpdateConflict)', () => {
    const old = ss(base({ containers: [sidecar({ name: 'test' })] }));
    const hot = ss(
      base({
        containers: [
          sidecar({
            name: 'test',
            upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' },
          }),
        ],
      }),
    );
    expect(errors(hot, { old })).toEqual([
      'spec.containers.upgradeStrategy.upgradeType: Invalid value: "test": container test upgradeType is immutable',
    ]);
    const added = ss(base({ containers: [sidecar({ name: 'test' }), sidecar({ name: 'other' })] }));
    expect(errors(added, { old })).toEqual([
      'spec.containers.name: Invalid value: "other": container other is not found',
    ]);
    const image = ss(base({ containers: [sidecar({ name: 'test', image: 'test-image:2' })] }));
    expect(errors(image, { old })).toEqual([]);
  });

  const withNames = (name: string, spec: Partial<SidecarSetSpec>) =>
    ss(
      base({
        containers: [sidecar({ name: 'container-name' })],
        initContainers: [sidecar({ name: 'init-name' })],
        volumes: [{ name: 'volume-name', emptyDir: {} }],
        ...spec,
      }),
      name,
    );

  it('conflicts on container and init container names, not on an equal volume (upstream TestSidecarSetNameConflict)', () => {
    expect(errors(withNames('sidecarset2', {}), { others: [withNames('sidecarset1', {})] })).toEqual([
      'spec.containers: Invalid value: "init-name": container init-name already exist in sidecarset1',
      'spec.containers: Invalid value: "container-name": container container-name already exist in sidecarset1',
    ]);
  });

  it('skips itself, and SidecarSets of disjoint selectors or namespace selectors', () => {
    const ns = (n: string) => ({ namespaceSelector: { matchLabels: { app: n } } });
    expect(errors(withNames('sidecarset1', {}), { others: [withNames('sidecarset1', {})] })).toEqual([]);
    expect(
      errors(withNames('s2', { selector: { matchLabels: { a: 'c' } } }), { others: [withNames('s1', {})] }),
    ).toEqual([]);
    expect(errors(withNames('s2', ns('nginx')), { others: [withNames('s1', ns('nginx'))] })).toHaveLength(2);
    expect(errors(withNames('s2', ns('nginx')), { others: [withNames('s1', ns('redis'))] })).toEqual([]);
    expect(
      errors(withNames('s2', { namespace: 'a' }), { others: [withNames('s1', { namespace: 'b' })] }),
    ).toEqual([]);
    expect(
      errors(withNames('s2', { namespace: 'a' }), { others: [withNames('s1', { namespace: 'a' })] }),
    ).toHaveLength(2);
  });

  it('conflicts on a volume of the same name that differs (upstream TestSidecarSetVolumeConflict)', () => {
    type V = { name: string; hostPath?: { path: string } };
    const vol = (v: V) => (v.hostPath ? v : { ...v, emptyDir: {} });
    const withVolumes = (name: string, container: string, ...v: V[]) =>
      ss(base({ containers: [sidecar({ name: container })], volumes: v.map(vol) }), name);
    const check = (mine: V[], theirs: V[]) =>
      errors(withVolumes('sidecarset2', 'a', ...mine), {
        others: [withVolumes('sidecarset1', 'b', ...theirs)],
      });
    expect(
      check([{ name: 'volume-1' }, { name: 'volume-2' }], [{ name: 'volume-3' }, { name: 'volume-4' }]),
    ).toEqual([]);
    expect(
      check(
        [{ name: 'volume-1' }, { name: 'volume-2', hostPath: { path: '/home/work' } }],
        [{ name: 'volume-2', hostPath: { path: '/home/work' } }, { name: 'volume-3' }],
      ),
    ).toEqual([]);
    expect(
      check(
        [{ name: 'volume-1' }, { name: 'volume-2', hostPath: { path: '/home/work-1' } }],
        [{ name: 'volume-2', hostPath: { path: '/home/work-2' } }, { name: 'volume-3' }],
      ),
    ).toEqual([
      'spec.volumes: Invalid value: "volume-2": volume volume-2 is in conflict with sidecarset sidecarset1',
    ]);
  });

  it('conflicts on a patched annotation when either patch overwrites (upstream TestSidecarSetPodMetadataConflict)', () => {
    const patching = (
      name: string,
      container: string,
      patchPolicy: string,
      annotations: Record<string, string>,
    ) =>
      ss(
        base({
          containers: [sidecar({ name: container })],
          patchPodMetadata: [{ patchPolicy, annotations }],
        }),
        name,
      );
    const opts = (other: SidecarSet) => ({
      others: [other],
      patchMetadataWhitelist: null,
      patchMetadataDefaultsAllowed: true,
    });
    expect(
      errors(
        patching('sidecarset2', 'a', 'Overwrite', { key1: 'value1' }),
        opts(patching('sidecarset1', 'b', 'MergePatchJson', { key1: 'value1' })),
      ),
    ).toEqual([
      'spec.patchPodMetadata: Invalid value: "key1": annotation key1 is in conflict with sidecarset sidecarset1',
    ]);
    expect(
      errors(
        patching('sidecarset2', 'a', 'Retain', { key1: 'value1' }),
        opts(patching('sidecarset1', 'b', 'Overwrite', { key2: 'value2' })),
      ),
    ).toEqual([]);
    expect(
      errors(
        patching('sidecarset2', 'a', 'MergePatchJson', { 'oom-score': '{"log-agent": 1}' }),
        opts(patching('sidecarset1', 'b', 'MergePatchJson', { 'oom-score': '{"envoy": 1}' })),
      ),
    ).toEqual([]);
  });

  it('looks for conflicts only when everything else passed', () => {
    const bad = withNames('sidecarset2', { selector: undefined });
    expect(errors(bad, { others: [withNames('sidecarset1', {})] })).toEqual([
      'spec.selector: Required value: no selector defined for SidecarSet',
    ]);
  });

  it('canary SidecarSets: base not itself, existing, not a canary, fixed, and NotUpdate only', () => {
    const canary = (name: string, baseName: string, type = 'NotUpdate') =>
      ss(base({ containers: [sidecar({ name: `${name}-c` })], updateStrategy: { type } }), name, {
        'apps.kruise.io/sidecarset-canary': 'true',
        'apps.kruise.io/sidecarset-base': baseName,
      });
    const anno = (b: string) =>
      `map[string]string{"apps.kruise.io/sidecarset-base":"${b}", "apps.kruise.io/sidecarset-canary":"true"}`;
    const baseSet = ss(base({ containers: [sidecar({ name: 'canary-c' })] }), 'base');
    // the base's own containers never conflict with its canary's
    expect(errors(canary('canary', 'base'), { others: [baseSet] })).toEqual([]);
    expect(errors(canary('canary', 'missing', 'RollingUpdate'), { others: [baseSet] })).toEqual([
      `metadata: Invalid value: ${anno('missing')}: fetch base sidecarSet[missing] failed: sidecarsets.apps.kruise.io "missing" not found`,
      `metadata: Invalid value: ${anno('missing')}: RollingUpdate is not supported for canary sidecarSet`,
    ]);
    expect(errors(canary('canary', 'canary'), { others: [canary('canary', 'canary')] })).toEqual([
      `metadata: Invalid value: ${anno('canary')}: base sidecarSet cannot be itself`,
      `metadata: Invalid value: ${anno('canary')}: base sidecarSet cannot be canary`,
    ]);
    expect(errors(canary('canary', 'base'), { others: [baseSet], old: canary('canary', 'other') })).toEqual([
      `metadata: Invalid value: ${anno('base')}: annotations[apps.kruise.io/sidecarset-base] is immutable`,
    ]);
  });
});
