/**
 * The reconciled object's GET answered from the invocation's copy (lib/kube/keptObject.ts): the first GET of a pass is
 * answered from the copy, as a deep copy, until a mark of a newer change of the object, a quorum mark, a write of it
 * (whose answer is kept; a refused one keeps nothing), its deletion or the TTL; a second GET in the same pass is read;
 * other objects and resources are read as asked.
 */
import { describe, expect, test } from '@jest/globals';
import { KubeApiError } from '../../../lib/kube/errors.js';
import {
  KEPT_OBJECT_TTL_MS,
  KEPT_OBJECT_UNCHECKED_MS,
  KeptObject,
  keepingKube,
} from '../../../lib/kube/keptObject.js';
import type { KubeObject, Resource } from '../../../lib/kube/resource.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import { CLONESET_RESOURCE as CLONESETS } from '../../../lib/controllers/cloneset/api/resource.js';

const REF = { namespace: 'ns', name: 'web' };
/** CloneSets as any object: the tests write bare objects. */
const CLONESET_RESOURCE = CLONESETS as unknown as Resource;

/** Every call as `<method> <plural> <name>`; the object's resourceVersion goes up by one with each write. */
function recordingKube(opts: { refuseReplace?: boolean } = {}) {
  const calls: string[] = [];
  let rv = 100;
  let replicas = 1;
  const object = (name: string): KubeObject =>
    ({ metadata: { name, namespace: 'ns', resourceVersion: String(rv) }, spec: { replicas } }) as KubeObject;
  const kube = {
    get: (resource: Resource, ref: { name: string }) => {
      calls.push(`get ${resource.plural} ${ref.name}`);
      return Promise.resolve(ref.name === 'gone' ? undefined : object(ref.name));
    },
    replace: (resource: Resource, o: KubeObject) => {
      calls.push(`replace ${resource.plural} ${o.metadata.name ?? ''}`);
      if (opts.refuseReplace) return Promise.reject(new KubeApiError('replace', 409, 'Conflict', 'changed'));
      rv++;
      return Promise.resolve(object(o.metadata.name ?? ''));
    },
    patch: (resource: Resource, ref: { name: string }) => {
      calls.push(`patch ${resource.plural} ${ref.name}`);
      rv++;
      return Promise.resolve(object(ref.name));
    },
    delete: (resource: Resource, ref: { name: string }) => {
      calls.push(`delete ${resource.plural} ${ref.name}`);
      return Promise.resolve(object(ref.name));
    },
  } as unknown as KubeClient;
  /** Someone else changes the object (the server's copy). */
  const change = () => {
    rv++;
    replicas++;
  };
  return { kube, calls, change };
}

/** One pass's client over `kube` and `kept`, at `now()`. */
const passOf = (kube: KubeClient, kept: KeptObject, now: () => number) =>
  keepingKube(kube, kept, CLONESET_RESOURCE, REF, now);

