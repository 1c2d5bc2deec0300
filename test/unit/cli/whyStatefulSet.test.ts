/**
 * `kruiseless why <pod>` of an Advanced StatefulSet's pod, gathered over the recording API server: `--feature-gates`
 * as `plan asts/<name>` takes it, so gate `StatefulSetStartOrdinal` counts ordinals from `spec.ordinals.start` as the
 * planner does; a malformed list fails before anything is read.
 */
import { describe, expect, it } from '@jest/globals';
import { Command } from 'commander';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import type { Pod } from '../../../lib/api/types.js';
import type { Connection } from '../../../lib/cli/connect.js';
import type { CliIO } from '../../../lib/cli/io.js';
import { gateSettings } from '../../../lib/cli/planStatefulSet.js';
import { registerWhy } from '../../../lib/cli/why.js';
import { whyStatefulSetPod } from '../../../lib/cli/whyStatefulSet.js';
import { STATEFULSET_RESOURCE } from '../../../lib/controllers/statefulset/api/resource.js';
import type { StatefulSet } from '../../../lib/controllers/statefulset/api/types.js';
import { RecordingKube } from '../controllers/cloneset/reconcile/support/recordingKube.js';

/** A connection whose reconciler client is the recording API server, holding set `web` (3 replicas from 5). */
function connection(): Connection {
  const kube = new RecordingKube([], () => new Date('2026-01-01T00:00:00Z'));
  const set: StatefulSet = {
    metadata: { name: 'web', namespace: 'ns', uid: 'sts-uid' },
    spec: {
      replicas: 3,
      ordinals: { start: 5 },
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  };
  kube.objects(STATEFULSET_RESOURCE).set('web', set);
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    { name: 'none', server: 'http://127.0.0.1:1', skipTLSVerify: true },
    { name: 'u' },
  );
  return {
    kc,
    kube,
    core: kc.makeApiClient(CoreV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    namespace: 'ns',
  };
}

const POD: Pod = {
  metadata: {
    name: 'web-6',
    namespace: 'ns',
    uid: 'p6',
    labels: { app: 'web' },
    ownerReferences: [
      {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'StatefulSet',
        name: 'web',
        uid: 'sts-uid',
        controller: true,
      },
    ],
  },
  spec: { containers: [] },
};

const ordinalLine = (report: string) => report.split('\n').find((l) => l.startsWith('  ordinal:'));

describe('why for an Advanced StatefulSet pod under --feature-gates', () => {
  it('StatefulSetStartOrdinal=true: web-6 is kept (ordinals 5, 6, 7), as the planner keeps it', async () => {
    const report = await whyStatefulSetPod(
      connection(),
      'web-6',
      POD,
      'web',
      undefined,
      undefined,
      gateSettings('StatefulSetStartOrdinal=true'),
    );
    expect(ordinalLine(report)).toBe('  ordinal:          6 (kept by the 3 replicas from ordinal 5)');
  });

  it('without gates (OpenKruise v1.9.0 defaults): counted from 0, web-6 is outside the 3 replicas', async () => {
    const report = await whyStatefulSetPod(connection(), 'web-6', POD, 'web', undefined, undefined);
    expect(ordinalLine(report)).toBe(
      '  ordinal:          6 (outside the range of 3 replicas: condemned, deleted by scale-down; ordinals.start 5 ignored: gate StatefulSetStartOrdinal is off (--feature-gates))',
    );
  });

  it('the why command takes --feature-gates and refuses a malformed list before reading anything', async () => {
    const errors: string[] = [];
    const codes: number[] = [];
    const io: CliIO = {
      out: () => undefined,
      err: (s) => errors.push(s),
      env: { KUBECONFIG: '/nonexistent/kubeconfig' },
      exit: (code) => codes.push(code),
    };
    const program = new Command('kruiseless').exitOverride();
    registerWhy(program, io);
    const why = program.commands.find((c) => c.name() === 'why');
    expect(why?.options.map((o) => o.long)).toContain('--feature-gates');
    await program.parseAsync(['why', 'web-6', '--feature-gates', 'StatefulSetStartOrdinal=maybe'], {
      from: 'user',
    });
    expect(errors.join('')).toMatch(/^.*--feature-gates: /);
    expect(codes).toEqual([expect.any(Number)]);
    expect(codes[0]).not.toBe(0);
  });
});
