/**
 * infra/rbac/kruiseless-rbac.yaml is generated from the registrations (lib/controllers/rbac.ts, `npm run rbac`),
 * and its rules agree with the access rows `kruiseless install` and the SAR test check: every call each identity
 * makes is granted, and nothing either must not do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { accessOf } from '../../../lib/controllers/access.js';
import { CONTROLLERS } from '../../../lib/controllers/index.js';
import { rbacManifest } from '../../../lib/controllers/rbac.js';
import { EVENT_RULE, accessLabel, grants } from '../../../lib/kube/access.js';

const RBAC_FILE = new URL('../../../infra/rbac/kruiseless-rbac.yaml', import.meta.url);

describe('the RBAC manifest', () => {
  it('is what `npm run rbac` writes from the registrations', () => {
    expect(readFileSync(RBAC_FILE, 'utf8')).toBe(rbacManifest());
  });

  it('grants each identity every call of its access rows, and the watcher none of its denied writes', () => {
    const access = accessOf();
    const controllerRules = [...CONTROLLERS.flatMap((c) => c.access.rules.controller), EVENT_RULE];
    const watcherRules = CONTROLLERS.flatMap((c) => c.access.rules.watcher);
    expect(access.controller.filter((a) => !grants(controllerRules, a)).map(accessLabel)).toEqual([]);
    expect(access.watcher.filter((a) => !grants(watcherRules, a)).map(accessLabel)).toEqual([]);
    expect(access.watcherDenied.filter((a) => grants(watcherRules, a)).map(accessLabel)).toEqual([]);
    const both = [...controllerRules, ...watcherRules];
    expect(access.deniedToAll.filter((a) => grants(both, a)).map(accessLabel)).toEqual([]);
  });
});
