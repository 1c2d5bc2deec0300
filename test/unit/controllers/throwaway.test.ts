/**
 * A new kind's skeleton gets everything from its registration alone (issue 16): a throwaway `Widget` controller,
 * registered here only (never shipped), gets its watch streams, request parsing, lease, expectations, RBAC rows
 * and mapped (Node → Widgets) fan-out from the contract of lib/controllers/controller.ts, next to CloneSet.
 */
import { describe, expect, it } from '@jest/globals';
import type { Controller } from '../../../lib/controllers/controller.js';
import { cloneSet } from '../../../lib/controllers/cloneset/index.js';
import { controllerByKind, controllerByName, kindsOf } from '../../../lib/controllers/index.js';
import { accessOf } from '../../../lib/controllers/access.js';
import { rbacManifest } from '../../../lib/controllers/rbac.js';
import { silentLogger } from '../../../lib/core/logger.js';
import type { Resource } from '../../../lib/kube/resource.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient, Listed } from '../../../lib/kube/types.js';
import { reconcileObject, type Reconciler } from '../../../lib/reconcile/reconcile.js';
import type { ControllerDeps } from '../../../lib/controllers/controller.js';
import {
  DETAIL_TYPE,
  EVENT_VERSION,
  SOURCE,
  parseReconcileEvent,
  type ReconcileRequest,
} from '../../../lib/requests/index.js';
import { handleAdmissionReview } from '../../../lib/source/admission.js';
import { requestsForChange, watchStreams } from '../../../lib/source/watchSpec.js';
import { createMemoryStores } from '../../../lib/state/memory.js';
import { reviewBody } from '../support/admissionReview.js';

const GROUP = 'example.kruiseless.io';
const WIDGETS: Resource = {
  group: GROUP,
  version: 'v1',
  plural: 'widgets',
  namespaced: true,
  kind: 'Widget',
};
const NODES: Resource = { group: '', version: 'v1', plural: 'nodes', namespaced: false, kind: 'Node' };

/** What the widget's pass saw, per invocation. */
const seen: string[] = [];

/** One pass: record a pending create in the expectations (keyed by the widget's own key), then settle. */
const WIDGET_RECONCILER: Reconciler<ControllerDeps, string, 'all'> = {
  readScope: () => 'all',
  async pass(deps, key, env) {
    const stored = await deps.expectations.get(key);
    seen.push(
      `${key.kind}/${key.namespace ?? ''}/${key.name} scope=${env.scope} pending=${stored.creates.length}`,
    );
    await deps.expectations.put(env.lease, {
      ...stored,
      creates: [...stored.creates, { name: `${key.name}-0`, at: deps.clock() }],
    });
    return { gone: false, writes: 0, acted: false, plan: 'settled' };
  },
};

