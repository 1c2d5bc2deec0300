/**
 * A reused controller process is restarted when a parity or upstream-e2e setup object changed since it started
 * (test/parity/upstreamE2eSetup.ts `applySetupToSide`), on the real API server: OpenKruise's manager reads the
 * custom-workload whitelist once per process, so a reference started before the setup created or changed the
 * ConfigMap must be restarted before a scenario needs it. The side's restart here only records its calls: starting
 * kruise-manager is the reference suites' business (a stand-in, not a fault).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Side } from '../../parity/sides.js';
import { applySetupToSide, type SetupManifestFile } from '../../parity/upstreamE2eSetup.js';
import { useTestNamespace } from '../support/cluster.js';

const t = useTestNamespace('setup-restart');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'setup-restart-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The setup: one ConfigMap in the test's namespace with `data`. */
const setup = (data: Record<string, string>): SetupManifestFile[] => [
  {
    file: 'made-up/kruise-e2e-config.yaml',
    objects: [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'whitelist', namespace: t.namespace },
        data,
      } as KubernetesObject,
    ],
  },
];

/** A side whose restarts are recorded, started at `startedAt` (ms), restarting a second from "now". */
function side(startedAt: number): Side & { restarts: number } {
  const kubeconfig = path.join(tmp, `kubeconfig-${Math.random().toString(36).slice(2)}`);
  writeFileSync(kubeconfig, t.kc.exportConfig());
  const s: Side & { restarts: number } = {
    name: 'openkruise',
    kubeconfig,
    detail: 'recorded',
    startedAt,
    restarts: 0,
    restart: async () => {
      s.restarts += 1;
      // the real manager starts a moment after the old one stopped, as `reference:up --restart` does it
      s.startedAt = Date.now() + 1000;
    },
    stop: async () => undefined,
  };
  return s;
}

describe('parity setup on a reused controller', () => {
  it('restarts a manager that started before the setup created or changed an object, and only then', async () => {
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    const reused = side(Date.now() - 60_000);

    await applySetupToSide(reused, setup({ a: '1' }), log, { prefix: '[parity]' });
    expect(reused.restarts).toBe(1);
    expect(lines[0]).toBe('[parity] openkruise: applied ConfigMap/whitelist');
    expect(lines[1]).toMatch(
      /^\[parity\] openkruise: ConfigMap\/whitelist changed since its manager started at \S+Z; restarting it \(it reads the custom-workload whitelist once\)$/,
    );
    expect(lines).toHaveLength(2);

    // the same setup again, in a later second than the restart: the API server keeps an unchanged object's times,
    // so no second restart
    await new Promise((r) => setTimeout(r, 1100));
    await applySetupToSide(reused, setup({ a: '1' }), log, { prefix: '[parity]' });
    expect(reused.restarts).toBe(1);
    expect(lines).toHaveLength(3);

    // an entry changed after the restart: restarted again
    reused.startedAt = Date.now() - 2000;
    await applySetupToSide(reused, setup({ a: '2' }), log, { prefix: '[parity]' });
    expect(reused.restarts).toBe(2);
  });

  it('leaves alone a side without a restart (a fresh `kruiseless local`), whatever changed', async () => {
    const fresh: Side = {
      name: 'kruiseless',
      kubeconfig: side(0).kubeconfig,
      detail: 'fresh',
      stop: async () => undefined,
    };
    const lines: string[] = [];
    await applySetupToSide(fresh, setup({ b: '1' }), (l) => lines.push(l));
    expect(lines).toEqual(['[upstream-e2e] kruiseless: applied ConfigMap/whitelist']);
  });
});
