/** The handlers' metrics: per-invocation aggregation, controller-runtime's result labels, the EMF lines. */
import { describe, expect, it } from '@jest/globals';
import { METRIC } from '../../../lib/core/metrics.js';
import { controllerNameOf } from '../../../lib/core/objectKey.js';
import { resourceOfPath } from '../../../lib/kube/request.js';
import { emfSink } from '../../../lib/runtime/emf.js';
import {
  InvocationMetrics,
  MemoryMetrics,
  currentMetrics,
  meteredPublisher,
  reconcileResultLabel,
  recordApiRequest,
  recordReconcile,
  withMetrics,
} from '../../../lib/runtime/metrics.js';
import type { ReconcileRequest } from '../../../lib/requests/index.js';

describe('InvocationMetrics', () => {
  it('takes its controller dimension from the reconciled kind', () => {
    const m = new InvocationMetrics(controllerNameOf('apps.kruise.io/BroadcastJob'));
    m.add(METRIC.reconcileTotal, 1, { result: 'success' });
    expect(m.points()).toEqual([
      {
        name: METRIC.reconcileTotal,
        dimensions: { controller: 'broadcastjob', result: 'success' },
        values: [1],
      },
    ]);
    expect(controllerNameOf('apps.kruise.io/CloneSet')).toBe('cloneset');
    expect(() => controllerNameOf('CloneSet')).toThrow('kind "CloneSet" is not <group>/<Kind>');
  });

  it('sums counts per name and dimension set, keeps each duration, adds the controller dimension', () => {
    const m = new InvocationMetrics('cloneset');
    m.add(METRIC.restClientRequests, 1, { verb: 'POST', resource: 'pods', code: '201' });
    m.add(METRIC.restClientRequests, 1, { code: '201', resource: 'pods', verb: 'POST' });
    m.add(METRIC.restClientRequests, 1, { verb: 'GET', resource: 'pods', code: '200' });
    m.add(METRIC.reconcileTime, 0.5);
    m.add(METRIC.reconcileTime, 0.25);
    expect(m.points()).toEqual([
      {
        name: METRIC.restClientRequests,
        dimensions: { controller: 'cloneset', verb: 'POST', resource: 'pods', code: '201' },
        values: [2],
      },
      {
        name: METRIC.restClientRequests,
        dimensions: { controller: 'cloneset', verb: 'GET', resource: 'pods', code: '200' },
        values: [1],
      },
      { name: METRIC.reconcileTime, dimensions: { controller: 'cloneset' }, values: [0.5, 0.25] },
    ]);
  });
});

describe('reconcile results', () => {
  const end = { failed: false, deferred: false, seconds: 2 };
  it.each([
    [{ ...end, failed: true, requeuedAfterSeconds: 4 }, 'error'],
    [{ ...end, deferred: true }, 'requeue'],
    [{ ...end, requeuedAfterSeconds: 30 }, 'requeue_after'],
    [end, 'success'],
  ] as const)('%j is %s', (e, label) => {
    expect(reconcileResultLabel(e)).toBe(label);
  });

  it('records total, errors, duration, requeues and contention', () => {
    const sink = new MemoryMetrics();
    const a = new InvocationMetrics('cloneset');
    recordReconcile(a, { ...end, failed: true, requeuedAfterSeconds: 4 });
    const b = new InvocationMetrics('cloneset');
    recordReconcile(b, { ...end, deferred: true, seconds: 0.1 });
    sink.flush(a);
    sink.flush(b);
    expect(sink.total(METRIC.reconcileTotal)).toBe(2);
    expect(sink.total(METRIC.reconcileTotal, { result: 'error' })).toBe(1);
    expect(sink.total(METRIC.reconcileTotal, { result: 'requeue' })).toBe(1);
    expect(sink.total(METRIC.reconcileErrors)).toBe(1);
    expect(sink.total(METRIC.reconcileTime)).toBeCloseTo(2.1);
    expect(sink.total(METRIC.workqueueRetries)).toBe(1);
    expect(sink.total(METRIC.leaseContention)).toBe(1);
  });
});

