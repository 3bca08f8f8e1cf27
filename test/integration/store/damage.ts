/** Damaging a state.db the way a failing disk does: seeded random bytes over one page of one b-tree. */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Bytes from a small seeded generator, so a failing test can be replayed exactly. */
function randomBytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * The pages of `name` (a table or an index) of a given type, from SQLite's own page map (dbstat),
 * optionally only those whose b-tree path matches; the file must be closed by everyone else.
 */
export function pagesOf(path: string, name: string, type: 'leaf' | 'internal' | 'overflow', where: RegExp = /./): number[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare<[string, string], { pageno: number; path: string }>('SELECT pageno, path FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno')
      .all(name, type)
      .filter((r) => where.test(r.path))
      .map((r) => r.pageno);
  } finally {
    db.close();
  }
}

/** Writes seeded random bytes over page `page` of the database file at `path` (all of it, or `count` bytes from `offset`). */
export function damagePage(path: string, page: number, seed = 7, range: { offset?: number; count?: number } = {}): void {
  const pageSize = 4096;
  const count = range.count ?? pageSize;
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, randomBytes(count, seed), 0, count, (page - 1) * pageSize + (range.offset ?? 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Breaks the overflow chain at `page` (its first overflow page of a row): seeded bytes over its
 * pointer to the next page. In an auto-vacuum file SQLite can step over an overflow page without
 * reading that pointer, by checking in the pointer map that the following page continues the chain;
 * that entry is spoiled too, so whatever lies past `page` is unreachable however the pages were laid out.
 */
export function breakOverflowChain(path: string, page: number, seed = 11): void {
  damagePage(path, page, seed, { count: 4 });
  const db = new Database(path, { readonly: true });
  const autoVacuum = db.pragma('auto_vacuum', { simple: true }) as number;
  db.close();
  if (autoVacuum === 0) return;
  // The first pointer-map page is page 2; entry (type, parent) of page p sits at 5 × (p − 3). Type 4 is "overflow page 2+", parent 0 none.
  const entry = Buffer.from([4, 0, 0, 0, 0]);
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, entry, 0, entry.length, 4096 + 5 * (page + 1 - 3));
  } finally {
    closeSync(fd);
  }
}

/**
 * Breaks the record of the first row on `page` (a table leaf) before its first column: that column's
 * serial type becomes 0x7f, a 57-byte TEXT running past the record, so nothing of the row is readable.
 * The row must be small (its payload size, rowid and header size each one varint byte).
 */
export function breakFirstColumn(path: string, page: number): void {
  const pageSize = 4096;
  const fd = openSync(path, 'r+');
  try {
    const header = Buffer.alloc(pageSize);
    readSync(fd, header, 0, pageSize, (page - 1) * pageSize);
    if (header[0] !== 13) throw new Error(`page ${page} is not a table leaf`);
    const cell = header.readUInt16BE(8);
    if ([0, 1, 2].some((i) => (header[cell + i] as number) >= 0x80)) throw new Error(`the first row on page ${page} is not a small one`);
    writeSync(fd, Buffer.from([0x7f]), 0, 1, (page - 1) * pageSize + cell + 3);
  } finally {
    closeSync(fd);
  }
}
