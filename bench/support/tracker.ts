/**
 * The bench's own view of a namespace, from one watch of its pods and one of its CloneSets: which pods exist, their
 * image (spec and running) and readiness, the CloneSets' status, and a timeline of pods per image for the chart.
 * Every watch event is stamped with `performance.now()` when it arrives; waits resolve at the stamp of the event
 * that satisfied them, not when they happened to be checked.
 */
import { performance } from 'node:perf_hooks';
import { Watch } from '@kubernetes/client-node';
import type { BenchCluster } from './kube.js';
import { errorMessage } from '../../lib/core/errors.js';

/** What the bench keeps of a pod. */
export interface PodView {
  name: string;
  /** The `app` label (the bench's workloads select on it; one value per workload). */
  app: string;
  /** spec.containers[0].image */
  image: string;
  /** status.containerStatuses[0].image (the image kwok "runs") */
  runningImage?: string;
  ready: boolean;
  deleting: boolean;
}

/** What the bench keeps of a CloneSet's status. */
export interface CloneSetView {
  generation: number;
  observedGeneration: number;
  replicas: number;
  readyReplicas: number;
  updatedReplicas: number;
  resourceVersion: string;
}

/** A watch event as the bench records it. */
export interface Stamped {
  at: number;
  kind: 'pod' | 'cloneset';
  type: string;
  name: string;
  namespace: string;
  /** The object's resourceVersion after the change. */
  resourceVersion: string;
}

interface PodObject {
  metadata: {
    name: string;
    namespace: string;
    deletionTimestamp?: string;
    resourceVersion: string;
    labels?: Record<string, string>;
  };
  spec: { containers: { image: string }[] };
  status?: { conditions?: { type: string; status: string }[]; containerStatuses?: { image: string }[] };
}

interface CloneSetObject {
  metadata: { name: string; namespace: string; generation?: number; resourceVersion: string };
  spec: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    updatedReplicas?: number;
  };
}

/** Pods and CloneSets of one namespace (or of every namespace, with `namespace` undefined). */
export class Tracker {
  /** Pods by `namespace/name`. */
  readonly pods = new Map<string, PodView>();
  /** CloneSets by `namespace/name`. */
  readonly cloneSets = new Map<string, CloneSetView>();
  /** Pod watch events (ADDED, MODIFIED, DELETED) seen so far. */
  podEvents = 0;
  private readonly listeners = new Set<(e: Stamped) => void>();
  private readonly aborts: AbortController[] = [];

  constructor(
    private readonly cluster: BenchCluster,
    private readonly namespace: string | undefined,
    private readonly labelSelector?: string,
  ) {}

  /** Start both watches (they begin with an ADDED for what exists). */
  async start(): Promise<void> {
    const w = new Watch(this.cluster.kc);
    const ns = this.namespace ? `/namespaces/${this.namespace}` : '';
    const opts = this.labelSelector ? { labelSelector: this.labelSelector } : {};
    const onErr = (e: unknown): void => {
      if (e && !(e instanceof Error && e.name === 'AbortError'))
        console.error(`[bench] watch ended: ${errorMessage(e)}`);
    };
    this.aborts.push(
      await w.watch(`/api/v1${ns}/pods`, opts, (type, obj: PodObject) => this.onPod(type, obj), onErr),
    );
    if (await this.hasCloneSets())
      this.aborts.push(
        await w.watch(
          `/apis/apps.kruise.io/v1alpha1${ns}/clonesets`,
          {},
          (type, obj: CloneSetObject) => this.onCloneSet(type, obj),
          onErr,
        ),
      );
  }

  private async hasCloneSets(): Promise<boolean> {
    try {
      await this.cluster.request('GET', '/apis/apps.kruise.io/v1alpha1');
      return true;
    } catch {
      return false;
    }
  }

  /** Stop the watches. */
  stop(): void {
    for (const a of this.aborts) a.abort();
  }

  /** Call `fn` for every later event; returns the unsubscribe function. */
  listen(fn: (e: Stamped) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(e: Stamped): void {
    for (const fn of this.listeners) fn(e);
  }

  private onPod(type: string, obj: PodObject): void {
    const at = performance.now();
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    if (type === 'BOOKMARK') return;
    this.podEvents++;
    if (type === 'DELETED') this.pods.delete(key);
    else
      this.pods.set(key, {
        name: obj.metadata.name,
        app: obj.metadata.labels?.app ?? '',
        image: obj.spec.containers[0]?.image ?? '',
        ...(obj.status?.containerStatuses?.[0]
          ? { runningImage: obj.status.containerStatuses[0].image }
          : {}),
        ready: obj.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
        deleting: obj.metadata.deletionTimestamp !== undefined,
      });
    this.emit({
      at,
      kind: 'pod',
      type,
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
      resourceVersion: obj.metadata.resourceVersion,
    });
  }

  private onCloneSet(type: string, obj: CloneSetObject): void {
    const at = performance.now();
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    if (type === 'BOOKMARK') return;
    if (type === 'DELETED') this.cloneSets.delete(key);
    else
      this.cloneSets.set(key, {
        generation: obj.metadata.generation ?? 0,
        observedGeneration: obj.status?.observedGeneration ?? 0,
        replicas: obj.status?.replicas ?? 0,
        readyReplicas: obj.status?.readyReplicas ?? 0,
        updatedReplicas: obj.status?.updatedReplicas ?? 0,
        resourceVersion: obj.metadata.resourceVersion,
      });
    this.emit({
      at,
      kind: 'cloneset',
      type,
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
      resourceVersion: obj.metadata.resourceVersion,
    });
  }

  /** Live (not terminating) pods, optionally of one namespace and one workload (`app` label). */
  live(namespace?: string, app?: string): PodView[] {
    return [...this.pods.entries()]
      .filter(
        ([k, p]) =>
          !p.deleting &&
          (namespace === undefined || k.startsWith(`${namespace}/`)) &&
          (app === undefined || p.app === app),
      )
      .map(([, p]) => p);
  }

  /**
   * Resolve with the `performance.now()` stamp of the first event after which `pred` holds (or now, when it holds
   * already).
   * @throws Error after `timeoutMs`, naming `what`
   */
  until(what: string, pred: () => boolean, timeoutMs: number): Promise<number> {
    if (pred()) return Promise.resolve(performance.now());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`${what}: not within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const off = this.listen((e) => {
        if (!pred()) return;
        clearTimeout(timer);
        off();
        resolve(e.at);
      });
    });
  }
}

/** Pods per image over time, sampled every `everyMs` from a tracker. */
export class Timeline {
  readonly samples: { t: number; byImage: Record<string, number>; readyNew: number }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly tracker: Tracker,
    private readonly newImage: string,
  ) {}

  /** Start sampling; times are seconds since `origin` (a `performance.now()` value). */
  start(origin: number, everyMs = 250): void {
    const sample = (): void => {
      const byImage: Record<string, number> = {};
      let readyNew = 0;
      for (const p of this.tracker.live()) {
        byImage[p.image] = (byImage[p.image] ?? 0) + 1;
        if (p.image === this.newImage && p.runningImage === this.newImage && p.ready) readyNew++;
      }
      this.samples.push({ t: Math.round(performance.now() - origin) / 1000, byImage, readyNew });
    };
    sample();
    this.timer = setInterval(sample, everyMs);
  }

  /** Stop sampling. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
