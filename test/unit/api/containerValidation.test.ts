/**
 * Container `ports`, `env`, `envFrom`, probes, lifecycle hooks, resources, resize policies and security contexts checked as Kubernetes v1.32's pod validation
 * (OpenKruise v1.9.0's build): the cases of `TestValidatePorts`, `TestValidateEnv` and `TestValidateEnvFrom`
 * (pkg/apis/core/validation/validation_test.go) with their paths and messages, the handler and probe rules of
 * `validateHandler` / `validateProbe`, the resource cases of `TestValidatePodSpec`'s invalid table and the
 * request/limit rules of `validateResourceRequirements`, and the order and host-port rules `podSpecErrors` adds around them
 * (`validateContainers`, `validateInitContainers`).
 */
import { envErrors, envFromErrors } from '../../../lib/api/containerEnvValidation.js';
import { containerPortErrors } from '../../../lib/api/containerPortValidation.js';
import { lifecycleErrors, probeErrors } from '../../../lib/api/containerProbeValidation.js';
import {
  initResizePolicyErrors,
  resizePolicyErrors,
  resourceRequirementsErrors,
} from '../../../lib/api/containerResourceValidation.js';
import { securityContextErrors } from '../../../lib/api/containerSecurityValidation.js';
import { podSpecErrors } from '../../../lib/api/podSpecValidation.js';

const lines = (errs: { path: string; message: string }[]) => errs.map((e) => `${e.path}: ${e.message}`);

const ENV_NAME_MESSAGE =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
const ENV_FIELDS =
  'supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"';

