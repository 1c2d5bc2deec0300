/**
 * The capacity arithmetic and per-second accounting of the tests' DynamoDB capacity model
 * (test/support/dynamoCapacity, docs/reliability.md#dynamodb-capacity), as AWS documents them.
 */
import { CapacityMeter } from '../../support/dynamoCapacity/meter.js';
import {
  itemBytes,
  MAX_ITEM_BYTES,
  numberBytes,
  readUnits,
  writeUnits,
} from '../../support/dynamoCapacity/units.js';

describe('item sizes', () => {
  test('strings by UTF-8 bytes, names included; numbers by significant digits', () => {
    expect(itemBytes({ pk: { S: 'abc' } })).toBe(2 + 3);
    expect(itemBytes({ n: { S: 'é' } })).toBe(1 + 2);
    expect(numberBytes('1700000000000')).toBe(2); // "17": 1 byte per two digits, plus 1
    expect(numberBytes('1700000000123')).toBe(8); // 13 digits
    expect(numberBytes('-0.25')).toBe(3); // "25" plus the sign
    expect(numberBytes('0')).toBe(2);
  });

  test('a list or map costs 3 bytes plus 1 per element; NULL and BOOL 1; binary its bytes', () => {
    expect(itemBytes({ l: { L: [{ S: 'ab' }, { BOOL: true }] } })).toBe(1 + 3 + (1 + 2) + (1 + 1));
    expect(itemBytes({ m: { M: { name: { S: 'x' } } } })).toBe(1 + 3 + 1 + 4 + 1);
    expect(itemBytes({ b: { B: new Uint8Array(10) }, z: { NULL: true } })).toBe(1 + 10 + 1 + 1);
    expect(itemBytes(undefined)).toBe(0);
    expect(MAX_ITEM_BYTES).toBe(409_600);
  });
});

describe('capacity units', () => {
  test('writes: 1 per started KB of the larger of before and after, at least 1; a failed condition the existing item; transactions twice', () => {
    expect(writeUnits(0, 1)).toBe(1);
    expect(writeUnits(0, 1024)).toBe(1);
    expect(writeUnits(0, 1025)).toBe(2);
    expect(writeUnits(90_000, 100)).toBe(88);
    expect(writeUnits(3000, 90_000, { conditionFailed: true })).toBe(3);
    expect(writeUnits(0, 90_000, { conditionFailed: true })).toBe(1);
    expect(writeUnits(0, 2000, { transactional: true })).toBe(4);
  });

  test('reads: 1 per started 4 KB, at least 1, half when eventually consistent; transactions twice', () => {
    expect(readUnits(0, true)).toBe(1);
    expect(readUnits(4096, true)).toBe(1);
    expect(readUnits(4097, true)).toBe(2);
    expect(readUnits(4097, false)).toBe(1);
    expect(readUnits(100, false)).toBe(0.5);
    expect(readUnits(5000, true, { transactional: true })).toBe(4);
  });
});

describe('CapacityMeter', () => {
  test('1,000 WCU per second per item and per partition key; a refused request consumes nothing; the window slides', () => {
    const clock = { now: 0 };
    const m = new CapacityMeter(() => clock.now, true);
    expect(m.charge('write', 'p', 'a', 600)).toBe(true);
    clock.now = 500;
    expect(m.charge('write', 'p', 'b', 300)).toBe(true); // partition at 900
    expect(m.charge('write', 'p', 'a', 200)).toBe(false); // partition would be 1,100
    expect(m.charge('write', 'q', 'a', 1000)).toBe(true); // another partition key
    clock.now = 1000; // the first 600 left the window (it holds (0, 1000])
    expect(m.charge('write', 'p', 'a', 700)).toBe(true);
    expect(m.stats.total.write).toBe(2600);
    expect(m.stats.throttled.write).toBe(1);
    expect(m.stats.peakPerPartition.write).toBe(1000);
    expect(m.stats.peakPartition.write).toBe('q'); // first to reach 1,000; p reaches it at 1,000 ms
    expect(m.stats.peakPerItem.write).toBe(1000);
    expect(m.stats.peakItem.write).toBe('q/a');
    expect(m.stats.byItem['p/a']).toEqual({
      units: { read: 0, write: 1300 },
      requests: { read: 0, write: 2 },
    });
  });

  test('reads are limited at 3,000 RCU separately from writes; a Query charges the partition alone', () => {
    const m = new CapacityMeter(() => 0, true);
    expect(m.charge('write', 'p', 'a', 1000)).toBe(true);
    expect(m.charge('read', 'p', 'a', 2000)).toBe(true);
    expect(m.charge('read', 'p', undefined, 1000)).toBe(true);
    expect(m.charge('read', 'p', 'b', 0.5)).toBe(false);
    expect(m.stats.peakPerPartition.read).toBe(3000);
    expect(m.stats.peakPerItem.read).toBe(2000);
  });

  test('counting only: over the limit is admitted and counted', () => {
    const m = new CapacityMeter(() => 0, false);
    expect(m.charge('write', 'p', 'a', 900)).toBe(true);
    expect(m.charge('write', 'p', 'a', 900)).toBe(true);
    expect(m.stats.throttled.write).toBe(1);
    expect(m.stats.peakPerItem.write).toBe(1800);
  });
});
