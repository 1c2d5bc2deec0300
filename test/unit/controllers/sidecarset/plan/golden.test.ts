import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Container, Pod } from '../../../../../lib/api/types.js';
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import { injectSidecars } from '../../../../../lib/controllers/sidecarset/plan/inject.js';

const golden = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');
interface Input {
  pod: Pod;
  namespace: { metadata: { name: string; labels: Record<string, string> } };
  sidecarSets: SidecarSet[];
}
const read = <T>(f: string): T => JSON.parse(fs.readFileSync(path.join(golden, f), 'utf8')) as T;

/** Go writes every container's (non-pointer) `resources`; the pod as sent may lack it. */
const withResources = (cs: Container[] | undefined) =>
  cs?.map((c) => ({ ...c, resources: c.resources ?? {} }));
/** The injection time differs between the two runs. */
const masked = (a: Record<string, string> | undefined) =>
  Object.fromEntries(
    Object.entries(a ?? {}).map(([k, v]) => [
      k,
      v.replace(/"updateTimestamp":"[^"]*"/g, '"updateTimestamp":"T"'),
    ]),
  );

describe("injection against OpenKruise v1.9.0's own sidecarsetMutatingPod (golden pods)", () => {
  for (const name of ['share-transfer', 'order-init-secrets', 'hot-metadata']) {
    it(`${name}: containers, init containers, volumes, secrets and annotations are OpenKruise's`, () => {
      const input = read<Input>(`${name}.input.json`);
      const theirs = read<Pod>(`${name}.openkruise.json`);
      const ours = injectSidecars({
        pod: input.pod,
        namespaceLabels: input.namespace.metadata.labels,
        sidecarSets: input.sidecarSets.map(mutateSidecarSet),
        now: new Date(),
      }).pod;
      expect(withResources(ours.spec.initContainers)).toEqual(theirs.spec.initContainers);
      expect(withResources(ours.spec.containers)).toEqual(theirs.spec.containers);
      expect(ours.spec.volumes).toEqual(theirs.spec.volumes);
      expect(ours.spec.imagePullSecrets).toEqual(theirs.spec.imagePullSecrets);
      expect(masked(ours.metadata.annotations)).toEqual(masked(theirs.metadata.annotations));
      // the annotation strings byte for byte, not only as JSON
      expect(Object.keys(ours.metadata.annotations ?? {}).sort()).toEqual(
        Object.keys(theirs.metadata.annotations ?? {}).sort(),
      );
    });
  }
});
