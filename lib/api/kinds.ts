/**
 * The kinds this build reconciles, as `ObjectKey.kind` strings (lib/core/objectKey.ts): the one table the reconcile
 * handler parses requests against and the sources (watch pump, resync, admission) build requests with. A stand-in
 * for the controller registry (issue 16): when each controller declares its resource, this table is derived from
 * the registrations and this file goes away.
 */
import { kindLookup, type KindLookup } from '../core/objectKey.js';
import { GROUP, KIND } from './keys.js';

/** `apps.kruise.io/CloneSet`: the kind of a CloneSet's `ObjectKey` and reconcile requests. */
export const CLONESET_KIND = `${GROUP}/${KIND}`;

/** Every kind this build reconciles and its scope: CloneSet, namespaced. */
export const KNOWN_KINDS: KindLookup = kindLookup({ [CLONESET_KIND]: { namespaced: true } });