describe('containerPortErrors (TestValidatePorts)', () => {
  it('accepts upstream’s success cases', () => {
    const ok = [
      { name: 'abc', containerPort: 80, hostPort: 80, protocol: 'TCP' },
      { name: 'easy', containerPort: 82, protocol: 'TCP' },
      { name: 'as', containerPort: 83, protocol: 'UDP' },
      { name: 'do-re-me', containerPort: 84, protocol: 'SCTP' },
      { containerPort: 85, protocol: 'TCP' },
    ];
    expect(containerPortErrors(ok, 'field')).toEqual([]);
  });

  it.each([
    [
      { name: 'a'.repeat(16), containerPort: 80, protocol: 'TCP' },
      `field[0].name: Invalid value: "${'a'.repeat(16)}": must be no more than 15 characters`,
    ],
    [
      { name: 'a.b.c', containerPort: 80, protocol: 'TCP' },
      'field[0].name: Invalid value: "a.b.c": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ],
    [
      { name: '80', containerPort: 80, protocol: 'TCP' },
      'field[0].name: Invalid value: "80": must contain at least one letter (a-z)',
    ],
    [{ containerPort: 0, protocol: 'TCP' }, 'field[0].containerPort: Required value'],
    [
      { containerPort: 65536, protocol: 'TCP' },
      'field[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive',
    ],
    [
      { containerPort: 80, hostPort: 65536, protocol: 'TCP' },
      'field[0].hostPort: Invalid value: 65536: must be between 1 and 65535, inclusive',
    ],
    [
      { containerPort: 80, protocol: 'tcp' },
      'field[0].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"',
    ],
    [{ name: 'abc', containerPort: 80 }, 'field[0].protocol: Required value'],
  ])('refuses %j', (port, message) => {
    expect(lines(containerPortErrors([port], 'field'))).toEqual([message]);
  });

  it('a name used twice in one container is a Duplicate at the second', () => {
    const ports = [
      { name: 'abc', containerPort: 80, protocol: 'TCP' },
      { name: 'abc', containerPort: 81, protocol: 'TCP' },
    ];
    expect(lines(containerPortErrors(ports, 'field'))).toEqual(['field[1].name: Duplicate value: "abc"']);
  });
});

describe('envErrors (TestValidateEnv)', () => {
  const fieldRef = (fieldPath: string) => [
    { name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } },
  ];

  it('accepts names, key references, downward API fields and container resources', () => {
    const ok = [
      { name: 'abc', value: 'value' },
      { name: 'AbC_123', value: 'value' },
      { name: 'a.b', value: 'value' },
      { name: 'a-b', value: 'value' },
      { name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      { name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['key']" } } },
      { name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.host' } } },
      { name: 'abc', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
      { name: 'abc', valueFrom: { resourceFieldRef: { resource: 'requests.hugepages-2Mi' } } },
      { name: 'abc', valueFrom: { secretKeyRef: { name: 'a-secret', key: 'a-key' } } },
      { name: 'abc', valueFrom: { configMapKeyRef: { name: 'some-config-map', key: 'some-key' } } },
    ];
    expect(envErrors(ok, 'field')).toEqual([]);
  });

  it.each([
    ['zero-length name', [{ name: '' }], '[0].name: Required value'],
    [
      'a name starting with a digit',
      [{ name: '1abc' }],
      `[0].name: Invalid value: "1abc": ${ENV_NAME_MESSAGE}`,
    ],
    ['a name of ..', [{ name: '..' }], `[0].name: Invalid value: "..": must not be '..'`],
    [
      'value and valueFrom',
      [
        {
          name: 'abc',
          value: 'foo',
          valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } },
        },
      ],
      '[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    ],
    [
      'valueFrom without a source',
      [{ name: 'abc', valueFrom: {} }],
      '[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    ],
    [
      'fieldRef and secretKeyRef',
      [
        {
          name: 'abc',
          valueFrom: {
            fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' },
            secretKeyRef: { name: 'a-secret', key: 'a-key' },
          },
        },
      ],
      '[0].valueFrom: Invalid value: "": may not have more than one field specified at a time',
    ],
    [
      'missing fieldPath',
      [{ name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1' } } }],
      '[0].valueFrom.fieldRef.fieldPath: Required value',
    ],
    [
      'missing apiVersion',
      [{ name: 'abc', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      '[0].valueFrom.fieldRef.apiVersion: Required value',
    ],
    [
      'an unknown fieldPath',
      fieldRef('metadata.whoops'),
      '[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.whoops": error converting fieldPath: field label not supported: metadata.whoops',
    ],
    [
      'metadata.name with a subscript',
      fieldRef("metadata.name['key']"),
      `[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name['key']": error converting fieldPath: field label does not support subscript: metadata.name['key']`,
    ],
    [
      'metadata.labels without a subscript',
      fieldRef('metadata.labels'),
      `[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": ${ENV_FIELDS}`,
    ],
    [
      'status.phase',
      fieldRef('status.phase'),
      `[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": ${ENV_FIELDS}`,
    ],
    [
      'a fieldRef of another version',
      [{ name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } } }],
      '[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
    ],
    [
      'an unknown resource',
      [{ name: 'abc', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } }],
      '[0].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
    ],
    [
      'a config map key reference without a key',
      [{ name: 'abc', valueFrom: { configMapKeyRef: { name: 'cm' } } }],
      '[0].valueFrom.configMapKeyRef.key: Required value',
    ],
  ])('%s', (_name, env, message) => {
    expect(lines(envErrors(env, '')).map((l) => l.replace(/^\./, ''))).toEqual([message]);
  });

  it('an annotation or label key that is not a qualified name is reported at fieldRef (the annotation’s lower-cased)', () => {
    expect(lines(envErrors(fieldRef("metadata.annotations['invalid~key']"), 'field'))[0]).toMatch(
      /^field\[0\]\.valueFrom\.fieldRef: Invalid value: "invalid~key": /,
    );
    expect(lines(envErrors(fieldRef("metadata.labels['Www.k8s.io/test']"), 'field'))[0]).toMatch(
      /^field\[0\]\.valueFrom\.fieldRef: Invalid value: "Www.k8s.io\/test": /,
    );
  });

  it('a key reference’s invalid name is reported with the DNS-1123 subdomain rule', () => {
    const env = [{ name: 'abc', valueFrom: { secretKeyRef: { name: '$%^&*#', key: 'a-key' } } }];
    expect(lines(envErrors(env, 'field'))).toEqual([
      `field[0].valueFrom.secretKeyRef.name: Invalid value: "$%^&*#": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
  });
});

describe('envFromErrors (TestValidateEnvFrom)', () => {
  it('accepts prefixes and one source each', () => {
    const ok = [
      { configMapRef: { name: 'abc' } },
      { prefix: 'pre_', configMapRef: { name: 'abc' } },
      { prefix: 'a.b', secretRef: { name: 'abc' } },
    ];
    expect(envFromErrors(ok, 'field')).toEqual([]);
  });

  it('refuses an invalid prefix, no source and two sources (those two at the list’s path)', () => {
    expect(
      lines(
        envFromErrors(
          [
            { prefix: '* +,-./0123456789', configMapRef: { name: 'abc' } },
            { prefix: 'ok' },
            { configMapRef: { name: 'abc' }, secretRef: { name: 'abc' } },
            { secretRef: { name: '' } },
          ],
          'field',
        ),
      ),
    ).toEqual([
      `field[0].prefix: Invalid value: "* +,-./0123456789": ${ENV_NAME_MESSAGE}`,
      'field: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
      'field: Invalid value: "": may not have more than one field specified at a time',
      'field[3].secretRef.name: Required value',
    ]);
  });
});

describe('podSpecErrors around ports and env', () => {
  const c = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    image: 'nginx',
    imagePullPolicy: 'Always',
    terminationMessagePolicy: 'File',
    ...extra,
  });

  it('checks ports, env and envFrom after the termination message policy and before the mounts', () => {
    const spec = {
      containers: [
        c('a', {
          terminationMessagePolicy: 'Nope',
          ports: [{ containerPort: 0, protocol: 'TCP' }],
          env: [{ name: '' }],
          envFrom: [{}],
          volumeMounts: [{ name: 'gone', mountPath: '/x' }],
        }),
      ],
    };
    expect(lines(podSpecErrors(spec, { prefix: 'p' }))).toEqual([
      'p.containers[0].terminationMessagePolicy: Unsupported value: "Nope": supported values: "File", "FallbackToLogsOnError"',
      'p.containers[0].ports[0].containerPort: Required value',
      'p.containers[0].env[0].name: Required value',
      'p.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
      'p.containers[0].volumeMounts[0].name: Not found: "gone"',
    ]);
  });

  it('host ports conflict across regular containers, and within each init container alone (reported as [0])', () => {
    const port = { containerPort: 80, hostPort: 8080, protocol: 'TCP' };
    const spec = {
      containers: [c('a', { ports: [port] }), c('b', { ports: [port] })],
      initContainers: [c('i', { ports: [port] }), c('j', { ports: [port, port] })],
    };
    expect(lines(podSpecErrors(spec))).toEqual([
      'spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"',
      'spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//8080"',
    ]);
  });

  it('a regular container’s duplicate name comes before its restartPolicy; an init container’s after, with its probes', () => {
    const spec = {
      containers: [c('a'), c('a', { restartPolicy: 'Always' })],
      initContainers: [c('a', { restartPolicy: 'Never', livenessProbe: { exec: { command: ['true'] } } })],
    };
    expect(lines(podSpecErrors(spec))).toEqual([
      'spec.containers[1].name: Duplicate value: "a"',
      'spec.containers[1].restartPolicy: Forbidden: may not be set for non-init containers',
      'spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.initContainers[0].name: Duplicate value: "a"',
      'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
    ]);
  });
});

describe('probeErrors and lifecycleErrors (validateProbe, validateHandler, validateLifecycle)', () => {
  const exec = { exec: { command: ['true'] } };
  const ok = { ...exec, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };

  it('accepts a defaulted probe of each kind and each handler', () => {
    for (const field of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const)
      expect(probeErrors(field, ok, 'p', 30)).toEqual([]);
    const http = {
      httpGet: { path: '/', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-A', value: 'b' }] },
    };
    expect(probeErrors('readinessProbe', { ...ok, exec: undefined, ...http }, 'p', 30)).toEqual([]);
    expect(probeErrors('livenessProbe', { ...ok, exec: undefined, grpc: { port: 9000 } }, 'p', 30)).toEqual(
      [],
    );
    expect(lifecycleErrors({ preStop: { sleep: { seconds: 30 } }, postStart: exec }, 'l', 30)).toEqual([]);
  });

  it('a probe without a handler and, for liveness, without successThreshold 1', () => {
    expect(lines(probeErrors('livenessProbe', {}, 'p', 30))).toEqual([
      'p: Required value: must specify a handler type',
      'p.successThreshold: Invalid value: 0: must be 1',
    ]);
  });

  it('a second handler is forbidden, and the first is checked', () => {
    expect(
      lines(
        probeErrors('readinessProbe', { exec: {}, httpGet: { path: '/' }, tcpSocket: { port: 1 } }, 'p', 30),
      ),
    ).toEqual([
      'p.exec.command: Required value',
      'p.httpGet: Forbidden: may not specify more than 1 handler type',
      'p.tcpSocket: Forbidden: may not specify more than 1 handler type',
    ]);
  });

  it('an httpGet without path, port and scheme, with a bad header; a tcpSocket port name', () => {
    expect(
      lines(probeErrors('readinessProbe', { httpGet: { httpHeaders: [{ name: 'X A' }] } }, 'p', 30)),
    ).toEqual([
      'p.httpGet.path: Required value',
      'p.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'p.httpGet.scheme: Unsupported value: "": supported values: "HTTP", "HTTPS"',
      `p.httpGet.httpHeaders: Invalid value: "X A": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
    ]);
    expect(lines(probeErrors('readinessProbe', { tcpSocket: { port: 'a--b' } }, 'p', 30))).toEqual([
      'p.tcpSocket.port: Invalid value: "a--b": must not contain consecutive hyphens',
    ]);
  });

  it('negative numbers; a probe grace period of 0; readiness with a grace period; startup succeeding at 2', () => {
    expect(
      lines(
        probeErrors(
          'startupProbe',
          { ...ok, periodSeconds: -1, successThreshold: 2, terminationGracePeriodSeconds: 0 },
          'p',
          30,
        ),
      ),
    ).toEqual([
      'p.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
      'p.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0',
      'p.successThreshold: Invalid value: 2: must be 1',
    ]);
    expect(
      lines(probeErrors('readinessProbe', { ...ok, terminationGracePeriodSeconds: 5 }, 'p', 30)),
    ).toEqual(['p.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes']);
  });

  it('a hook sleeps more than 0 and at most the pod’s grace period; a probe cannot sleep', () => {
    const message =
      'must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.';
    expect(
      lines(lifecycleErrors({ postStart: { sleep: {} }, preStop: { sleep: { seconds: 31 } } }, 'l', 30)),
    ).toEqual([
      `l.postStart.sleep: Invalid value: 0: ${message}`,
      `l.preStop.sleep: Invalid value: 31: ${message}`,
    ]);
    expect(lifecycleErrors({ preStop: { sleep: { seconds: 99 } } }, 'l', undefined)).toEqual([]);
    expect(lines(probeErrors('readinessProbe', { sleep: { seconds: 1 } }, 'p', 30))).toEqual([
      'p: Required value: must specify a handler type',
    ]);
  });

  it('podSpecErrors checks hooks and probes after a regular container’s name, and a restartable init container’s', () => {
    const c = (name: string, extra: Record<string, unknown>) => ({
      name,
      image: 'nginx',
      imagePullPolicy: 'Always',
      terminationMessagePolicy: 'File',
      ...extra,
    });
    const spec = {
      terminationGracePeriodSeconds: 10,
      containers: [
        c('a', {
          lifecycle: { preStop: { sleep: { seconds: 11 } } },
          livenessProbe: { ...ok, successThreshold: 3 },
        }),
      ],
      initContainers: [c('i', { restartPolicy: 'Always', readinessProbe: {} })],
    };
    expect(lines(podSpecErrors(spec))).toEqual([
      'spec.containers[0].lifecycle.preStop.sleep: Invalid value: 11: must be greater than 0 and less than terminationGracePeriodSeconds (10). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.',
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 3: must be 1',
      'spec.initContainers[0].readinessProbe: Required value: must specify a handler type',
    ]);
  });
});

describe('resourceRequirementsErrors (validateResourceRequirements, validateContainerResourceName)', () => {
  const r = (requests: Record<string, string>, limits: Record<string, string> = {}) =>
    lines(resourceRequirementsErrors({ requests, limits }, 'p'));

  it('accepts standard, hugepages with memory, native-domain and extended resources', () => {
    expect(r({ cpu: '500m', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })).toEqual([]);
    expect(r({ 'hugepages-2Mi': '2Mi', memory: '1Gi' }, { 'hugepages-2Mi': '2Mi' })).toEqual([]);
    expect(r({ 'example.com/a': '2' }, { 'example.com/a': '2' })).toEqual([]);
    expect(r({ 'kubernetes.io/thing': '1' })).toEqual([]);
  });

  it('a request above its limit, both printed in Go’s canonical form', () => {
    expect(r({ cpu: '1500m' }, { cpu: '1000m' })).toEqual([
      'p.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1',
    ]);
  });

  it('upstream’s invalid cases: a non-standard name (both rules), an extended request not equal to or without its limit', () => {
    expect(r({ 'invalid-name': '2' }, { 'invalid-name': '2' })).toEqual([
      'p.limits[invalid-name]: Invalid value: invalid-name: must be a standard resource type or fully qualified',
      'p.limits[invalid-name]: Invalid value: invalid-name: must be a standard resource for containers',
      'p.requests[invalid-name]: Invalid value: invalid-name: must be a standard resource type or fully qualified',
      'p.requests[invalid-name]: Invalid value: invalid-name: must be a standard resource for containers',
    ]);
    expect(r({ 'example.com/a': '1' }, { 'example.com/a': '2' })).toEqual([
      'p.requests: Invalid value: "1": must be equal to example.com/a limit of 2',
    ]);
    expect(r({ 'example.com/a': '2' })).toEqual([
      'p.limits: Required value: Limit must be set for non overcommitable resources',
    ]);
  });

  it('a negative quantity; hugepages without cpu or memory', () => {
    expect(r({}, { memory: '-1Gi' })).toEqual([
      'p.limits[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
    ]);
    expect(r({ 'hugepages-2Mi': '2Mi' }, { 'hugepages-2Mi': '2Mi' })).toEqual([
      'p: Forbidden: HugePages require cpu or memory',
    ]);
  });
});

describe('resizePolicyErrors (validateResizePolicy) and an init container’s resizePolicy', () => {
  it('accepts cpu and memory once each', () => {
    const ok = [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'RestartContainer' },
    ];
    expect(resizePolicyErrors(ok, 'p', 'Always')).toEqual([]);
  });

  it('a repeated, empty or unknown resource (printed unquoted: a Stringer) and policy; a restart in a pod that never restarts', () => {
    const policies = [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'cpu', restartPolicy: 'Sometimes' },
      { restartPolicy: '' },
      { resourceName: 'gpu', restartPolicy: 'RestartContainer' },
    ];
    expect(lines(resizePolicyErrors(policies, 'p', 'Never'))).toEqual([
      'p[1]: Duplicate value: cpu',
      'p: Unsupported value: "Sometimes": supported values: "NotRequired", "RestartContainer"',
      `p: Invalid value: "Sometimes": must be 'NotRequired' when \`restartPolicy\` is 'Never'`,
      'p: Required value',
      'p: Required value',
      `p: Invalid value: "": must be 'NotRequired' when \`restartPolicy\` is 'Never'`,
      'p: Unsupported value: gpu: supported values: "cpu", "memory"',
      `p: Invalid value: "RestartContainer": must be 'NotRequired' when \`restartPolicy\` is 'Never'`,
    ]);
  });

  it('an init container’s resizePolicy is refused with the list printed as Go prints it', () => {
    expect(
      lines(initResizePolicyErrors([{ resourceName: 'cpu', restartPolicy: 'NotRequired' }], 'p')),
    ).toEqual([
      'p: Invalid value: []core.ContainerResizePolicy{core.ContainerResizePolicy{ResourceName:"cpu", RestartPolicy:"NotRequired"}}: must not be set for init containers',
    ]);
    expect(initResizePolicyErrors([], 'p')).toEqual([]);
  });
});

describe('securityContextErrors (ValidateSecurityContext)', () => {
  it('accepts ids in range, privileged, the known profiles and Unmasked outside the host’s user namespace', () => {
    const sc = {
      runAsUser: 0,
      runAsGroup: 2147483647,
      privileged: true,
      procMount: 'Unmasked',
      seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' },
      appArmorProfile: { type: 'Localhost', localhostProfile: 'k8s-apparmor' },
    };
    expect(securityContextErrors(sc, 'p', false)).toEqual([]);
    expect(securityContextErrors({ seccompProfile: { type: 'RuntimeDefault' } }, 'p', true)).toEqual([]);
  });

  it('ids out of range, an unknown or host-namespace Unmasked procMount', () => {
    expect(
      lines(
        securityContextErrors({ runAsUser: -1, runAsGroup: 2147483648, procMount: 'Unmasked' }, 'p', true),
      ),
    ).toEqual([
      'p.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
      'p.runAsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive',
      'p.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
    ]);
    expect(lines(securityContextErrors({ procMount: 'Masked' }, 'p', true))).toEqual([
      'p.procMount: Unsupported value: "Masked": supported values: "Default", "Unmasked"',
    ]);
  });

  it('seccomp and AppArmor profiles', () => {
    expect(lines(securityContextErrors({ seccompProfile: {} }, 'p', true))).toEqual([
      'p.seccompProfile.type: Required value: type is required when seccompProfile is set',
    ]);
    expect(
      lines(
        securityContextErrors(
          { seccompProfile: { type: 'Localhost', localhostProfile: '/x/../y' } },
          'p',
          true,
        ),
      ),
    ).toEqual([
      'p.seccompProfile.localhostProfile: Invalid value: "/x/../y": must be a relative path',
      `p.seccompProfile.localhostProfile: Invalid value: "/x/../y": must not contain '..'`,
    ]);
    expect(lines(securityContextErrors({ seccompProfile: { type: 'Localhost' } }, 'p', true))).toEqual([
      'p.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
    ]);
    expect(
      lines(
        securityContextErrors({ appArmorProfile: { type: 'Localhost', localhostProfile: ' x' } }, 'p', true),
      ),
    ).toEqual([
      'p.appArmorProfile.localhostProfile: Invalid value: " x": must not be padded with whitespace',
    ]);
    expect(
      lines(
        securityContextErrors({ appArmorProfile: { type: 'Unconfined', localhostProfile: 'x' } }, 'p', true),
      ),
    ).toEqual([
      'p.appArmorProfile.localhostProfile: Invalid value: "x": can only be set when AppArmor type is Localhost',
    ]);
    expect(lines(securityContextErrors({ appArmorProfile: { type: 'Nope' } }, 'p', true))).toEqual([
      'p.appArmorProfile.type: Unsupported value: "Nope": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
    ]);
  });

  it('podSpecErrors checks resizePolicy and securityContext after resources, hostUsers from the pod', () => {
    const c = {
      name: 'a',
      image: 'nginx',
      imagePullPolicy: 'Always',
      terminationMessagePolicy: 'File',
      resources: { requests: { cpu: '2' }, limits: { cpu: '1' } },
      resizePolicy: [{ resourceName: 'gpu', restartPolicy: 'NotRequired' }],
      securityContext: { procMount: 'Unmasked' },
    };
    expect(lines(podSpecErrors({ containers: [c] }))).toEqual([
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      'spec.containers[0].resizePolicy: Unsupported value: gpu: supported values: "cpu", "memory"',
      'spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
    ]);
    expect(lines(podSpecErrors({ containers: [c], securityContext: { hostUsers: false } }))).toHaveLength(2);
  });
});

describe('malformed lists (bad input gets errors, not a crash)', () => {
  it('null and scalar elements read as Go’s zero values', () => {
    const spec = {
      volumes: [null],
      containers: [
        {
          name: 'a',
          image: 'nginx',
          imagePullPolicy: 'Always',
          terminationMessagePolicy: 'File',
          ports: [null],
          env: [null, 'x'],
          envFrom: [null],
          volumeMounts: [null],
          volumeDevices: [7],
        },
        null,
      ],
      initContainers: [null],
    } as unknown as Parameters<typeof podSpecErrors>[0];
    expect(lines(podSpecErrors(spec))).toEqual([
      'spec.volumes[0]: Required value: must specify a volume type',
      'spec.volumes[0].name: Required value',
      'spec.containers[0].ports[0].containerPort: Required value',
      'spec.containers[0].ports[0].protocol: Required value',
      'spec.containers[0].env[0].name: Required value',
      'spec.containers[0].env[1].name: Required value',
      'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
      'spec.containers[0].volumeMounts[0].name: Required value',
      'spec.containers[0].volumeMounts[0].name: Not found: ""',
      'spec.containers[0].volumeMounts[0].mountPath: Required value',
      'spec.containers[0].volumeMounts[0].name: Invalid value: "": must not already exist in volumeDevices',
      'spec.containers[0].volumeMounts[0].mountPath: Invalid value: "": must not already exist as a path in volumeDevices',
      'spec.containers[0].volumeDevices[0].name: Required value',
      'spec.containers[0].volumeDevices[0].name: Not found: ""',
      'spec.containers[0].volumeDevices[0].devicePath: Required value',
      'spec.containers[0].volumeDevices[0].name: Invalid value: "": must not already exist in volumeMounts',
      'spec.containers[0].volumeDevices[0].devicePath: Invalid value: "": must not already exist as a path in volumeMounts',
      'spec.containers[1].name: Required value',
      'spec.containers[1].image: Required value',
      'spec.containers[1].terminationMessagePolicy: Required value',
      'spec.containers[1].imagePullPolicy: Required value',
      'spec.initContainers[0].name: Required value',
      'spec.initContainers[0].image: Required value',
      'spec.initContainers[0].terminationMessagePolicy: Required value',
      'spec.initContainers[0].imagePullPolicy: Required value',
      // the regular containers' names, the empty one included, are taken (validateInitContainers)
      'spec.initContainers[0].name: Duplicate value: ""',
    ]);
  });
});
