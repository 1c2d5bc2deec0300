/**
 * DynamoDB's capacity arithmetic as AWS documents it, on items in the wire form (`AttributeValue` maps, as the SDK
 * sends and receives them). Test-only: the model behind the capacity-enforcing client of ./middleware.ts
 * (docs/reliability.md#dynamodb-capacity). Sources:
 * - item size: "Item sizes and formats" (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 *   attribute names and string values count their UTF-8 bytes, binary values their bytes, a number about one byte
 *   per two significant digits plus one, `NULL` and `BOOL` one byte, a list or map 3 bytes plus 1 byte per element;
 * - units: "Read/write capacity mode" and "DynamoDB read and write operations"
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html): a write costs
 *   one WCU per started 1 KB of the larger of the item before and after it (a delete: the deleted item), at least 1,
 *   also when its condition fails (then the existing item's size); a strongly consistent read one RCU per started
 *   4 KB, an eventually consistent one half that; a Query the summed size of the items it read; transactional
 *   reads and writes twice as much;
 * - limits: "Service, account, and table quotas" (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)
 *   and "Partitions and data distribution": an item at most 400 KB; one partition key value (and so one item)
 *   at most 3,000 RCU and 1,000 WCU per second, in on-demand and provisioned mode alike.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** An item as the wire carries it. */
export type WireItem = Record<string, AttributeValue>;

/** The largest item DynamoDB stores: 400 KB, in bytes (names and values together). */
export const MAX_ITEM_BYTES = 400 * 1024;
/** Write units per second one partition key value (and one item) is served at most. */
export const WCU_PER_SECOND = 1000;
/** Read units per second one partition key value (and one item) is served at most. */
export const RCU_PER_SECOND = 3000;

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * Bytes of a number: 1 per two significant digits (leading and trailing zeros trimmed, the decimal point not
 * counted), plus 1, plus 1 when negative (AWS: "approximately (number of significant digits / 2) + 1 bytes").
 * @param n the number's decimal text as the wire carries it, e.g. `1700000000000` or `-0.25`
 */
export function numberBytes(n: string): number {
  const digits = n
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1 + (n.startsWith('-') ? 1 : 0);
}

function binaryBytes(b: Uint8Array | string): number {
  return typeof b === 'string' ? Buffer.from(b, 'base64').length : b.length;
}

/**
 * Bytes of one attribute value.
 * @throws Error for a value of no known type
 */
export function valueBytes(v: AttributeValue): number {
  if (v.S !== undefined) return utf8(v.S);
  if (v.N !== undefined) return numberBytes(v.N);
  if (v.B !== undefined) return binaryBytes(v.B);
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS !== undefined) return v.SS.reduce((s, x) => s + utf8(x), 0);
  if (v.NS !== undefined) return v.NS.reduce((s, x) => s + numberBytes(x), 0);
  if (v.BS !== undefined) return v.BS.reduce((s, x) => s + binaryBytes(x), 0);
  if (v.L !== undefined) return 3 + v.L.reduce((s, x) => s + 1 + valueBytes(x), 0);
  if (v.M !== undefined)
    return 3 + Object.entries(v.M).reduce((s, [k, x]) => s + 1 + utf8(k) + valueBytes(x), 0);
  throw new Error(`attribute value of unknown type: ${JSON.stringify(v)}`);
}

/** Bytes of an item: every attribute's name (UTF-8) and value; 0 for an absent item. */
export function itemBytes(item: WireItem | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((s, [k, v]) => s + utf8(k) + valueBytes(v), 0);
}

/**
 * Write units of one write.
 * @param beforeBytes the item's size before the write (0 when absent)
 * @param afterBytes its size after (0 for a delete, or when the condition failed)
 * @param opts.conditionFailed the condition failed: only the existing item counts (at least 1 unit)
 * @param opts.transactional part of TransactWriteItems: twice the units
 * @returns ceil(larger size / 1 KB), at least 1
 */
export function writeUnits(
  beforeBytes: number,
  afterBytes: number,
  opts: { conditionFailed?: boolean; transactional?: boolean } = {},
): number {
  const bytes = opts.conditionFailed ? beforeBytes : Math.max(beforeBytes, afterBytes);
  return Math.max(1, Math.ceil(bytes / 1024)) * (opts.transactional ? 2 : 1);
}

/**
 * Read units of one GetItem (the item's size) or one Query page (the summed size of the items it read).
 * @param consistent strongly consistent (else eventually consistent: half)
 * @param opts.transactional part of TransactGetItems: twice the units
 * @returns ceil(bytes / 4 KB), at least 1, halved when eventually consistent
 */
export function readUnits(
  bytes: number,
  consistent: boolean,
  opts: { transactional?: boolean } = {},
): number {
  const units = Math.max(1, Math.ceil(bytes / 4096)) * (opts.transactional ? 2 : 1);
  return consistent ? units : units / 2;
}
