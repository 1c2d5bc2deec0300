/**
 * The API writes of one planned pod patch, shared by every pod-set executor (CloneSet's, Advanced StatefulSet's):
 * a condition patch through `pods/status`; any other patch through the pod itself. An in-place update that changes
 * cpu/memory is written as the API server's release allows (lib/kube/version.ts `servesPodResize`, OpenKruise's
 * `ShouldUpdateResourceByResize`): from Kubernetes 1.32 the `pods/resize` subresource patch first, then the pod
 * patch (OpenKruise's `updatePodInPlace`, `finishGracePeriod` and `updateNextBatch` in
 * pkg/util/inplaceupdate/inplace_update.go send `PatchPodResource` before `UpdatePod`); before 1.32 the resources
 * inside the pod patch.
 */
import type { Pod } from '../../api/types.js';
import { isDeepStrictEqual } from 'node:util';
import { isConflict, isNotFound } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { servesPodResize, type ServerVersionInfo } from '../../kube/version.js';
import { withResourcesInPodPatch } from '../../podset/inplace/apply.js';
import type { PodPatch } from './statusPatches.js';

/** What {@link writePodPatch} did. */
export interface PodPatchWritten {
  /** The pod as the last write returned it. */
  pod: Pod;
  /** API writes that succeeded (2 with a `pods/resize`). */
  writes: number;
}

/**
 * How an in-place cpu/memory change is written to a server (see {@link writePodPatch}):
 * - `resize`: Kubernetes ≥ 1.32 — `pods/resize` first, then the pod patch without resources;
 * - `podPatch`: older — the resources inside the pod patch (`pods/resize` answers 404 there);
 * - `resizeThenPodPatch`: the version is unknown (`GET /version` failed, or names no release) — `pods/resize` first
 *   and, only if it answers 404, the resources inside the pod patch. Kruiseless's own safe fallback, where OpenKruise
 *   assumes an older server (v1.9.0 does not start without the version; HEAD takes the old path for one it cannot
 *   parse): guessing "older" would fail every update on a current server (a pod patch changing resources is 422
 *   there), while a resize refused with 404 wrote nothing, so either kind of server is updated.
 */
export type ResizeWrite = 'resize' | 'podPatch' | 'resizeThenPodPatch';

/** The {@link ResizeWrite} for a server that answered `info` to `GET /version` (undefined: not read). */
export function resizeWriteFor(info: ServerVersionInfo | undefined): ResizeWrite {
  const served = servesPodResize(info);
  return served === undefined ? 'resizeThenPodPatch' : served ? 'resize' : 'podPatch';
}

/**
 * OpenKruise's conflict retry around an in-place update (`retry.RetryOnConflict(retry.DefaultBackoff, …)` in
 * `updatePodInPlace`, `finishGracePeriod`, `updateNextBatch`; client-go's `DefaultBackoff`): at most 4 attempts of
 * the action's writes in all, 10 ms × 5ⁿ apart with up to 10 % jitter.
 */
export const CONFLICT_RETRY = { attempts: 4, firstDelayMs: 10, factor: 5, jitter: 0.1 } as const;

/** Options of {@link writePodPatch}. */
export interface PodPatchOptions {
  /** The precondition of the first write, if the action needs one. */
  resourceVersion?: string;
  /**
   * The pod as the plan read it. With it and a precondition, a 409 Conflict of an action with a resize is re-read and
   * retried in place (see {@link writePodPatch}); without, the 409 is thrown.
   */
  planned?: Pod;
  /** Waits between conflict retries, ms; default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Whether `fresh`, re-read after a 409, is still the pod a patch planned from `basis` was meant for: the same UID,
 * and the same spec, labels, annotations, owners, deletion mark and container image IDs (what an in-place update
 * plan reads and records). A kubelet status write — the usual cause of the 409 — changes none of them.
 */
export function samePlannedPod(basis: Pod, fresh: Pod): boolean {
  const inputs = (p: Pod) => ({
    uid: p.metadata.uid,
    labels: p.metadata.labels ?? {},
    annotations: p.metadata.annotations ?? {},
    ownerReferences: p.metadata.ownerReferences ?? [],
    deletionTimestamp: p.metadata.deletionTimestamp ?? null,
    spec: p.spec,
    imageIDs: (p.status?.containerStatuses ?? []).map((c) => [c.name, c.imageID]),
  });
  return isDeepStrictEqual(inputs(basis), inputs(fresh));
}

const timerSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs the writes of one action under {@link CONFLICT_RETRY}: a write that answers 409 Conflict is tried again with
 * the resourceVersion of a fresh GET, after the backoff, while the re-read pod is {@link samePlannedPod} to the basis
 * and attempts are left; otherwise (another change, the pod gone, the re-read failed, no attempts left) the 409 is
 * thrown and the pass plans again from what it reads.
 */
class ConflictRetry {
  private attempts = 0;

