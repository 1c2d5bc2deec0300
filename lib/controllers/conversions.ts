/**
 * The CRD converters the conversion webhook (`/convert`: the admission function, the embedded runtime's HTTPS
 * server) answers with, one per group/Kind served in two versions (lib/api/conversion). A converter is listed here
 * whether or not its kind's controller is registered: the CRD in infra/crds serves both versions either way.
 */
import type { CrdConverter } from '../api/conversion/converter.js';
import { cloneSetConverter } from './cloneset/api/conversion.js';
import { daemonSetConverter } from './daemonset/api/conversion.js';
import { sidecarSetConverter } from './sidecarset/api/conversion.js';
import { statefulSetConverter } from './statefulset/api/conversion.js';
import { workloadSpreadConverter } from './workloadspread/api/conversion.js';

/**
 * Every converter: CloneSet's, Advanced StatefulSet's, Advanced DaemonSet's, WorkloadSpread's and SidecarSet's
 * (apps.kruise.io v1alpha1 ↔ v1beta1).
 */
export const CRD_CONVERTERS: readonly CrdConverter[] = [
  cloneSetConverter,
  statefulSetConverter,
  daemonSetConverter,
  workloadSpreadConverter,
  sidecarSetConverter,
];
