/**
 * Reading what SQLite can still read out of a damaged state.db, table by table, into a fresh one.
 * better-sqlite3 has no `.recover`, so a table SQLite cannot scan whole is read as `.recover` reads
 * it: page by page from its root (table-pages.ts), never seeking by rowid, so a garbage key on a
 * damaged page cannot make the rows after it unreachable. A row whose record breaks off keeps the
 * columns before the break (a run keeps its record when its output's pages are damaged).
 */
import type Database from 'better-sqlite3';
import type { DatabasePages } from './table-pages.js';

/** The tables worth saving, in the order they are copied. */
export const SALVAGED_TABLES = [
  'settings',
  'rules',
  'remembered_approvals',
  'unsandboxed_skills',
  'runs',
  'notices',
  'skill_switches',
  'trusted_projects',
  'voice_settings',
] as const;
export type SalvagedTable = (typeof SALVAGED_TABLES)[number];

/**
 * Tables whose rows are saved whole or not at all: a remembered approval missing its revocation,
 * session, profile or folder would come back wider than it was given (revived, unending, any
 * profile, any folder), and an allow rule missing its pins would be pinned again to whatever skill
 * has the name then (a rule that cannot be read whole pauses runs: E902).
 */
const WHOLE_ROWS_ONLY: ReadonlySet<SalvagedTable> = new Set(['rules', 'remembered_approvals']);

/** Columns that hold JSON, which their readers parse: a damaged value there would break every read of its table. */
const JSON_COLUMNS: Partial<Record<SalvagedTable, readonly string[]>> = {
  settings: ['limit_ceiling'],
  rules: ['pins'],
  remembered_approvals: ['hosts', 'profile_pin'],
  runs: ['args', 'command', 'sandbox', 'network_denied', 'swept'],
  notices: ['details'],
};

