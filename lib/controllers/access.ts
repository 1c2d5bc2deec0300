/**
 * The cluster access of a set of controllers, joined from their registrations (lib/controllers/controller.ts
 * `access`) and the rows every controller shares (lib/kube/access.ts): what `kruiseless install` checks with
 * SubjectAccessReview, what infra/rbac/kruiseless-rbac.yaml grants (scripts/rbac.ts generates it) and what
 * test/integration/security/rbac.test.ts proves on the real API server.
 */
import {
  DENIED_TO_ALL_SHARED,
  EVENT_ACCESS,
  WATCHER_DENIED_SHARED,
  accessLabel,
  type ResourceAccess,
} from '../kube/access.js';
import type { Controller } from './controller.js';
import { CONTROLLERS } from './index.js';

/** The four lists of a deployment's access. */
export interface DeploymentAccess {
  /** Every call the reconcile function makes (`kruiseless:controller`); all must be allowed. */
  controller: readonly ResourceAccess[];
  /** The watch pump's and the resync's reads (`kruiseless:watcher`); all must be allowed. */
  watcher: readonly ResourceAccess[];
  /** Writes the watcher group must not be able to make. */
  watcherDenied: readonly ResourceAccess[];
  /** What no Kruiseless identity, nor both groups together, may do. */
  deniedToAll: readonly ResourceAccess[];
}

/** `rows` without repeats (the same verb on the same resource declared by two controllers), first one kept. */
function unique(rows: readonly ResourceAccess[]): ResourceAccess[] {
  const seen = new Set<string>();
  return rows.filter((a) => {
    const label = `${accessLabel(a)} ${a.namespaced === false ? 'cluster' : 'namespaced'}`;
    if (seen.has(label)) return false;
    seen.add(label);
    return true;
  });
}

/**
 * The access of `controllers`: their rows in registration order, then the shared rows, without repeats.
 * @param controllers default: every registered controller
 */
export function accessOf(controllers: readonly Pick<Controller, 'access'>[] = CONTROLLERS): DeploymentAccess {
  return {
    controller: unique([...controllers.flatMap((c) => c.access.controller), ...EVENT_ACCESS]),
    watcher: unique(controllers.flatMap((c) => c.access.watcher)),
    watcherDenied: unique([...controllers.flatMap((c) => c.access.watcherDenied), ...WATCHER_DENIED_SHARED]),
    deniedToAll: unique([...DENIED_TO_ALL_SHARED, ...controllers.flatMap((c) => c.access.deniedToAll)]),
  };
}

const ACCESS = accessOf();
/** Every call the reconciler makes, for the registered controllers. */
export const CONTROLLER_ACCESS = ACCESS.controller;
/** The watch pump's and the resync's reads, for the registered controllers. */
export const WATCHER_ACCESS = ACCESS.watcher;
/** Writes the watcher group must not be able to make. */
export const WATCHER_DENIED = ACCESS.watcherDenied;
/** What no Kruiseless identity may do. */
export const DENIED_TO_ALL = ACCESS.deniedToAll;
