/**
 * The counted capacity model (./capacityModel.ts, docs/reliability.md#dynamodb-capacity): a 1,000-pod scale-up,
 * in-place rollout, recreate rollout and scale-down through the real reconciler and DynamoDB adapter, against the
 * capacity-enforcing client. Review finding 4 (issue 18): every delete rewrote the whole expectations item.
 */
import { ensureTable } from '../../../lib/state/index.js';
import { testDynamoBackend, uniqueTableName, useDynalite } from '../support/dynamo.js';
import { formatFigures, runCapacityModel } from './capacityModel.js';

const db = useDynalite();

describe(`1,000 pods within DynamoDB's limits, on ${testDynamoBackend()}`, () => {
  test('scale-up, in-place rollout, recreate rollout and scale-down: no throttle', async () => {
    const raw = db.client();
    const tableName = uniqueTableName();
    await ensureTable(raw, tableName);
    const figures = await runCapacityModel({
      client: () => db.client({ maxAttempts: 3 }),
      raw,
      tableName,
      enforce: true,
    });
    process.stdout.write(`${formatFigures(figures)}\n`);
    // [phase, WCU total, peak WCU/s per item, per partition, largest item (bytes), throttled requests]
    expect(
      figures.map((f) => [
        f.phase,
        f.stats.total.write,
        f.stats.peakPerItem.write,
        f.stats.peakPerPartition.write,
        f.stats.largestItemBytes,
        f.stats.throttled.write + f.stats.throttled.read,
      ]),
    ).toEqual([
      // since 2026-12-05 the lease item also remembers the Events written (lib/kube/eventCorrelation.ts `known`: a
      // repeat is then one PATCH instead of three requests), a few hundred bytes more on some lease writes: 531 / 331,
      // in-place 634 / 85, recreate 1,172 before
      // the expectations item keeps `ownsClaims` since 2026-12-06 (11 bytes: 101,119 and 20,719 B before) and its
      // owner's UID since 2026-12-07 (14 bytes: `ownerUid` and `cs-uid`; 101,130, 20,730 and 90,165 B before)
      ['scale-up', 534, 328, 332, 101144, 0],
      // the loop polls the dirty flag in its inline waits since 2026-12-03 (reads only: no mark in this sequential
      // model), which moves the passes in time and so the Event correlation state the lease item carries (626 WCU,
      // 20,519 B; recreate 1,174; scale-down 342 / 342 / 90,166 before)
      ['in-place rollout', 646, 84, 86, 20744, 0],
      // before (one expectations write per delete): 9,692 WCU, peaks 1,789 / 1,808 WCU/s, 357 throttled
      // the lease item carries the Event correlation state since 2026-12-03: its writes cost 2 WCU instead of 1 while
      // the CloneSet has recent Events (1,163 / 233 and 340 / 340 before)
      ['recreate rollout', 1173, 193, 235, 20744, 0],
      // before: 40,708 WCU, peaks 14,457 / 14,482 WCU/s, 860 throttled
      ['scale-down', 344, 178, 344, 90179, 0],
    ]);
    // the expectations item is written twice in the scale-down (the run of 1,000 deletes, then their observation)
    // (160 WCU before the dirty-flag polls moved the passes in time)
    expect(figures[3].writesBySk.expectations).toEqual({ writes: 2, wcu: 162 });
    for (const f of figures) expect(f.stats.peakPerPartition.read).toBeLessThan(100);
  }, 600_000);
});
