/**
 * The bound on the pod writes of one pass (docs/reliability.md#bad-input-corpus): the expectations item and the
 * scale-down ledger item each hold every pending object of a pass in one DynamoDB item, and an item may not exceed
 * 400 KB, so a pass creates, deletes, and patches at most {@link MAX_PENDING_PER_PASS} objects each; the next pass
 * (after the expectations are observed) continues.
 */
import type { Action } from '../../podset/actions.js';

/**
 * Pending objects (pods and their PVCs) one pass creates at most, deletes at most, and pods it patches at most (so
 * the expectations item holds at most three times this many entries from one pass, the ledger item at most this
 * many).
 *
 * Arithmetic: DynamoDB counts the UTF-8 bytes of attribute names and string values, about (digits / 2) + 1 bytes
 * per number, and a few bytes per map and element. With a 63-character name (the longest pod name) and a
 * 36-character UID, a delete expectation `{name, uid, at}` is about 4+63 + 3+36 + 2+8 + ~6 ≈ 122 bytes, a create
 * expectation (no uid) about 85 bytes, a ledger entry `{name, uid, reason}` (reason at most 21 characters) about
 * 4+63 + 3+36 + 6+21 + ~6 ≈ 139 bytes, an update expectation `{name, uid, resourceVersion, at}` (a resourceVersion
 * of up to 20 digits) about 4+63 + 3+36 + 15+20 + 2+8 + ~7 ≈ 158 bytes. At 1,000 per kind: expectations ≈ 1,000 ×
 * (122 + 85 + 158) ≈ 365 KB, ledger ≈ 139 KB, both under the 400 KB item limit;
 * test/integration/state/itemSize.test.ts writes both at this bound on DynamoDB emulators (which enforce the limit)
 * and shows 5,000 pending deletes do not fit.
 */
export const MAX_PENDING_PER_PASS = 1000;

/** Objects an action adds to the expectations: the pod and its instance's PVCs. */
function pendingObjects(a: Extract<Action, { type: 'CreatePod' | 'DeletePod' }>): number {
  return 1 + (a.type === 'CreatePod' ? a.pvcs.length : a.pvcNames.length);
}

/**
 * `actions` with CreatePod actions kept, in order, while the pods and PVCs they create stay within `max`, and the
 * same for DeletePod actions; pod patches (PatchPod, PatchPodStatus: one update expectation per patched pod) kept
 * for the first `max` pods patched, every patch of such a pod; every other action is kept. Creations keep their
 * slow-start batch numbers (a cap only truncates the last batches).
 * @param max objects per kind (the first action of a kind is kept even when over it, so a pass always progresses);
 *   once one action of a kind is left out, every later one of that kind is too (patches: of a pod not yet kept)
 */
export function capPendingWrites(actions: readonly Action[], max: number = MAX_PENDING_PER_PASS): Action[] {
  const used = { CreatePod: 0, DeletePod: 0 };
  const full = { CreatePod: false, DeletePod: false };
  const patched = new Set<string>();
  return actions.filter((a) => {
    if (a.type === 'PatchPod' || a.type === 'PatchPodStatus') {
      if (patched.has(a.pod.name)) return true;
      if (patched.size >= max) return false;
      patched.add(a.pod.name);
      return true;
    }
    if (a.type !== 'CreatePod' && a.type !== 'DeletePod') return true;
    const n = pendingObjects(a);
    if (full[a.type] || (used[a.type] > 0 && used[a.type] + n > max)) {
      full[a.type] = true;
      return false;
    }
    used[a.type] += n;
    return true;
  });
}
