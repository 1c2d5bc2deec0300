/**
 * The controller registry (OpenKruise's `pkg/controller/controllers.go`): one line per controller. The sources,
 * the reconcile handler's dispatch, the request parser's kinds, the access rows, `kruiseless install` and the CLI
 * all derive from this list; adding a kind is one folder and one line here (docs/architecture.md#how-to-add-a-kind).
 */
import { kindLookup, type KindLookup } from '../core/objectKey.js';
import { cloneSet } from './cloneset/index.js';
import type { Controller } from './controller.js';

/** Every controller this build runs, in registration order. */
export const CONTROLLERS: readonly Controller[] = [cloneSet];

/** A {@link KindLookup} over `controllers`: the request parser's known kinds and their scope. */
export function kindsOf(controllers: readonly Controller[]): KindLookup {
  return kindLookup(
    Object.fromEntries(controllers.map((c) => [c.kind, { namespaced: c.resource.namespaced }])),
  );
}

/** The kinds the registered controllers reconcile. */
export const KNOWN_KINDS: KindLookup = kindsOf(CONTROLLERS);

/** The registered controller of a kind (`<group>/<Kind>`), or undefined. */
export function controllerByKind(
  kind: string,
  controllers: readonly Controller[] = CONTROLLERS,
): Controller | undefined {
  return controllers.find((c) => c.kind === kind);
}

/** The registered controller of a name (`cloneset`, the `--kind` value), or undefined. */
export function controllerByName(
  name: string,
  controllers: readonly Controller[] = CONTROLLERS,
): Controller | undefined {
  return controllers.find((c) => c.name === name);
}
