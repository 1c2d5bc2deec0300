/**
 * The bench's own view of a namespace, from one watch of its pods and one of its CloneSets: which pods exist, their
 * image (spec and running) and readiness, the CloneSets' status, and a timeline of pods per image for the chart.
 * Every watch event is stamped with `performance.now()` when it arrives; waits resolve at the stamp of the event
 * that satisfied them, not when they happened to be checked.
 */
import { performance } from 'node:perf_hooks';
import type { BenchCluster } from './kube.js';
import { clientNodeWatch, ListWatch, type KubeList, type WatchFn } from './listWatch.js';

/** What the bench keeps of a pod. */
export interface PodView {
  name: string;
  /** The `app` label (the bench's workloads select on it; one value per workload). */
  app: string;
  /** spec.containers[0].image */
  image: string;
  /** status.containerStatuses[0].image (the image kwok "runs") */
  runningImage?: string;
  /** spec.nodeName, once bound */
  node?: string;
  ready: boolean;
  deleting: boolean;
  resourceVersion: string;
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
  spec: { containers: { image: string }[]; nodeName?: string };
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
  /** Pod watch events (ADDED, MODIFIED, DELETED) seen so far (not counting what a re-list found). */
  podEvents = 0;
  private readonly listeners = new Set<(e: Stamped) => void>();
  private readonly watches: ListWatch[] = [];

  /**
   * @param namespace one namespace, or undefined for all
   * @param labelSelector of the pod watch
   * @param watch how a watch is opened (default: @kubernetes/client-node's on `cluster.kc`)
   */
  constructor(
    private readonly cluster: BenchCluster,
    private readonly namespace: string | undefined,
    private readonly labelSelector?: string,
    private readonly watch: WatchFn = clientNodeWatch(cluster.kc),
  ) {}

  /**
   * Watches that the API server ended and that were re-listed and opened again: each means a gap in which events
   * arrived late (stamped when the LIST answered), so the times measured across it are too long.
   */
  get restarts(): number {
    return this.watches.reduce((a, w) => a + w.restarts, 0);
  }

  /** Start both watches (they begin with an ADDED for what exists). */
  async start(): Promise<void> {
    const ns = this.namespace ? `/namespaces/${this.namespace}` : '';
    const list = async (path: string, query: Readonly<Record<string, string>>): Promise<KubeList> => {
      const q = new URLSearchParams(query).toString();
      return (await this.cluster.request('GET', q ? `${path}?${q}` : path)) as KubeList;
    };
    const pods = new ListWatch({
      name: `${this.cluster.name} pods`,
      path: `/api/v1${ns}/pods`,
      query: this.labelSelector ? { labelSelector: this.labelSelector } : {},
      watch: this.watch,
      list,
      onEvent: (type, obj) => this.onPod(type, obj as PodObject),
      onRelist: (items) => this.relist(this.pods, items as PodObject[], (t, o) => this.onPod(t, o, false)),
    });
    this.watches.push(pods);
    await pods.start();
    if (await this.hasCloneSets()) {
      const cloneSets = new ListWatch({
        name: `${this.cluster.name} clonesets`,
        path: `/apis/apps.kruise.io/v1alpha1${ns}/clonesets`,
        query: {},
        watch: this.watch,
        list,
        onEvent: (type, obj) => this.onCloneSet(type, obj as CloneSetObject),
        onRelist: (items) =>
          this.relist(this.cloneSets, items as CloneSetObject[], (t, o) => this.onCloneSet(t, o)),
      });
      this.watches.push(cloneSets);
      await cloneSets.start();
    }
  }

  /**
   * Bring `known` up to a listing as the events missed would have: ADDED or MODIFIED for what is new or changed
   * (by resourceVersion), DELETED for what is gone.
   */
  private relist<T extends { metadata: { name: string; namespace: string; resourceVersion: string } }>(
    known: ReadonlyMap<string, { resourceVersion: string }>,
    items: readonly T[],
    apply: (type: string, obj: T) => void,
  ): void {
    const listed = new Set<string>();
    for (const obj of items) {
      const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
      listed.add(key);
      const prev = known.get(key);
      if (prev?.resourceVersion !== obj.metadata.resourceVersion) apply(prev ? 'MODIFIED' : 'ADDED', obj);
    }
    for (const [key, prev] of [...known]) {
      if (listed.has(key)) continue;
      const [namespace, name] = key.split('/');
      apply('DELETED', { metadata: { name, namespace, resourceVersion: prev.resourceVersion } } as T);
    }
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
    for (const w of this.watches) w.stop();
  }

  /** Call `fn` for every later event; returns the unsubscribe function. */
  listen(fn: (e: Stamped) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(e: Stamped): void {
    for (const fn of this.listeners) fn(e);
  }

  /** @param watched false for what a re-list found (not a watch event of its own) */
  private onPod(type: string, obj: PodObject, watched = true): void {
    const at = performance.now();
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    if (watched) this.podEvents++;
    if (type === 'DELETED') this.pods.delete(key);
    else
      this.pods.set(key, {
        name: obj.metadata.name,
        app: obj.metadata.labels?.app ?? '',
        image: obj.spec.containers[0]?.image ?? '',
        ...(obj.status?.containerStatuses?.[0]
          ? { runningImage: obj.status.containerStatuses[0].image }
          : {}),
        ...(obj.spec.nodeName ? { node: obj.spec.nodeName } : {}),
        ready: obj.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
        deleting: obj.metadata.deletionTimestamp !== undefined,
        resourceVersion: obj.metadata.resourceVersion,
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
