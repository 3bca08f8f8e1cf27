/**
 * A table's rows read straight from the pages of a database image (SQLite's file format, section
 * 1.6), as sqlite3's `.recover` reads them: from the table's root page down every child pointer,
 * never trusting the keys that order the tree. A damaged interior page hides only the subtrees it
 * no longer points to; a garbage rowid on a leaf is one odd row, not the end of the walk; a broken
 * overflow chain keeps the columns that lie before the break. Pages no table reaches (the free
 * list, deleted rows) are never read, so nothing deleted comes back.
 */

import { TextDecoder } from 'node:util';

/** One row found on a leaf: its rowid and the values of its record, in column order (a value past a break is missing). */
export interface PageRow {
  rowid: number | bigint;
  values: unknown[];
  /** False when the record could be read only in part (a broken overflow chain, a malformed header). */
  whole: boolean;
}

/** The rows of one table b-tree, and whether every page and cell of it could be read. */
export interface PageTable {
  rows: PageRow[];
  complete: boolean;
}

const LEAF_TABLE = 0x0d;
const INTERIOR_TABLE = 0x05;

/** A database image's pages. */
export class DatabasePages {
  readonly pageSize: number;
  private readonly usable: number;
  private readonly pageCount: number;
  private readonly decoder: TextDecoder;

  constructor(private readonly image: Buffer) {
    if (image.length < 100 || image.toString('latin1', 0, 15) !== 'SQLite format 3') throw new Error('not a SQLite database image');
    const raw = image.readUInt16BE(16);
    this.pageSize = raw === 1 ? 65536 : raw;
    this.usable = this.pageSize - image[20]!;
    this.pageCount = Math.floor(image.length / this.pageSize);
    const encoding = image.readUInt32BE(56);
    this.decoder = new TextDecoder(encoding === 2 ? 'utf-16le' : encoding === 3 ? 'utf-16be' : 'utf-8');
  }

  private page(number: number): Buffer | null {
    if (!Number.isInteger(number) || number < 1 || number > this.pageCount) return null;
    return this.image.subarray((number - 1) * this.pageSize, number * this.pageSize);
  }

