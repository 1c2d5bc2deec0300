/**
 * No credential reaches a log line: the whole pipeline logs at DEBUG (every line captured as Powertools serialises it) while
 * it authenticates with a service-account bearer token (first refused — only the watcher's rights bound, so the
 * reconciler's writes fail and get logged — then granted); every captured line is searched for the token, for the
 * admin kubeconfig's client key and certificate, and for anything shaped like a credential.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { Embedded } from '../../../lib/local/embedded.js';
import { startEmbedded } from '../../../lib/local/embedded.js';
import { useTestNamespace } from '../support/cluster.js';
import { kubectl, writeKubeconfig } from '../support/kube.js';
import {
  E2E_CLUSTER,
  applySeed,
  getCloneSet,
  namespaceScopedServerlessYml,
  reconcileRequest,
  testKubeconfig,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

/** A Powertools logger at DEBUG that keeps every line it would print, exactly as it would print it. */
class CapturingLogger extends Logger {
  readonly lines: string[] = [];

  constructor() {
    super({ serviceName: 'kruiseless-secrets-test', logLevel: 'DEBUG' });
  }

  protected override printLog(_level: number, log: Parameters<Logger['printLog']>[1]): void {
    this.lines.push(JSON.stringify(log.getAttributes()));
  }
}

const ctx = useTestNamespace('secrets');

/** The base64 body lines of a PEM document, each a needle of its own. */
function pemLines(what: string, pem: string | undefined): [string, string][] {
  return (pem ?? '')
    .split('\n')
    .filter((l) => l.length >= 40 && !l.startsWith('-----'))
    .map((l) => [what, l]);
}
const SA = 'kruiseless-reconcile';
const RBAC_FILE = new URL('../../../infra/rbac/kruiseless-rbac.yaml', import.meta.url).pathname;
const logger = new CapturingLogger();
let embedded: Embedded | undefined;
let tmpDir = '';
let token = '';

const bindings: string[] = [];

/** Grants the service account a Kruiseless ClusterRole cluster-wide (the watch pump follows every namespace). */
async function bind(role: string): Promise<void> {
  const rbac = ctx.kc.makeApiClient(RbacAuthorizationV1Api);
  const name = `${ctx.namespace}-${role}`;
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'ServiceAccount', name: SA, namespace: ctx.namespace }],
    },
  });
  bindings.push(name);
}

/** A kubeconfig credential, inline or from its file. */
function credential(data: string | undefined, file: string | undefined): string | undefined {
  if (data) return Buffer.from(data, 'base64').toString('utf8');
  return file ? fs.readFileSync(file, 'utf8') : undefined;
}

beforeAll(async () => {
  kubectl(testKubeconfig(), 'apply', '-f', RBAC_FILE);
  await ctx.core.createNamespacedServiceAccount({
    namespace: ctx.namespace,
    body: { metadata: { name: SA } },
  });
  const tr = await ctx.core.createNamespacedServiceAccountToken({
    name: SA,
    namespace: ctx.namespace,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  token = tr.status?.token ?? '';
  expect(token.length).toBeGreaterThan(100);
  const server = ctx.kc.getCurrentCluster();
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruiseless-secrets-'));
  const kubeconfig = writeKubeconfig(path.join(tmpDir, 'kubeconfig'), {
    server: server?.server ?? '',
    cluster: {
      ...(server?.caData ? { 'certificate-authority-data': server.caData } : {}),
      ...(server?.caFile ? { 'certificate-authority': server.caFile } : {}),
    },
    user: { token },
    namespace: ctx.namespace,
  });
  // the watcher's rights only: the pump works, the reconciler's writes are refused
  await bind('kruiseless-watcher');
  embedded = await startEmbedded({
    kubeconfig,
    clusterName: E2E_CLUSTER,
    logger,
    serverlessYml: namespaceScopedServerlessYml(ctx.namespace),
  });
}, 60_000);

afterAll(async () => {
  await embedded?.stop();
  const rbac = ctx.kc.makeApiClient(RbacAuthorizationV1Api);
  for (const name of bindings) await rbac.deleteClusterRoleBinding({ name });
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

test('refused and granted, at DEBUG: no token, key, certificate or authorization header in any log line', async () => {
  await applySeed(ctx.custom, ctx.namespace);
  await waitFor('a refused write logged', 60_000, async () =>
    logger.lines.some((l) => /forbidden/i.test(l) && /"level":"(WARN|ERROR)"/.test(l)),
  );
  await bind('kruiseless-controller');
  // the refused pass counts as a failure and backs off (docs/reliability.md#review-cloneset); a request now rather
  // than after the backoff's requeue
  await embedded?.bus.publish([reconcileRequest(ctx.namespace)]);
  await waitFor('2 Ready pods once granted', 120_000, async () => {
    const s = (await getCloneSet(ctx.custom, ctx.namespace)).status;
    return s?.readyReplicas === 2 && s.updatedReadyReplicas === 2;
  });

  const user = ctx.kc.getCurrentUser();
  const secrets: [string, string | undefined][] = [
    ['the bearer token', token],
    ['the token signature', token.split('.')[2]],
    // PEM bodies: the base64 lines between the armour, which is what a leak would carry
    ...pemLines('the admin client key', credential(user?.keyData, user?.keyFile)),
    ...pemLines('the admin client certificate', credential(user?.certData, user?.certFile)),
  ];
  const lines = logger.lines;
  // what was logged: the refused write (with the API server's message naming the user; a warning since a refused
  // pass backs off instead of throwing) and the reconcile after it
  expect(
    lines.filter((l) => /"level":"(WARN|ERROR)"/.test(l) && /forbidden/i.test(l)).length,
  ).toBeGreaterThan(0);
  expect(lines.filter((l) => /"message":"reconcile finished"/.test(l)).length).toBeGreaterThan(0);
  const leaks = [
    ...secrets.flatMap(([what, value]) =>
      value && value.length >= 20 ? lines.filter((l) => l.includes(value)).map((l) => `${what}: ${l}`) : [],
    ),
    ...lines
      .filter((l) =>
        /PRIVATE KEY|BEGIN CERTIFICATE|bearer |authorization|k8s-aws-v1\.|client-key-data/i.test(l),
      )
      .map((l) => `credential-shaped: ${l}`),
  ];
  expect(leaks).toEqual([]);
}, 240_000);
