import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { applyDefaults } from '../../../lib/controllers/cloneset/api/defaults.js';
import { defaultPodTemplate, kubernetesDefaultPullPolicy } from '../../../lib/api/podTemplateDefaults.js';
import type { CloneSet, PodTemplateSpec } from '../../../lib/api/types.js';
import { goJson } from '../../../lib/podset/revision/goJson.js';
import { newRevision, revisionData } from '../../../lib/controllers/cloneset/plan/revision/revision.js';
import { World } from '../support/world.js';

const SEED_YAML = new URL('../../../examples/cs-no-pvc-sample.yaml', import.meta.url);

/** The seed CloneSet exactly as `examples/cs-no-pvc-sample.yaml` writes it, in namespace `default`. */
function seed(): CloneSet {
  const cs = parse(readFileSync(SEED_YAML, 'utf8')) as CloneSet;
  cs.metadata.namespace = 'default';
  cs.metadata.uid = 'cs-uid';
  return cs;
}

/** The seed's template after OpenKruise's webhook, as OpenKruise stores it (in Go struct order). */
function seedDefaulted(image = 'nginx:1.18-alpine'): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'cs-no-pvc-sample' } },
    spec: {
      containers: [
        {
          name: 'nginx',
          image,
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'Always',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  };
}

describe('defaultPodTemplate (OpenKruise SetDefaultPodSpec)', () => {
  test("the seed's template gets exactly the webhook's pod-spec and container defaults", () => {
    const input = seed().spec.template;
    const before = structuredClone(input);
    const out = defaultPodTemplate(input);
    expect(out).toEqual(seedDefaulted());
    expect(input).toEqual(before);
    expect(out.spec.containers[0]).not.toBe(input.spec.containers[0]);
  });

  test('probes, ports, env fieldRefs, lifecycle hooks, init and ephemeral containers and volumes', () => {
    const input: PodTemplateSpec = {
      spec: {
        initContainers: [
          { name: 'init-untagged', image: 'busybox' },
          { name: 'init-latest', image: 'registry.local:5000/team/busybox:latest' },
          { name: 'init-tagged', image: 'busybox:1.36' },
          { name: 'init-digest', image: `busybox@sha256:${'a'.repeat(64)}` },
          {
            name: 'init-kept',
            image: 'busybox',
            imagePullPolicy: 'Never',
            terminationMessagePolicy: 'FallbackToLogsOnError',
          },
        ],
        containers: [
          {
            name: 'app',
            image: 'app:1',
            ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
            env: [
              { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              { name: 'PLAIN', value: 'x' },
            ],
            livenessProbe: { httpGet: { port: 80 } },
            readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5, timeoutSeconds: 0 },
            startupProbe: { exec: { command: ['true'] }, failureThreshold: 30 },
            lifecycle: {
              preStop: { httpGet: { port: 80, path: '/stop' } },
              postStart: { exec: { command: ['x'] } },
            },
            resources: { limits: { cpu: '1' } },
          },
        ],
        ephemeralContainers: [{ name: 'debug', image: 'busybox', ports: [{ containerPort: 1 }] }],
        volumes: [
          { name: 'scratch' },
          { name: 'host', hostPath: { path: '/var/log' } },
          { name: 'secret', secret: { secretName: 's' } },
          { name: 'config', configMap: { name: 'c', defaultMode: 256 } },
          {
            name: 'downward',
            downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] },
          },
          {
            name: 'projected',
            projected: {
              sources: [
                { downwardAPI: { items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels' } }] } },
                { serviceAccountToken: { path: 'token' } },
                { configMap: { name: 'c' } },
              ],
            },
          },
          { name: 'claim', persistentVolumeClaim: { claimName: 'data' } },
        ],
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 0,
        hostNetwork: true,
      },
    };
    const termination = { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' };
    expect(defaultPodTemplate(input)).toEqual({
      spec: {
        initContainers: [
          {
            name: 'init-untagged',
            image: 'busybox',
            imagePullPolicy: 'Always',
            ...termination,
            resources: {},
          },
          {
            name: 'init-latest',
            image: 'registry.local:5000/team/busybox:latest',
            imagePullPolicy: 'Always',
            ...termination,
            resources: {},
          },
          {
            name: 'init-tagged',
            image: 'busybox:1.36',
            imagePullPolicy: 'IfNotPresent',
            ...termination,
            resources: {},
          },
          {
            name: 'init-digest',
            image: `busybox@sha256:${'a'.repeat(64)}`,
            imagePullPolicy: 'IfNotPresent',
            ...termination,
            resources: {},
          },
          {
            name: 'init-kept',
            image: 'busybox',
            imagePullPolicy: 'Never',
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'FallbackToLogsOnError',
            resources: {},
          },
        ],
        containers: [
          {
            name: 'app',
            image: 'app:1',
            imagePullPolicy: 'Always',
            ...termination,
            ports: [
              { containerPort: 80, protocol: 'TCP' },
              { containerPort: 53, protocol: 'UDP' },
            ],
            env: [
              { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } },
              { name: 'PLAIN', value: 'x' },
            ],
            livenessProbe: {
              httpGet: { port: 80, path: '/', scheme: 'HTTP' },
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            readinessProbe: {
              tcpSocket: { port: 80 },
              timeoutSeconds: 1,
              periodSeconds: 5,
              successThreshold: 1,
              failureThreshold: 3,
            },
            startupProbe: {
              exec: { command: ['true'] },
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 30,
            },
            lifecycle: {
              preStop: { httpGet: { port: 80, path: '/stop', scheme: 'HTTP' } },
              postStart: { exec: { command: ['x'] } },
            },
            resources: { limits: { cpu: '1' } },
          },
        ],
        ephemeralContainers: [
          { name: 'debug', image: 'busybox', ports: [{ containerPort: 1, protocol: 'TCP' }], resources: {} },
        ],
        volumes: [
          { name: 'scratch', emptyDir: {} },
          { name: 'host', hostPath: { path: '/var/log', type: '' } },
          { name: 'secret', secret: { secretName: 's', defaultMode: 420 } },
          { name: 'config', configMap: { name: 'c', defaultMode: 256 } },
          {
            name: 'downward',
            downwardAPI: {
              items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }],
              defaultMode: 420,
            },
          },
          {
            name: 'projected',
            projected: {
              sources: [
                {
                  downwardAPI: {
                    items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }],
                  },
                },
                { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
                { configMap: { name: 'c' } },
              ],
              defaultMode: 420,
            },
          },
          { name: 'claim', persistentVolumeClaim: { claimName: 'data' } },
        ],
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 0,
        hostNetwork: true,
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        schedulerName: 'default-scheduler',
      },
    });
  });

  test('JSON nulls count as unset (Go decodes them to zero values)', () => {
    const input = {
      spec: {
        containers: [{ name: 'c', image: 'x:1', imagePullPolicy: null, resources: null }],
        securityContext: null,
        terminationGracePeriodSeconds: null,
        volumes: [{ name: 'v', emptyDir: null }],
      },
    } as unknown as PodTemplateSpec;
    const out = defaultPodTemplate(input);
    expect(out.spec.containers[0].imagePullPolicy).toBe('Always');
    expect(out.spec.containers[0].resources).toEqual({});
    expect(out.spec.securityContext).toEqual({});
    expect(out.spec.terminationGracePeriodSeconds).toBe(30);
    expect(out.spec.volumes).toEqual([{ name: 'v', emptyDir: {} }]);
  });

  test('idempotent: defaulting a defaulted template (as OpenKruise stores it) changes nothing, bytes included', () => {
    const once = defaultPodTemplate(seed().spec.template);
    expect(defaultPodTemplate(once)).toEqual(once);
    const stored = seedDefaulted();
    expect(JSON.stringify(defaultPodTemplate(stored))).toBe(JSON.stringify(stored));
  });

  test.each<[string, string, 'Always' | 'IfNotPresent']>([
    ['no tag', 'nginx', 'Always'],
    ['tag latest', 'docker.io/library/nginx:latest', 'Always'],
    ['a version tag', 'nginx:1.18-alpine', 'IfNotPresent'],
    ['a registry port, no tag', 'localhost:5000/nginx', 'Always'],
    ['a digest only', `nginx@sha256:${'0'.repeat(64)}`, 'IfNotPresent'],
    ['tag latest and a digest', `nginx:latest@sha256:${'0'.repeat(64)}`, 'Always'],
    ['an unparsable reference', 'Nginx:UPPER:bad', 'IfNotPresent'],
    ['an empty image', '', 'IfNotPresent'],
  ])('init containers follow the Kubernetes pull-policy rule: %s', (_n, image, want) => {
    expect(kubernetesDefaultPullPolicy(image)).toBe(want);
  });
});