/** The throwaway controller: For Widget, Owns pods, Map Node → every Widget of the cluster. */
const widget: Controller<{ verbose: boolean }, string> = {
  name: 'widget',
  kind: `${GROUP}/Widget`,
  resource: WIDGETS,
  watches: [
    { type: 'For' },
    { type: 'Owns', resource: RESOURCES.pods },
    {
      type: 'Map',
      resource: NODES,
      async map(_node, reads) {
        const listed = await reads.kube.list(WIDGETS);
        return listed.items.map((w) => ({
          namespace: w.metadata.namespace ?? '',
          name: w.metadata.name ?? '',
        }));
      },
    },
  ],
  crd: 'example.kruiseless.io_widgets.yaml',
  access: {
    controller: [
      { verb: 'get', group: GROUP, resource: 'widgets' },
      { verb: 'list', resource: 'pods' },
    ],
    watcher: ['list', 'watch'].flatMap((verb) => [
      { verb, group: GROUP, resource: 'widgets' },
      { verb, resource: 'nodes', namespaced: false },
    ]),
    watcherDenied: [{ verb: 'patch', group: GROUP, resource: 'widgets' }],
    deniedToAll: [{ verb: 'delete', group: GROUP, resource: 'widgets' }],
    rules: {
      controller: [
        { apiGroups: [GROUP], resources: ['widgets'], verbs: ['get'], comment: ['Read the Widget.'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      ],
      watcher: [
        { apiGroups: [GROUP], resources: ['widgets'], verbs: ['list', 'watch'] },
        { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'watch'] },
      ],
    },
  },
  settings: {
    parse: ({ featureGates }) => ({
      settings: { verbose: featureGates.includes('WidgetVerbose=true') },
      unknownGates: [],
    }),
    defaults: { verbose: false },
    flags: [],
  },
  reconcile: (deps, request) => reconcileObject(deps, WIDGET_RECONCILER, request),
};

const BOTH: readonly Controller[] = [cloneSet, widget];

/** A client that lists two widgets and nothing else. */
const kube = {
  async list(resource: Resource): Promise<Listed<never>> {
    const items =
      resource.plural === 'widgets'
        ? [{ metadata: { namespace: 'a', name: 'w1' } }, { metadata: { namespace: 'b', name: 'w2' } }]
        : [];
    return { items: items as never[], resourceVersion: '9' };
  },
  async get() {
    return undefined;
  },
} as unknown as KubeClient;

describe('a throwaway controller registered beside CloneSet', () => {
  it('is found by kind and by name', () => {
    expect(controllerByKind(`${GROUP}/Widget`, BOTH)).toBe(widget);
    expect(controllerByName('widget', BOTH)).toBe(widget);
    expect(controllerByName('cloneset', BOTH)).toBe(cloneSet);
  });

  it('gets its watch streams: its own resource, nodes, and a pods stream of its own beside CloneSet’s labelled one', () => {
    const streams = watchStreams(BOTH);
    expect(
      streams.map((s) => [s.resource, s.path, s.labelSelector, s.consumers.map((c) => c.controller.kind)]),
    ).toEqual([
      ['clonesets', '/apis/apps.kruise.io/v1alpha1/clonesets', undefined, ['apps.kruise.io/CloneSet']],
      ['pods', '/api/v1/pods', 'apps.kruise.io/cloneset-instance-id', ['apps.kruise.io/CloneSet']],
      [
        'persistentvolumeclaims',
        '/api/v1/persistentvolumeclaims',
        'apps.kruise.io/cloneset-instance-id',
        ['apps.kruise.io/CloneSet'],
      ],
      ['widgets', '/apis/example.kruiseless.io/v1/widgets', undefined, ['example.kruiseless.io/Widget']],
      ['pods?', '/api/v1/pods', undefined, ['example.kruiseless.io/Widget']],
      ['nodes', '/api/v1/nodes', undefined, ['example.kruiseless.io/Widget']],
    ]);
  });

  it('maps its own objects, the pods it controls, and (through its reads) every node change to its keys', async () => {
    const streams = watchStreams(BOTH);
    const reads = { cluster: 'prod', kube };
    const byName = (name: string) => streams.find((s) => s.resource === name) ?? streams[0];
    const base = { version: EVENT_VERSION, cluster: 'prod', kind: `${GROUP}/Widget` };
    expect(
      await requestsForChange(
        byName('widgets'),
        { metadata: { namespace: 'a', name: 'w1' } },
        reads,
        silentLogger,
      ),
    ).toEqual([{ ...base, namespace: 'a', name: 'w1', reason: 'ObjectChanged' }]);
    const pod = {
      metadata: {
        namespace: 'a',
        name: 'w1-x',
        ownerReferences: [
          { apiVersion: `${GROUP}/v1`, kind: 'Widget', name: 'w1', uid: 'u', controller: true },
        ],
      },
    };
    expect(await requestsForChange(byName('pods?'), pod, reads, silentLogger)).toEqual([
      { ...base, namespace: 'a', name: 'w1', reason: 'OwnedObjectChanged' },
    ]);
    expect(
      await requestsForChange(
        byName('nodes'),
        { metadata: { name: 'n1', resourceVersion: '5' } },
        reads,
        silentLogger,
      ),
    ).toEqual([
      { ...base, namespace: 'a', name: 'w1', reason: 'MappedObjectChanged', resourceVersion: '5' },
      { ...base, namespace: 'b', name: 'w2', reason: 'MappedObjectChanged', resourceVersion: '5' },
    ]);
    // the admission source serves its For/Owns watches too (the mapped one is the pump's)
    const review = reviewBody({
      uid: 'r1',
      kind: { group: GROUP, version: 'v1', kind: 'Widget' },
      namespace: 'a',
      operation: 'UPDATE',
      object: { metadata: { name: 'w1' } },
    });
    expect(handleAdmissionReview('prod', review, streams).requests).toEqual([
      { ...base, namespace: 'a', name: 'w1', reason: 'ObjectChanged' },
    ]);
  });

  it('gets its requests parsed: the registry knows its kind and scope', () => {
    const detail = {
      version: 2,
      cluster: 'prod',
      kind: `${GROUP}/Widget`,
      namespace: 'a',
      name: 'w1',
      reason: 'Resync',
    };
    const envelope = { source: SOURCE, 'detail-type': DETAIL_TYPE, detail };
    expect(parseReconcileEvent(envelope, kindsOf(BOTH))).toEqual(detail);
    expect(() => parseReconcileEvent(envelope, kindsOf([cloneSet]))).toThrow(/kind/);
  });

  it('gets a lease and expectations keyed by its own object key through the kind-neutral loop', async () => {
    seen.length = 0;
    const stores = createMemoryStores();
    const request: ReconcileRequest = {
      version: EVENT_VERSION,
      cluster: 'prod',
      kind: `${GROUP}/Widget`,
      namespace: 'a',
      name: 'w1',
      reason: 'ObjectChanged',
    };
    const deps: ControllerDeps = {
      kube,
      ...stores,
      requeue: { requeueAfter: async () => undefined },
      log: silentLogger,
      clock: () => 1_000,
      holder: 'inv-1',
      sleep: async () => undefined,
      deadlineMs: 60_000,
      leaseDurationMs: 120_000,
      maxInlineWaitSeconds: 10,
      maxPasses: 3,
    };
    const controller = controllerByKind(request.kind, BOTH);
    expect(await controller?.reconcile(deps, request, widget.settings.defaults)).toEqual({
      result: 'reconciled',
      passes: 1,
      writes: 0,
      plan: 'settled',
    });
    await controller?.reconcile({ ...deps, holder: 'inv-2' }, request, widget.settings.defaults);
    expect(seen).toEqual([
      `${GROUP}/Widget/a/w1 scope=all pending=0`,
      `${GROUP}/Widget/a/w1 scope=all pending=1`,
    ]);
    const key = { cluster: 'prod', kind: `${GROUP}/Widget`, namespace: 'a', name: 'w1' };
    expect((await stores.expectations.get(key)).creates.map((c) => c.name)).toEqual(['w1-0', 'w1-0']);
    // the CloneSet of the same name and namespace shares nothing with it
    expect((await stores.expectations.get({ ...key, kind: cloneSet.kind })).creates).toEqual([]);
    const held = await stores.leases.acquire(key, 'inv-3', 1000, 2_000);
    expect(held.acquired).toBe(true);
  });

  it('gets its RBAC rows joined with CloneSet’s and the shared Events rows', () => {
    const access = accessOf(BOTH);
    const labels = (rows: readonly { verb: string; resource: string; group?: string }[]) =>
      rows.map((r) => `${r.verb} ${r.resource}${r.group ? `.${r.group}` : ''}`);
    expect(labels(access.controller)).toContain('get widgets.example.kruiseless.io');
    expect(labels(access.controller).filter((l) => l === 'list pods')).toHaveLength(1);
    expect(labels(access.controller).slice(-3)).toEqual(['get events', 'create events', 'patch events']);
    expect(labels(access.watcher)).toEqual(
      expect.arrayContaining(['watch nodes', 'list widgets.example.kruiseless.io']),
    );
    expect(labels(access.watcherDenied)).toContain('patch widgets.example.kruiseless.io');
    expect(labels(access.deniedToAll)).toContain('delete widgets.example.kruiseless.io');
    expect(accessOf([cloneSet]).controller).toHaveLength(25);
    // and its ClusterRole rules in the generated manifest, after CloneSet's and before the shared Events rule
    const manifest = rbacManifest(BOTH);
    expect(manifest).toContain(
      `  # Read the Widget.\n  - apiGroups: [${GROUP}]\n    resources: [widgets]\n    verbs: [get]\n`,
    );
    expect(manifest.indexOf('resources: [widgets]')).toBeGreaterThan(
      manifest.indexOf('resources: [nodeimages]'),
    );
    expect(manifest.indexOf('resources: [widgets]')).toBeLessThan(manifest.indexOf('resources: [events]'));
    expect(manifest).toContain("  - apiGroups: ['']\n    resources: [nodes]\n    verbs: [list, watch]\n");
  });
});