/** True when every JSON column of `row` present and not null parses. */
function jsonReadable(table: SalvagedTable, row: Row): boolean {
  return (JSON_COLUMNS[table] ?? []).every((c) => {
    const value = row[c];
    if (value === undefined || value === null) return true;
    if (typeof value !== 'string') return false;
    try {
      JSON.parse(value);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * What a run whose end cannot be read any more is saved as: failed, saying why, rather than left
 * pending (which would look like a run still going) or guessed.
 */
const UNREADABLE_RUN_END: Row = { status: 'failed', error_code: 'E901', reason: 'recovered from a damaged state.db: how this run ended could not be read' };

/** One row as a table's column names to values. */
type Row = Record<string, unknown>;

/** What was saved of one table: rows read, rows written, and whether every row could be read whole. */
export interface TableSalvage {
  read: number;
  written: number;
  complete: boolean;
}

export type SalvageReport = Record<SalvagedTable, TableSalvage>;

/** Where a damaged file's tables start, read from its own pages (sqlite_schema is the table rooted at page 1). */
export interface DamagedFile {
  pages: DatabasePages;
  /** Table name → root page and CREATE statement. */
  tables: Map<string, { root: number; sql: string }>;
  /**
   * An empty database in memory, opened with the store's own addon: a CREATE statement is read by making
   * it there. (The default addon is Node's; under Electron the store's is another build beside it.)
   */
  scratch: () => Database.Database;
}

/** The tables a database image declares, read page by page from sqlite_schema (type, name, tbl_name, rootpage, sql). */
export function damagedFile(pages: DatabasePages, scratch: () => Database.Database): DamagedFile {
  const tables = new Map<string, { root: number; sql: string }>();
  for (const { values } of pages.table(1).rows) {
    const [type, name, , root, sql] = values;
    if (type === 'table' && typeof name === 'string' && typeof root === 'number' && typeof sql === 'string' && !tables.has(name))
      tables.set(name, { root, sql });
  }
  return { pages, tables, scratch };
}

/**
 * A table's columns in record order as its CREATE statement declares them (made in a scratch
 * database): each with its default for records written before an ALTER added it, and which one, if
 * any, is the rowid under another name (an INTEGER PRIMARY KEY, stored as NULL in the record).
 */
function declaredColumns(file: DamagedFile, sql: string): { names: string[]; defaults: Map<string, unknown>; rowidAlias: string | null } | null {
  const scratch = file.scratch();
  try {
    scratch.exec(sql);
    const name = (scratch.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").get() as { name: string }).name;
    const info = scratch
      .prepare<[string], { name: string; type: string; pk: number; dflt_value: string | null }>(
        'SELECT name, type, pk, dflt_value FROM pragma_table_info(?) ORDER BY cid',
      )
      .all(name);
    const keys = info.filter((c) => c.pk > 0);
    const alias = keys.length === 1 && keys[0]?.type.toUpperCase() === 'INTEGER' ? (keys[0]?.name ?? null) : null;
    const defaults = new Map(
      info.filter((c) => c.dflt_value !== null).map((c) => [c.name, scratch.prepare(`SELECT ${c.dflt_value} AS v`).get() as { v: unknown }]),
    );
    return { names: info.map((c) => c.name), defaults: new Map([...defaults].map(([k, v]) => [k, v.v])), rowidAlias: alias };
  } catch {
    return null;
  } finally {
    scratch.close();
  }
}

/**
 * The rows of `table` read from the damaged file's pages (what `.recover` reads), keeping only
 * `columns`. A column past a break in its record is left out of the row (so a run keeps its record
 * when its output's pages are lost); a column an ALTER added after the row was written takes its default.
 */
function rowsFromPages(file: DamagedFile, table: string, columns: readonly string[]): { rows: Row[]; complete: boolean } {
  const entry = file.tables.get(table);
  const declared = entry === undefined ? null : declaredColumns(file, entry.sql);
  if (entry === undefined || declared === null) return { rows: [], complete: false };
  const wanted = new Set(columns);
  const walked = file.pages.table(entry.root);
  const rows = walked.rows.map((found) => {
    const row: Row = {};
    declared.names.forEach((name, i) => {
      if (!wanted.has(name)) return;
      if (name === declared.rowidAlias) row[name] = found.rowid;
      else if (i < found.values.length) row[name] = found.values[i];
      else if (found.whole && declared.defaults.has(name)) row[name] = declared.defaults.get(name);
    });
    if (table === 'runs' && !('status' in row)) Object.assign(row, UNREADABLE_RUN_END);
    return row;
  });
  return { rows, complete: walked.complete };
}

/** The rows of `table` in rowid order through SQLite when it reads the whole table, else from the damaged file's pages. */
function readTable(source: Database.Database | null, file: DamagedFile | null, table: string, columns: readonly string[]): { rows: Row[]; complete: boolean } {
  const list = columns.map((c) => `"${c}"`).join(', ');
  try {
    if (source !== null) return { rows: source.prepare<[], Row>(`SELECT ${list} FROM "${table}" ORDER BY rowid`).all(), complete: true };
  } catch {
    // Some page of the table is damaged: read what its pages still hold.
  }
  return file === null ? { rows: [], complete: false } : rowsFromPages(file, table, columns);
}

/** The column names of `table` in `db`, or null when its schema cannot be read. */
function columnsOf(db: Database.Database, table: string): string[] | null {
  try {
    const names = db
      .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)')
      .all(table)
      .map((c) => c.name);
    return names.length === 0 ? null : names;
  } catch {
    return null;
  }
}

/** The NOT NULL columns of `table` in `db`. */
function notNullColumns(db: Database.Database, table: string): Set<string> {
  return new Set(
    db
      .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?) WHERE "notnull" = 1')
      .all(table)
      .map((c) => c.name),
  );
}

/**
 * Copies every readable row of the known tables from the damaged file — through SQLite (`source`,
 * null when it cannot open the file) and its pages (`file`, null when they cannot be read) — into
 * `target`, a freshly migrated state.db, keeping only columns both know. A row the target refuses
 * (a value no CHECK allows) or with no column left to read is not written and makes its table
 * incomplete; a table whose copy fails is left empty and incomplete, and the tables after it are still copied.
 */
export function salvage(source: Database.Database | null, file: DamagedFile | null, target: Database.Database): SalvageReport {
  const report = {} as SalvageReport;
  for (const table of SALVAGED_TABLES) {
    try {
      report[table] = salvageTable(source, file, target, table);
    } catch {
      // Its transaction was rolled back: nothing of it was written.
      report[table] = { read: 0, written: 0, complete: false };
    }
  }
  return report;
}

/** Copies one table (see salvage) in one transaction. */
function salvageTable(source: Database.Database | null, file: DamagedFile | null, target: Database.Database, table: SalvagedTable): TableSalvage {
  const sql = file?.tables.get(table)?.sql;
  const sourceColumns =
    (source === null ? null : columnsOf(source, table)) ?? (file === null || sql === undefined ? null : (declaredColumns(file, sql)?.names ?? null));
  const targetColumns = new Set(columnsOf(target, table) ?? []);
  if (sourceColumns === null) return { read: 0, written: 0, complete: false };
  const columns = sourceColumns.filter((c) => targetColumns.has(c));
  const notNull = notNullColumns(target, table);
  const { rows, complete } = readTable(source, file, table, columns);
  let written = 0;
  let whole = complete;
  const inserts = new Map<string, Database.Statement>();
  target.transaction(() => {
    for (const row of rows) {
      const present = columns.filter((c) => Object.hasOwn(row, c));
      // A record that breaks off before its first column holds nothing to save: the row is lost.
      if (present.length === 0) {
        whole = false;
        continue;
      }
      // A record whose header declares fewer columns than the table has is as lost as one that breaks off.
      if (WHOLE_ROWS_ONLY.has(table) && present.length < columns.length) {
        whole = false;
        continue;
      }
      // OR REPLACE would quietly put a NOT NULL column's default in place of a NULL read from damage (the mode back to Global).
      if (present.some((c) => row[c] === null && notNull.has(c))) {
        whole = false;
        continue;
      }
      // A JSON value damaged into something else is lost with its row, never saved to break the reads of its table.
      if (!jsonReadable(table, row)) {
        whole = false;
        continue;
      }
      const key = present.join(',');
      let insert = inserts.get(key);
      if (insert === undefined) {
        insert = target.prepare(`INSERT OR REPLACE INTO "${table}" (${present.map((c) => `"${c}"`).join(', ')}) VALUES (${present.map(() => '?').join(', ')})`);
        inserts.set(key, insert);
      }
      try {
        insert.run(...present.map((c) => row[c]));
        written++;
      } catch {
        // a value the schema refuses was damaged: the row is lost, and the table said to be incomplete
        whole = false;
      }
    }
  })();
  return { read: rows.length, written, complete: whole };
}