  constructor(
    private readonly kube: Pick<KubeClient, 'get'>,
    private readonly ref: { namespace: string; name: string },
    private readonly options: PodPatchOptions,
  ) {}

  /**
   * @param basis the pod the write was planned against (undefined: no retry)
   * @param rv the write's precondition (undefined: no retry — a write without one does not conflict on a change)
   */
  async write(
    basis: Pod | undefined,
    rv: string | undefined,
    send: (rv: string | undefined) => Promise<Pod>,
  ): Promise<Pod> {
    for (;;) {
      this.attempts++;
      try {
        return await send(rv);
      } catch (e) {
        if (!isConflict(e) || !basis || rv === undefined || this.attempts >= CONFLICT_RETRY.attempts) throw e;
        const { firstDelayMs, factor, jitter } = CONFLICT_RETRY;
        const delay = firstDelayMs * factor ** (this.attempts - 1) * (1 + jitter * Math.random());
        await (this.options.sleep ?? timerSleep)(Math.round(delay));
        const fresh = await this.kube.get(RESOURCES.pods, this.ref).catch(() => undefined);
        if (!fresh?.metadata.resourceVersion || !samePlannedPod(basis, fresh)) throw e;
        rv = fresh.metadata.resourceVersion;
      }
    }
  }
}

/**
 * Sends `a`. Without a resize, the one patch, through `pods/status` for a `PatchPodStatus`. With `a.resize`, by the
 * server's version (`kube.serverVersion()`, {@link resizeWriteFor}):
 * - Kubernetes ≥ 1.32: first `PATCH pods/<name>/resize` (strategic merge, with `resourceVersion` as precondition
 *   when given), then the pod patch with the resourceVersion the resize returned as precondition (the resize
 *   changes the pod's resourceVersion; the pod patch applies on top of it). OpenKruise:
 *   `AdapterRuntimeClient.PatchPodResource` (pkg/util/podadapter/adapter.go), then `UpdatePod`;
 * - older: one pod patch carrying the resources as well (podset `withResourcesInPodPatch`), as OpenKruise's
 *   `UpdatePod` of a pod whose spec `UpdateResource` changed;
 * - version unknown: the resize as for ≥ 1.32, and when it answers 404 (no `pods/resize`: an older server; or the
 *   pod is gone, which the pod patch then reports in turn) the pod patch with the resources, as for older.
 *
 * A 409 Conflict of these writes (the kubelet writes the pod's status often, and reacts to the resize at once) is
 * handled as OpenKruise's `RetryOnConflict` around them: re-read, and the failed write retried within the pass
 * ({@link ConflictRetry}; the resize, once through, is not sent again) — not left to a whole new pass, which re-lists
 * everything to plan the same writes again. Only when the re-read pod differs from the one planned from (the pod as
 * listed, or after the resize the pod it returned) is the 409 thrown, and the pass plans again.
 * @throws the API error of the failed write (the resize's error when it fails, other than the 404 above: the pod
 *   patch is then not sent)
 */
export async function writePodPatch(
  kube: Pick<KubeClient, 'get' | 'patch' | 'serverVersion'>,
  namespace: string,
  a: PodPatch,
  options: PodPatchOptions = {},
): Promise<PodPatchWritten> {
  const ref = { namespace, name: a.pod.name };
  const preconditioned = (v: string | undefined) =>
    v !== undefined ? { preconditions: { resourceVersion: v } } : {};
  if (a.type !== 'PatchPod' || !a.resize) {
    const pod = await kube.patch(
      RESOURCES.pods,
      ref,
      { type: 'strategic-merge', body: a.patch },
      {
        ...(a.type === 'PatchPodStatus' ? { subresource: 'status' } : {}),
        ...preconditioned(options.resourceVersion),
      },
    );
    return { pod, writes: 1 };
  }
  const { resize } = a;
  const retry = new ConflictRetry(kube, ref, options);
  const how = resizeWriteFor(await kube.serverVersion());
  let rv = options.resourceVersion;
  let basis = options.planned;
  let resized: Pod | undefined;
  if (how !== 'podPatch') {
    try {
      resized = await retry.write(basis, rv, (v) =>
        kube.patch(
          RESOURCES.pods,
          ref,
          { type: 'strategic-merge', body: resize },
          { subresource: 'resize', ...preconditioned(v) },
        ),
      );
    } catch (e) {
      if (how === 'resize' || !isNotFound(e)) throw e;
    }
  }
  if (resized && rv !== undefined) rv = resized.metadata.resourceVersion ?? rv;
  if (resized) basis = resized;
  const body = resized ? a.patch : withResourcesInPodPatch(a.patch, resize);
  const pod = await retry.write(basis, rv, (v) =>
    kube.patch(RESOURCES.pods, ref, { type: 'strategic-merge', body }, preconditioned(v)),
  );
  return { pod, writes: resized ? 2 : 1 };
}
