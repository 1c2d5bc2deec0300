/**
 * Follows one namespace's pods for a whole run with a watch (a closed watch is resumed with a fresh list), so that
 * the invariants see every state the API server went through, not only the checkpoints: every pod uid that ever
 * existed and the most live (not terminating) pods at once.
 */
import { Watch, type KubeConfig, type CoreV1Api, type V1Pod } from '@kubernetes/client-node';

/** What {@link PodObserver} saw. */
export interface Observed {
  /** Distinct pod uids seen (each pod ever created, whoever deleted it). */
  podsCreated: number;
  /** Most live pods at once. */
  maxLive: number;
}

/** A watch on one namespace's pods (talking to the API server directly, never through the fault front). */
export class PodObserver {
  private readonly pods = new Map<string, V1Pod>();
  private readonly uids = new Set<string>();
  private maxLive = 0;
  private abort: AbortController | undefined;
  private stopped = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly core: CoreV1Api,
    private readonly namespace: string,
  ) {}

  /** Lists, then watches from the list's resourceVersion. @throws the list's error */
  async start(): Promise<void> {
    const list = await this.core.listNamespacedPod({ namespace: this.namespace });
    this.pods.clear();
    for (const p of list.items) this.see('ADDED', p);
    if (this.stopped) return;
    this.abort = await new Watch(this.kc).watch(
      `/api/v1/namespaces/${this.namespace}/pods`,
      { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
      (type: string, obj: V1Pod) => this.see(type, obj),
      () => {
        if (!this.stopped) void this.start().catch(() => undefined);
      },
    );
  }

  /** Stops watching. @returns what was seen */
  stop(): Observed {
    this.stopped = true;
    this.abort?.abort();
    return { podsCreated: this.uids.size, maxLive: this.maxLive };
  }

  private see(type: string, p: V1Pod): void {
    const uid = p.metadata?.uid ?? '';
    if (type === 'ADDED' || type === 'MODIFIED') this.pods.set(uid, p);
    else if (type === 'DELETED') this.pods.delete(uid);
    else return;
    this.uids.add(uid);
    const live = [...this.pods.values()].filter((x) => !x.metadata?.deletionTimestamp).length;
    this.maxLive = Math.max(this.maxLive, live);
  }
}
