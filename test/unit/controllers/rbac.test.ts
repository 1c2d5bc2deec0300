/**
 * infra/rbac/kruiseless-rbac.yaml is generated from the registrations (lib/controllers/rbac.ts, `npm run rbac`),
 * and its rules agree with the access rows `kruiseless install` and the SAR test check: every call each identity
 * makes is granted, and nothing either must not do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';
import { accessOf } from '../../../lib/controllers/access.js';
import { CONTROLLERS } from '../../../lib/controllers/index.js';
import {
  KRUISE_CONFIGURATION_ACCESS,
  KRUISE_CONFIGURATION_RULE,
} from '../../../lib/controllers/kruiseConfiguration.js';
import { rbacManifest } from '../../../lib/controllers/rbac.js';
import {
  ADMISSION_ACCESS,
  ADMISSION_DENIED,
  ADMISSION_RULES,
} from '../../../lib/controllers/podWebhookAccess.js';
import { EVENT_RULE, accessLabel, grants } from '../../../lib/kube/access.js';

const RBAC_FILE = new URL('../../../infra/rbac/kruiseless-rbac.yaml', import.meta.url);

describe('the RBAC manifest', () => {
  it('is what `npm run rbac` writes from the registrations', () => {
    expect(readFileSync(RBAC_FILE, 'utf8')).toBe(rbacManifest());
  });

  it('reads back as the rules it was written from (YAML: `*` is an alias unless quoted)', () => {
    const docs = parseAllDocuments(readFileSync(RBAC_FILE, 'utf8')).map((d) => d.toJS() as unknown);
    const roles = docs.filter(
      (d): d is { kind: string; rules: unknown[] } => (d as { kind?: string }).kind === 'ClusterRole',
    );
    const written = roles.flatMap((r) => r.rules);
    expect(written).toContainEqual({ apiGroups: ['*'], resources: ['*/scale'], verbs: ['get'] });
    expect(written).toContainEqual({
      apiGroups: [''],
      resources: ['replicationcontrollers'],
      verbs: ['get'],
    });
  });

  it('grants each identity every call of its access rows, and the watcher none of its denied writes', () => {
    const access = accessOf();
    const controllerRules = [...CONTROLLERS.flatMap((c) => c.access.rules.controller), EVENT_RULE];
    const watcherRules = CONTROLLERS.flatMap((c) => c.access.rules.watcher);
    expect(access.controller.filter((a) => !grants(controllerRules, a)).map(accessLabel)).toEqual([]);
    expect(access.watcher.filter((a) => !grants(watcherRules, a)).map(accessLabel)).toEqual([]);
    expect(access.watcherDenied.filter((a) => grants(watcherRules, a)).map(accessLabel)).toEqual([]);
    const all = [...controllerRules, ...watcherRules, ...ADMISSION_RULES];
    expect(access.deniedToAll.filter((a) => grants(all, a)).map(accessLabel)).toEqual([]);
  });

  it("grants the admission group exactly the pod webhooks' calls: every row, a rule for each, none of its denied", () => {
    expect(ADMISSION_ACCESS.map(accessLabel)).toEqual([
      'list workloadspreads.apps.kruise.io',
      'get workloadspreads.apps.kruise.io',
      'update workloadspreads/status.apps.kruise.io',
      'get clonesets.apps.kruise.io',
      'get deployments.apps',
      'get replicasets.apps',
      'get statefulsets.apps',
      'get statefulsets.apps.kruise.io',
      'get jobs.batch',
      'get pods',
      'get configmaps kruise-configuration',
      'list sidecarsets.apps.kruise.io',
      'get namespaces',
      'get controllerrevisions.apps',
      'list controllerrevisions.apps',
      'get podunavailablebudgets.policy.kruise.io',
      'list podunavailablebudgets.policy.kruise.io',
      'get replicationcontrollers',
      'get */scale.*',
      'get daemonsets.apps',
      'update podunavailablebudgets/status.policy.kruise.io',
      'get events',
      'create events',
      'patch events',
    ]);
    expect(ADMISSION_ACCESS.filter((a) => !grants(ADMISSION_RULES, a)).map(accessLabel)).toEqual([]);
    expect(ADMISSION_DENIED.filter((a) => grants(ADMISSION_RULES, a)).map(accessLabel)).toEqual([]);
    // no rule grants more than the rows ask for: each verb of each rule is one row
    const granted = ADMISSION_RULES.flatMap((r) =>
      r.apiGroups.flatMap((g) =>
        r.resources.flatMap((res) =>
          r.verbs.flatMap((v) =>
            (r.resourceNames ?? [undefined]).map(
              (name) => `${v} ${res}${g ? `.${g}` : ''}${name !== undefined ? ` ${name}` : ''}`,
            ),
          ),
        ),
      ),
    );
    expect(granted.sort()).toEqual(ADMISSION_ACCESS.map(accessLabel).sort());
  });

  it('binds the admission ClusterRole to the group kruiseless:admission', () => {
    const text = readFileSync(RBAC_FILE, 'utf8');
    expect(text).toContain(
      'kind: ClusterRoleBinding\nmetadata:\n  name: kruiseless-admission\n  labels:\n    app.kubernetes.io/name: kruiseless\n' +
        '    app.kubernetes.io/component: admission\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n' +
        '  name: kruiseless-admission\nsubjects:\n  - apiGroup: rbac.authorization.k8s.io\n    kind: Group\n' +
        '    name: kruiseless:admission\n',
    );
  });
});

describe('a rule narrowed to named objects (resourceNames)', () => {
  it('grants a call naming kruise-configuration, and neither a nameless call nor another ConfigMap', () => {
    const rules = [KRUISE_CONFIGURATION_RULE];
    expect(grants(rules, KRUISE_CONFIGURATION_ACCESS)).toBe(true);
    expect(grants(rules, { verb: 'get', resource: 'configmaps' })).toBe(false);
    expect(grants(rules, { verb: 'get', resource: 'configmaps', name: 'kube-root-ca.crt' })).toBe(false);
    expect(grants(rules, { verb: 'list', resource: 'configmaps', name: 'kruise-configuration' })).toBe(false);
    expect(rbacManifest()).toContain(
      "  - apiGroups: ['']\n    resources: [configmaps]\n    resourceNames: [kruise-configuration]\n    verbs: [get]\n",
    );
  });
});