describe('keepingKube', () => {
  test("a pass's first GET is answered from the copy, a deep copy each time, until the TTL is up", async () => {
    const { kube, calls } = recordingKube();
    let now = 1_000;
    const kept = new KeptObject(now);
    const first = await passOf(kube, kept, () => now).get(CLONESET_RESOURCE, REF);
    (first as unknown as { spec: { replicas: number } }).spec.replicas = 99; // a pass changing what it read
    const second = await passOf(kube, kept, () => now).get(CLONESET_RESOURCE, REF);
    expect(second).toEqual({
      metadata: { name: 'web', namespace: 'ns', resourceVersion: '100' },
      spec: { replicas: 1 },
    });
    now += KEPT_OBJECT_TTL_MS - 1;
    kept.checked(now); // a wait's poll found no mark
    await passOf(kube, kept, () => now).get(CLONESET_RESOURCE, REF);
    now += 1;
    kept.checked(now);
    await passOf(kube, kept, () => now).get(CLONESET_RESOURCE, REF);
    expect(calls).toEqual(['get clonesets web', 'get clonesets web']);
  });

  test('a pass more than 250 ms after the invocation last looked at its marks reads the object (a run of acting passes)', async () => {
    const { kube, calls } = recordingKube();
    const kept = new KeptObject(1_000); // acquired at 1,000
    await passOf(kube, kept, () => 1_000).get(CLONESET_RESOURCE, REF);
    await passOf(kube, kept, () => 1_000 + KEPT_OBJECT_UNCHECKED_MS).get(CLONESET_RESOURCE, REF);
    expect(calls).toEqual(['get clonesets web']);
    await passOf(kube, kept, () => 1_001 + KEPT_OBJECT_UNCHECKED_MS).get(CLONESET_RESOURCE, REF);
    expect(calls).toEqual(['get clonesets web', 'get clonesets web']);
    kept.checked(2_000); // a poll, or a release that found marks
    await passOf(kube, kept, () => 2_100).get(CLONESET_RESOURCE, REF);
    kept.checked(1_500); // an older look does not move it back
    await passOf(kube, kept, () => 2_200).get(CLONESET_RESOURCE, REF);
    expect(calls).toEqual(['get clonesets web', 'get clonesets web']);
  });

  test('a second GET in the same pass is read (a deliberate re-check), and kept', async () => {
    const { kube, calls, change } = recordingKube();
    const kept = new KeptObject(1);
    await passOf(kube, kept, () => 1).get(CLONESET_RESOURCE, REF);
    const pass = passOf(kube, kept, () => 2);
    await pass.get(CLONESET_RESOURCE, REF);
    change();
    expect((await pass.get(CLONESET_RESOURCE, REF))?.metadata.resourceVersion).toBe('101');
    expect((await passOf(kube, kept, () => 3).get(CLONESET_RESOURCE, REF))?.metadata.resourceVersion).toBe(
      '101',
    );
    expect(calls).toEqual(['get clonesets web', 'get clonesets web']);
  });

  test("a mark of the object's change newer than the copy drops it; an older or equal one, or a pod's, does not; a quorum mark does", async () => {
    const { kube, calls } = recordingKube();
    const kept = new KeptObject(1);
    const get = () => passOf(kube, kept, () => 1).get(CLONESET_RESOURCE, REF);
    await get(); // rv 100 kept
    kept.afterMarks({ quorum: false, objectResourceVersion: '99' });
    kept.afterMarks({ quorum: false, objectResourceVersion: '100' });
    kept.afterMarks({ quorum: false });
    await get();
    expect(calls).toEqual(['get clonesets web']);
    kept.afterMarks({ quorum: false, objectResourceVersion: '101' });
    await get();
    kept.afterMarks({ quorum: true });
    await get();
    kept.afterMarks({ quorum: false, objectResourceVersion: 'not-a-revision' });
    await get();
    expect(calls).toEqual([
      'get clonesets web',
      'get clonesets web',
      'get clonesets web',
      'get clonesets web',
    ]);
  });

  test('a write of the object keeps what it answers; a refused one keeps nothing; a delete drops the copy', async () => {
    const written = recordingKube();
    const kept = new KeptObject(1);
    const pass = passOf(written.kube, kept, () => 1);
    await pass.get(CLONESET_RESOURCE, REF);
    await pass.replace(
      CLONESET_RESOURCE,
      { metadata: { name: 'web', namespace: 'ns' } },
      { subresource: 'status' },
    );
    // the status write's answer (rv 101) answers the next pass
    expect(
      (await passOf(written.kube, kept, () => 2).get(CLONESET_RESOURCE, REF))?.metadata.resourceVersion,
    ).toBe('101');
    await passOf(written.kube, kept, () => 3).patch(CLONESET_RESOURCE, REF, { type: 'merge', body: {} });
    expect(
      (await passOf(written.kube, kept, () => 4).get(CLONESET_RESOURCE, REF))?.metadata.resourceVersion,
    ).toBe('102');
    await passOf(written.kube, kept, () => 5).delete(CLONESET_RESOURCE, REF);
    await passOf(written.kube, kept, () => 6).get(CLONESET_RESOURCE, REF);
    expect(written.calls).toEqual([
      'get clonesets web',
      'replace clonesets web',
      'patch clonesets web',
      'delete clonesets web',
      'get clonesets web',
    ]);

    const refused = recordingKube({ refuseReplace: true });
    const keptToo = new KeptObject(1);
    await passOf(refused.kube, keptToo, () => 1).get(CLONESET_RESOURCE, REF);
    await expect(
      passOf(refused.kube, keptToo, () => 2).replace(CLONESET_RESOURCE, {
        metadata: { name: 'web', namespace: 'ns' },
      }),
    ).rejects.toThrow(KubeApiError);
    await passOf(refused.kube, keptToo, () => 3).get(CLONESET_RESOURCE, REF);
    expect(refused.calls).toEqual(['get clonesets web', 'replace clonesets web', 'get clonesets web']);
  });

  test('other objects and resources are read as asked; an object not found keeps nothing', async () => {
    const { kube, calls } = recordingKube();
    const kept = new KeptObject(1);
    for (let i = 0; i < 2; i++) {
      const pass = passOf(kube, kept, () => 1);
      await pass.get(CLONESET_RESOURCE, { namespace: 'ns', name: 'other' });
      await pass.get(RESOURCES.pods, REF);
    }
    const gone = keepingKube(kube, kept, CLONESET_RESOURCE, { namespace: 'ns', name: 'gone' }, () => 1);
    expect(await gone.get(CLONESET_RESOURCE, { namespace: 'ns', name: 'gone' })).toBeUndefined();
    const again = keepingKube(kube, kept, CLONESET_RESOURCE, { namespace: 'ns', name: 'gone' }, () => 1);
    await again.get(CLONESET_RESOURCE, { namespace: 'ns', name: 'gone' });
    expect(calls).toEqual([
      'get clonesets other',
      'get pods web',
      'get clonesets other',
      'get pods web',
      'get clonesets gone',
      'get clonesets gone',
    ]);
  });

  test('an answer older than the copy (a GET that raced a write) does not replace it', () => {
    const kept = new KeptObject(1);
    const at = (rv: string) => ({ metadata: { name: 'web', namespace: 'ns', resourceVersion: rv } });
    kept.keep(at('105'), 1, kept.drops);
    kept.keep(at('104'), 2, kept.drops);
    expect(kept.reuse(3)?.metadata.resourceVersion).toBe('105');
    // a GET begun before a drop is not kept
    const drops = kept.drops;
    kept.drop();
    kept.keep(at('106'), 4, drops);
    expect(kept.reuse(5)).toBeUndefined();
  });
});
