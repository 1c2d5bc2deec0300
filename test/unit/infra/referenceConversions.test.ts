/**
 * The CRDs the OpenKruise reference gives a conversion webhook: those its module's config/crd/kustomization.yaml
 * patches with `patches/webhook_in_*.yaml`, as OpenKruise's install does. The reference set only CloneSets' and
 * SidecarSets' before, so OpenKruise's own v1alpha1 WorkloadSpread e2e specs lost `requiredNodeSelectorTerm` there.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { conversionPatches } from '../../../infra/reference/reference.js';

function moduleCrdFolder(kustomization: string, patches: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crd-'));
  mkdirSync(path.join(dir, 'patches'));
  writeFileSync(path.join(dir, 'kustomization.yaml'), kustomization);
  for (const [file, name] of Object.entries(patches))
    writeFileSync(
      path.join(dir, 'patches', file),
      `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${name}\n`,
    );
  return path.join(dir, 'kustomization.yaml');
}

describe('conversionPatches', () => {
  it('takes the webhook_in_ patches the kustomization lists, keyed by CRD name; not commented or CA ones', () => {
    const file = moduleCrdFolder(
      [
        'resources:',
        '- bases/apps.kruise.io_clonesets.yaml',
        'patchesStrategicMerge:',
        '- patches/webhook_in_clonesets.yaml',
        '#- patches/webhook_in_broadcastjobs.yaml',
        '- patches/webhook_in_workloadspreads.yaml',
        '- patches/cainjection_in_clonesets.yaml',
        '',
      ].join('\n'),
      {
        'webhook_in_clonesets.yaml': 'clonesets.apps.kruise.io',
        'webhook_in_broadcastjobs.yaml': 'broadcastjobs.apps.kruise.io',
        'webhook_in_workloadspreads.yaml': 'workloadspreads.apps.kruise.io',
        'cainjection_in_clonesets.yaml': 'clonesets.apps.kruise.io',
      },
    );
    const dir = path.dirname(file);
    expect(conversionPatches({ crdKustomization: file })).toEqual({
      'clonesets.apps.kruise.io': path.join(dir, 'patches/webhook_in_clonesets.yaml'),
      'workloadspreads.apps.kruise.io': path.join(dir, 'patches/webhook_in_workloadspreads.yaml'),
    });
  });

  it('a listed patch without a name is an error naming the file', () => {
    const file = moduleCrdFolder('patchesStrategicMerge:\n- patches/webhook_in_x.yaml\n', {});
    writeFileSync(
      path.join(path.dirname(file), 'patches', 'webhook_in_x.yaml'),
      'kind: CustomResourceDefinition\n',
    );
    expect(() => conversionPatches({ crdKustomization: file })).toThrow(
      'webhook_in_x.yaml: no metadata.name',
    );
  });
});
