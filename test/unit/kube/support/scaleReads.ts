/**
 * A stand-in for a client's optional discovery and scale reads (lib/kube/types.ts `serverResources`, `getScale`),
 * for the tests of the finder (lib/kube/scaleFinder.ts) and of the wrappers that pass both on: it answers from
 * fixed tables and records every call in order.
 */
import type { Resource } from '../../../../lib/kube/resource.js';
import type { ApiResource, KubeClient, Scale } from '../../../../lib/kube/types.js';

/** Both reads, always present, and what they were asked. */
export type ScaleReadsStandIn = Required<Pick<KubeClient, 'serverResources' | 'getScale'>> & {
  /**
   * `discover <group version>[ fresh]`, and
   * `get <group>/<version> <plural>/scale <namespace>/<name> namespaced=<bool>` for a scale read.
   */
  calls: string[];
};

/**
 * @param served discovery by group version (absent: not served, undefined)
 * @param scales scales by `<plural>/<namespace>/<name>` (absent: 404, undefined)
 */
export function scaleReadsStandIn(
  served: Readonly<Record<string, ApiResource[]>> = {},
  scales: Readonly<Partial<Record<string, Scale>>> = {},
): ScaleReadsStandIn {
  const calls: string[] = [];
  return {
    calls,
    serverResources: async (gv, options) => {
      calls.push(`discover ${gv}${options?.fresh ? ' fresh' : ''}`);
      return served[gv];
    },
    getScale: async (resource: Resource, ref) => {
      calls.push(
        `get ${resource.group}/${resource.version} ${resource.plural}/scale ${ref.namespace}/${ref.name} namespaced=${resource.namespaced}`,
      );
      return scales[`${resource.plural}/${ref.namespace}/${ref.name}`];
    },
  };
}
