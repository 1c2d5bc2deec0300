/**
 * Pods and revisions for the in-place update tests (docs/behaviour/cloneset.md#in-place-update), of no particular
 * workload kind: revisions `old_rev` (image foo1) and `new_rev` (image foo2) of a one-container (`c1`) template, and
 * pods shaped like OpenKruise's cloneset_update_test.go, and in-place options with OpenKruise's default gates.
 */
import {
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_POD_TEMPLATE_HASH,
} from '../../../lib/api/keys.js';
import type { Pod, PodTemplateSpec } from '../../../lib/api/types.js';
import type { InPlaceUpdateOptions } from '../../../lib/podset/inplace/options.js';
import { shortHash } from '../../../lib/podset/pods.js';
import { NEW_REV, OLD_REV, revision } from './fixtures.js';

/** Template with one container `c1` running `image`, plus optional extra labels/env. */
export function tpl(image: string, labels: Record<string, string> = {}): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'foo', ...labels } },
    spec: { containers: [{ name: 'c1', image }] },
  };
}

export const REV_OLD = revision(OLD_REV, tpl('foo1'), 1);
export const REV_NEW = revision(NEW_REV, tpl('foo2'), 2);

/** A pod on `rev` running `image` (c1), with the InPlaceUpdateReady gate, Ready, IPUR True by default. */
export function ipPod(
  name: string,
  rev: string,
  opts: {
    image?: string;
    state?: string;
    ready?: boolean;
    ipur?: boolean;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    nodeName?: string;
    imageID?: string;
  } = {},
): Pod {
  const labels: Record<string, string> = {
    app: 'foo',
    [LABEL_CONTROLLER_REVISION_HASH]: rev,
    ...opts.labels,
  };
  if (opts.state) labels['lifecycle.apps.kruise.io/state'] = opts.state;
  const conditions = [];
  if (opts.ready ?? true) conditions.push({ type: 'Ready', status: 'True' });
  if (opts.ipur ?? true) conditions.push({ type: CONDITION_INPLACE_UPDATE_READY, status: 'True' });
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels,
      ...(opts.annotations ? { annotations: opts.annotations } : {}),
      ...(opts.finalizers ? { finalizers: opts.finalizers } : {}),
    },
    spec: {
      containers: [{ name: 'c1', image: opts.image ?? (rev === NEW_REV ? 'foo2' : 'foo1') }],
      readinessGates: [{ conditionType: CONDITION_INPLACE_UPDATE_READY }],
      ...(opts.nodeName ? { nodeName: opts.nodeName } : {}),
    },
    status: {
      phase: 'Running',
      conditions,
      containerStatuses: [
        { name: 'c1', image: 'foo1', imageID: opts.imageID ?? 'image-id-xyz', ready: true, restartCount: 0 },
      ],
    },
  };
}

/**
 * In-place options with OpenKruise's default gates (env-from-metadata on, vertical scaling and VCT recreate off),
 * writing the revision labels as CloneSet does without `CloneSetShortHash`: `controller-revision-hash` = the
 * revision, `pod-template-hash` = its suffix after the last `-`.
 */
export const IN_PLACE_OPTIONS: Readonly<InPlaceUpdateOptions> = Object.freeze({
  inPlaceUpdateEnvFromMetadata: true,
  inPlaceWorkloadVerticalScaling: false,
  recreatePodWhenChangeVCTInCloneSet: false,
  revisionLabels: (revision: string) => ({
    [LABEL_CONTROLLER_REVISION_HASH]: revision,
    [LABEL_POD_TEMPLATE_HASH]: shortHash(revision),
  }),
});
