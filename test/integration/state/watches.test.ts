import { testDynamoBackend } from '../support/dynamo.js';
import { FencedOutError } from '../../../lib/state/index.js';
import { DURATION, T0, ttlOf, useStateFixture } from './fixtures.js';

const fx = useStateFixture();
const PK = 'cluster#prod-eu';
const SK = 'watch#pods';

describe(`WatchCheckpoints on ${testDynamoBackend()} (docs/architecture.md#watch-pump)`, () => {
  test('the first pump acquires token 1 with no resourceVersion, saves one and releases', async () => {
    const { stores, item } = await fx.fresh();
    await expect(stores.watches.acquire('prod-eu', 'pods', 'pump-a', DURATION, T0)).resolves.toEqual({
      acquired: true,
      token: 1,
    });
    await stores.watches.save('prod-eu', 'pods', 'pump-a', 1, '1000');
    await stores.watches.release('prod-eu', 'pods', 'pump-a', 1);
    expect(await item(PK, SK)).toEqual({
      holder: 'pump-a',
      token: 1,
      expiresAt: 0,
      resourceVersion: '1000',
      ttl: ttlOf(T0 + DURATION),
    });
  });

  test('the next pump resumes from the saved resourceVersion with token 2', async () => {
    const { stores } = await fx.fresh();
    await stores.watches.acquire('prod-eu', 'pods', 'pump-a', DURATION, T0);
    await stores.watches.save('prod-eu', 'pods', 'pump-a', 1, '1000');
    await stores.watches.release('prod-eu', 'pods', 'pump-a', 1);
    await expect(stores.watches.acquire('prod-eu', 'pods', 'pump-b', DURATION, T0 + 1)).resolves.toEqual({
      acquired: true,
      token: 2,
      resourceVersion: '1000',
    });
  });

  test("a second pump is refused while the first one's lease is live", async () => {
    const { stores } = await fx.fresh();
    await stores.watches.acquire('prod-eu', 'pods', 'pump-a', DURATION, T0);
    await expect(
      stores.watches.acquire('prod-eu', 'pods', 'pump-b', DURATION, T0 + DURATION - 1),
    ).resolves.toEqual({ acquired: false, token: 1 });
  });

  test("after a takeover the old pump's save and release throw FencedOutError and its resourceVersion is not stored", async () => {
    const { stores, item } = await fx.fresh();
    await stores.watches.acquire('prod-eu', 'pods', 'pump-a', DURATION, T0);
    await stores.watches.save('prod-eu', 'pods', 'pump-a', 1, '1000');
    await expect(
      stores.watches.acquire('prod-eu', 'pods', 'pump-b', DURATION, T0 + DURATION),
    ).resolves.toEqual({
      acquired: true,
      token: 2,
      resourceVersion: '1000',
    });
    const save = stores.watches.save('prod-eu', 'pods', 'pump-a', 1, '1500');
    await expect(save).rejects.toBeInstanceOf(FencedOutError);
    await expect(save).rejects.toThrow(
      'watch.save on cluster#prod-eu/watch#pods was fenced out: token 1 is no longer current (holder pump-a)',
    );
    await expect(stores.watches.release('prod-eu', 'pods', 'pump-a', 1)).rejects.toBeInstanceOf(
      FencedOutError,
    );
    await stores.watches.save('prod-eu', 'pods', 'pump-b', 2, '2000');
    expect(await item(PK, SK)).toMatchObject({ holder: 'pump-b', token: 2, resourceVersion: '2000' });
  });

  test('checkpoints of different resources and clusters are independent', async () => {
    const { stores } = await fx.fresh();
    await stores.watches.acquire('prod-eu', 'pods', 'pump-a', DURATION, T0);
    await expect(stores.watches.acquire('prod-eu', 'clonesets', 'pump-b', DURATION, T0)).resolves.toEqual({
      acquired: true,
      token: 1,
    });
    await expect(stores.watches.acquire('prod-us', 'pods', 'pump-c', DURATION, T0)).resolves.toEqual({
      acquired: true,
      token: 1,
    });
  });
});