describe('applyDefaults and the TemplateNoDefaults gate', () => {
  test('off (the default): the template is defaulted; on: it is kept as stored', () => {
    expect(applyDefaults(seed()).spec.template).toEqual(seedDefaulted());
    expect(applyDefaults(seed(), { templateNoDefaults: false }).spec.template).toEqual(seedDefaulted());
    expect(applyDefaults(seed(), { templateNoDefaults: true }).spec.template).toEqual(seed().spec.template);
  });
});

describe("revision names of the seed CloneSet match OpenKruise's", () => {
  test('the revision data is the defaulted template, named cs-no-pvc-sample-7fb7468d98', () => {
    const cs = applyDefaults(seed());
    const rev = newRevision(cs, 1, 0);
    expect(rev.metadata.name).toBe('cs-no-pvc-sample-7fb7468d98');
    expect(goJson(revisionData(cs.spec.template))).toBe(
      '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"cs-no-pvc-sample"}},' +
        '"spec":{"containers":[{"image":"nginx:1.18-alpine","imagePullPolicy":"Always","name":"nginx","resources":{},' +
        '"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst",' +
        '"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}',
    );
  });

  test('a template OpenKruise already defaulted keeps its revision name', () => {
    const cs = seed();
    cs.spec.template = seedDefaulted();
    expect(newRevision(applyDefaults(cs), 1, 0).metadata.name).toBe('cs-no-pvc-sample-7fb7468d98');
  });

  test('with TemplateNoDefaults the name is the hash of the template as written', () => {
    const w = new World(seed(), { gates: { templateNoDefaults: true } }).useIds('aaaaa');
    w.reconcile();
    expect(w.cloneSet.status?.updateRevision).toBe('cs-no-pvc-sample-7866b64cc6');
    expect(w.pods[0].spec.containers[0].imagePullPolicy).toBeUndefined();
  });

  test('the seed story: pods get imagePullPolicy Always, revisions 7fb7468d98 then 6ccb957675, the kept pod updated in place', () => {
    const w = new World(seed()).useIds('aaaaa', 'bbbbb');
    w.settle();
    expect(w.cloneSet.status?.updateRevision).toBe('cs-no-pvc-sample-7fb7468d98');
    expect(w.activePods().map((p) => p.spec.containers[0])).toEqual([
      seedDefaulted().spec.containers[0],
      seedDefaulted().spec.containers[0],
    ]);
    expect(w.activePods()[0].spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      securityContext: {},
    });

    w.edit((cs) => {
      cs.spec.replicas = 1;
      cs.spec.template.spec.containers[0].image = 'nginx:1.19-alpine';
    });
    w.reconcile();
    const keptUid = w.activePods()[0].metadata.uid;
    for (let i = 0; i < 10; i++) {
      w.tick(1);
      w.reconcile();
      w.kubelet();
    }
    w.settle();
    expect(w.revisions.map((r) => r.metadata.name).sort()).toEqual([
      'cs-no-pvc-sample-6ccb957675',
      'cs-no-pvc-sample-7fb7468d98',
    ]);
    expect(w.cloneSet.status?.updateRevision).toBe('cs-no-pvc-sample-6ccb957675');
    expect(w.cloneSet.status?.currentRevision).toBe('cs-no-pvc-sample-6ccb957675');
    const [pod] = w.activePods();
    expect(pod.metadata.uid).toBe(keptUid);
    expect(pod.spec.containers[0]).toEqual(seedDefaulted('nginx:1.19-alpine').spec.containers[0]);
    expect(pod.status?.containerStatuses?.[0].restartCount).toBe(1);
  });
});
