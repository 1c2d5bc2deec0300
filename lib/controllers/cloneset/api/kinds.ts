/**
 * The CloneSet's kind as `ObjectKey.kind` strings (lib/core/objectKey.ts). The kinds a build reconciles are the
 * registrations' (lib/controllers/index.ts `KNOWN_KINDS`).
 */
import { GROUP, KIND } from '../../../api/keys.js';

/** `apps.kruise.io/CloneSet`: the kind of a CloneSet's `ObjectKey` and reconcile requests. */
export const CLONESET_KIND = `${GROUP}/${KIND}`;