  /** Every row of the table b-tree rooted at `root`, as far as its pages can be read. */
  table(root: number): PageTable {
    const rows: PageRow[] = [];
    let complete = true;
    const visited = new Set<number>();
    const stack = [root];
    while (stack.length > 0) {
      const number = stack.pop() as number;
      const page = this.page(number);
      if (page === null || visited.has(number)) {
        complete = false;
        continue;
      }
      visited.add(number);
      const header = number === 1 ? 100 : 0;
      const type = page[header];
      const cells = page.readUInt16BE(header + 3);
      if (type === INTERIOR_TABLE) {
        // Children pushed in reverse so the walk visits them in the page's order.
        const children: number[] = [];
        for (let i = 0; i < cells; i++) {
          const at = this.cellOffset(page, header + 12, i);
          if (at === null || at + 4 > this.usable) complete = false;
          else children.push(page.readUInt32BE(at));
        }
        children.push(page.readUInt32BE(header + 8));
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as number);
      } else if (type === LEAF_TABLE) {
        for (let i = 0; i < cells; i++) {
          const at = this.cellOffset(page, header + 8, i);
          const row = at === null ? null : this.leafCell(page, at);
          if (row === null) complete = false;
          else {
            if (!row.whole) complete = false;
            rows.push(row);
          }
        }
      } else {
        complete = false;
      }
    }
    return { rows, complete };
  }

  /** Where cell `i` of a page starts, from its cell pointer array at `array`; null when the pointer is out of the page. */
  private cellOffset(page: Buffer, array: number, i: number): number | null {
    const slot = array + 2 * i;
    if (slot + 2 > this.usable) return null;
    const at = page.readUInt16BE(slot);
    return at < array || at >= this.usable ? null : at;
  }

  /** A table leaf cell: payload size, rowid, the payload's local part, then its overflow chain. */
  private leafCell(page: Buffer, at: number): PageRow | null {
    const size = readVarint(page, at, this.usable);
    if (size === null) return null;
    const rowid = readVarint(page, at + size.length, this.usable);
    if (rowid === null) return null;
    const payloadSize = Number(size.value);
    const start = at + size.length + rowid.length;
    const local = this.localSize(payloadSize);
    if (start + local > this.usable) return null;
    let payload = page.subarray(start, start + local);
    let whole = true;
    if (local < payloadSize) {
      if (start + local + 4 > this.usable) return null;
      const chain = this.overflow(page.readUInt32BE(start + local), payloadSize - local);
      payload = Buffer.concat([payload, chain.bytes]);
      whole = chain.whole;
    }
    const record = this.record(payload, payloadSize);
    if (record === null) return null;
    const id = rowid.value;
    return {
      rowid: id >= BigInt(Number.MIN_SAFE_INTEGER) && id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id,
      values: record.values,
      whole: whole && record.whole,
    };
  }

  /** How much of a payload of `size` bytes a table leaf keeps on the page itself (section 1.6). */
  private localSize(size: number): number {
    const max = this.usable - 35;
    if (size <= max) return size;
    const min = Math.floor(((this.usable - 12) * 32) / 255) - 23;
    const k = min + ((size - min) % (this.usable - 4));
    return k <= max ? k : min;
  }

  /** Up to `wanted` bytes from an overflow chain starting at `first`, and whether the chain held them all. */
  private overflow(first: number, wanted: number): { bytes: Buffer; whole: boolean } {
    const parts: Buffer[] = [];
    let got = 0;
    const seen = new Set<number>();
    for (let number = first; got < wanted;) {
      const page = this.page(number);
      if (page === null || seen.has(number)) return { bytes: Buffer.concat(parts), whole: false };
      seen.add(number);
      const take = Math.min(wanted - got, this.usable - 4);
      parts.push(page.subarray(4, 4 + take));
      got += take;
      number = page.readUInt32BE(0);
    }
    return { bytes: Buffer.concat(parts), whole: true };
  }

  /**
   * The values of a record (section 2.1): a header of serial types, then the values. `bytes` may be
   * shorter than `size` (a broken chain): the values wholly inside it are read, the rest left out.
   */
  private record(bytes: Buffer, size: number): { values: unknown[]; whole: boolean } | null {
    const headerSize = readVarint(bytes, 0, bytes.length);
    if (headerSize === null || Number(headerSize.value) > size || Number(headerSize.value) > bytes.length) return null;
    const end = Number(headerSize.value);
    const types: number[] = [];
    for (let at = headerSize.length; at < end;) {
      const type = readVarint(bytes, at, end);
      if (type === null) return null;
      types.push(Number(type.value));
      at += type.length;
    }
    const values: unknown[] = [];
    let at = end;
    for (const type of types) {
      const length = serialLength(type);
      if (length === null) return null;
      if (at + length > bytes.length) return { values, whole: false };
      values.push(this.value(type, bytes.subarray(at, at + length)));
      at += length;
    }
    return { values, whole: at <= size };
  }

  private value(type: number, bytes: Buffer): unknown {
    if (type === 0) return null;
    if (type === 8) return 0;
    if (type === 9) return 1;
    if (type === 7) return bytes.readDoubleBE(0);
    if (type >= 1 && type <= 6) {
      const n = bytes.length === 8 ? bytes.readBigInt64BE(0) : BigInt(bytes.readIntBE(0, bytes.length));
      return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
    }
    if (type % 2 === 0) return Buffer.from(bytes);
    return this.decoder.decode(bytes);
  }
}

/** The byte length of a value of serial type `type`; null for the two reserved types. */
function serialLength(type: number): number | null {
  if (type === 10 || type === 11) return null;
  if (type >= 12) return Math.floor((type - 12) / 2);
  return [0, 1, 2, 3, 4, 6, 8, 8, 0, 0][type] as number;
}

/** A SQLite varint (1–9 bytes, big-endian, 7 bits a byte and 8 in the ninth) at `at`, read no further than `limit`. */
function readVarint(bytes: Buffer, at: number, limit: number): { value: bigint; length: number } | null {
  let value = 0n;
  for (let i = 0; i < 9; i++) {
    if (at + i >= limit || at + i >= bytes.length) return null;
    const byte = bytes[at + i] as number;
    if (i === 8) return { value: BigInt.asIntN(64, (value << 8n) | BigInt(byte)), length: 9 };
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) return { value: BigInt.asIntN(64, value), length: i + 1 };
  }
  return null;
}