describe('the invocation context', () => {
  it('API requests count into the invocation that made them, also across awaits, and it is flushed on throw', async () => {
    const sink = new MemoryMetrics();
    const a = new InvocationMetrics('cloneset');
    const b = new InvocationMetrics('cloneset');
    const tick = () => new Promise((r) => setTimeout(r, 1));
    await Promise.all([
      withMetrics(a, sink, async () => {
        await tick();
        recordApiRequest({ method: 'POST', resource: 'pods', code: '201' });
      }),
      withMetrics(b, sink, async () => {
        recordApiRequest({ method: 'GET', resource: 'clonesets', code: '200' });
        await tick();
        throw new Error('boom');
      }).catch(() => undefined),
    ]);
    expect(a.points().map((p) => p.dimensions.verb)).toEqual(['POST']);
    expect(b.points().map((p) => p.dimensions.verb)).toEqual(['GET']);
    expect(sink.total(METRIC.restClientRequests)).toBe(2);
    recordApiRequest({ method: 'GET', resource: 'pods', code: '200' }); // outside any invocation: dropped
    expect(sink.total(METRIC.restClientRequests)).toBe(2);
    expect(currentMetrics().add).toBeDefined();
  });

  it('a publish counts the requests it merged', async () => {
    const m = new InvocationMetrics('cloneset');
    const req: ReconcileRequest = {
      version: 2,
      cluster: 'c',
      kind: 'apps.kruise.io/CloneSet',
      namespace: 'n',
      name: 'a',
      reason: 'OwnedObjectChanged',
    };
    const publisher = meteredPublisher({ publish: async () => ({ published: 1, calls: 1, retried: 0 }) }, m);
    await publisher.publish([req, req, req]);
    expect(m.points()).toEqual([
      { name: METRIC.eventsCoalesced, dimensions: { controller: 'cloneset' }, values: [2] },
    ]);
  });
});

describe('resourceOfPath', () => {
  it.each([
    ['/api/v1/namespaces/a/pods', 'pods'],
    ['/api/v1/namespaces/a/pods/p/status', 'pods'],
    ['/apis/apps.kruise.io/v1alpha1/namespaces/a/clonesets/c/status', 'clonesets'],
    ['/apis/apps.kruise.io/v1alpha1/clonesets', 'clonesets'],
    ['/apis/apps/v1/namespaces/a/controllerrevisions', 'controllerrevisions'],
    ['/api/v1/namespaces/a', 'namespaces'],
    ['/api/v1/pods', 'pods'],
  ])('%s → %s', (path, resource) => {
    expect(resourceOfPath(path)).toBe(resource);
  });
});

describe('emfSink', () => {
  it('prints one EMF document per dimension set, with the invocation properties as metadata', () => {
    const lines: string[] = [];
    const sink = emfSink({
      namespace: 'Kruiseless-test',
      serviceName: 'kruiseless',
      write: (l) => lines.push(l),
    });
    const m = new InvocationMetrics('cloneset');
    m.property('key', 'c/apps.kruise.io/CloneSet/ns/web');
    m.property('correlationIds', ['x']);
    recordReconcile(m, { failed: false, deferred: false, seconds: 1.5 });
    m.add(METRIC.restClientRequests, 2, { verb: 'POST', resource: 'pods', code: '201' });
    sink.flush(m);
    const docs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const strip = (d: Record<string, unknown>) => {
      const aws = d._aws as { Timestamp: number; CloudWatchMetrics: unknown };
      expect(typeof aws.Timestamp).toBe('number');
      return { ...d, _aws: { CloudWatchMetrics: aws.CloudWatchMetrics } };
    };
    const meta = {
      key: 'c/apps.kruise.io/CloneSet/ns/web',
      correlationIds: '["x"]',
      service: 'kruiseless',
      controller: 'cloneset',
    };
    expect(docs.map(strip)).toEqual([
      {
        _aws: {
          CloudWatchMetrics: [
            {
              Namespace: 'Kruiseless-test',
              Dimensions: [['service', 'controller', 'result']],
              Metrics: [{ Name: METRIC.reconcileTotal, Unit: 'Count' }],
            },
          ],
        },
        ...meta,
        result: 'success',
        [METRIC.reconcileTotal]: 1,
      },
      {
        _aws: {
          CloudWatchMetrics: [
            {
              Namespace: 'Kruiseless-test',
              // also service-wide: the error-rate alarm and the dashboard read every controller's reconciles
              Dimensions: [['service', 'controller'], ['service']],
              Metrics: [
                { Name: METRIC.reconcileErrors, Unit: 'Count' },
                { Name: METRIC.reconcileTime, Unit: 'Seconds' },
              ],
            },
          ],
        },
        ...meta,
        [METRIC.reconcileErrors]: 0,
        [METRIC.reconcileTime]: 1.5,
      },
      {
        _aws: {
          CloudWatchMetrics: [
            {
              Namespace: 'Kruiseless-test',
              Dimensions: [['service', 'controller', 'verb', 'resource', 'code']],
              Metrics: [{ Name: METRIC.restClientRequests, Unit: 'Count' }],
            },
          ],
        },
        ...meta,
        verb: 'POST',
        resource: 'pods',
        code: '201',
        [METRIC.restClientRequests]: 2,
      },
    ]);
  });
});
