import { testDynamoBackend } from '../support/dynamo.js';
import { FencedOutError } from '../../../lib/state/index.js';
import { DURATION, T0, ttlOf, useStateFixture } from './fixtures.js';

const fx = useStateFixture();
const PK = 'cluster#prod-eu';
const SK = 'watches';

describe(`WatchCheckpoints on ${testDynamoBackend()} (docs/architecture.md#watch-pump)`, () => {
  test('the first pump acquires token 1 with no resume points, saves some and releases storing the last ones', async () => {
    const { stores, item } = await fx.fresh();
    await expect(stores.watches.acquire('prod-eu', 'pump-a', DURATION, T0)).resolves.toEqual({
      acquired: true,
      token: 1,
    });
    await stores.watches.save('prod-eu', 'pump-a', 1, { pods: '1000', clonesets: '990' });
    expect(await item(PK, SK)).toMatchObject({
      expiresAt: T0 + DURATION,
      resumePoints: { pods: '1000', clonesets: '990' },
    });
    await stores.watches.release('prod-eu', 'pump-a', 1, { pods: '1200', clonesets: '990' });
    expect(await item(PK, SK)).toEqual({
      holder: 'pump-a',
      token: 1,
      expiresAt: 0,
      resumePoints: { pods: '1200', clonesets: '990' },
      ttl: ttlOf(T0 + DURATION),
    });
  });

  test('the next pump resumes from the stored points with token 2; a release without points keeps them', async () => {
    const { stores } = await fx.fresh();
    await stores.watches.acquire('prod-eu', 'pump-a', DURATION, T0);
    await stores.watches.release('prod-eu', 'pump-a', 1, { pods: '1000' });
    await stores.watches.acquire('prod-eu', 'pump-b', DURATION, T0 + 1);
    await stores.watches.release('prod-eu', 'pump-b', 2);
    await expect(stores.watches.acquire('prod-eu', 'pump-c', DURATION, T0 + 2)).resolves.toEqual({
      acquired: true,
      token: 3,
      resumePoints: { pods: '1000' },
    });
  });

  test("a second pump is refused while the first one's lease is live", async () => {
    const { stores } = await fx.fresh();
    await stores.watches.acquire('prod-eu', 'pump-a', DURATION, T0);
    await expect(stores.watches.acquire('prod-eu', 'pump-b', DURATION, T0 + DURATION - 1)).resolves.toEqual({
      acquired: false,
      token: 1,
    });
  });

  test("after a takeover the old pump's save and release throw FencedOutError and store nothing", async () => {
    const { stores, item } = await fx.fresh();
    await stores.watches.acquire('prod-eu', 'pump-a', DURATION, T0);
    await stores.watches.save('prod-eu', 'pump-a', 1, { pods: '1000' });
    await expect(stores.watches.acquire('prod-eu', 'pump-b', DURATION, T0 + DURATION)).resolves.toEqual({
      acquired: true,
      token: 2,
      resumePoints: { pods: '1000' },
    });
    const save = stores.watches.save('prod-eu', 'pump-a', 1, { pods: '1500' });
    await expect(save).rejects.toBeInstanceOf(FencedOutError);
    await expect(save).rejects.toThrow(
      'watch.save on cluster#prod-eu/watches was fenced out: token 1 is no longer current (holder pump-a)',
    );
    await expect(stores.watches.release('prod-eu', 'pump-a', 1, { pods: '1600' })).rejects.toBeInstanceOf(
      FencedOutError,
    );
    await stores.watches.save('prod-eu', 'pump-b', 2, { pods: '2000' });
    expect(await item(PK, SK)).toMatchObject({ holder: 'pump-b', token: 2, resumePoints: { pods: '2000' } });
  });

  test('clusters are independent', async () => {
    const { stores } = await fx.fresh();
    await stores.watches.acquire('prod-eu', 'pump-a', DURATION, T0);
    await expect(stores.watches.acquire('prod-us', 'pump-c', DURATION, T0)).resolves.toEqual({
      acquired: true,
      token: 1,
    });
  });

  test("a stream's resume point kept in its own item by earlier versions is read back, none when absent", async () => {
    const { stores, putItem } = await fx.fresh();
    await putItem({
      pk: PK,
      sk: 'watch#pods',
      holder: 'old',
      token: 4,
      expiresAt: 0,
      resourceVersion: '777',
    });
    await expect(stores.watches.legacyResumePoint('prod-eu', 'pods')).resolves.toBe('777');
    await expect(stores.watches.legacyResumePoint('prod-eu', 'clonesets')).resolves.toBeUndefined();
  });
});
