/**
 * Reading what SQLite can still read out of a damaged state.db, table by table and row by row, into
 * a fresh one. better-sqlite3 has no `.recover`, so this walks each table by rowid: a full scan when
 * it works; otherwise one row at a time, reading a row column by column when only part of it is
 * unreadable (a run keeps its record when its output's pages are damaged), and seeking past a
 * damaged stretch of the b-tree to the next row that can be reached.
 */
import type Database from 'better-sqlite3';

/** The tables worth saving, in the order they are copied. */
export const SALVAGED_TABLES = ['settings', 'rules', 'remembered_approvals', 'unsandboxed_skills', 'runs', 'notices', 'skill_switches', 'trusted_projects'] as const;
export type SalvagedTable = (typeof SALVAGED_TABLES)[number];

/**
 * Tables whose rows are saved whole or not at all: a remembered approval missing its revocation,
 * session, profile or folder would come back wider than it was given (revived, unending, any
 * profile, any folder), and an allow rule missing its pins would be pinned again to whatever skill
 * has the name then (a rule that cannot be read whole pauses runs: E902).
 */
const WHOLE_ROWS_ONLY: ReadonlySet<SalvagedTable> = new Set(['rules', 'remembered_approvals']);

/**
 * What a run whose end cannot be read any more is saved as: failed, saying why, rather than left
 * pending (which would look like a run still going) or guessed.
 */
const UNREADABLE_RUN_END: Row = { status: 'failed', error_code: 'E901', reason: 'recovered from a damaged state.db: how this run ended could not be read' };

/** Largest rowid probed when skipping a damaged stretch. */
const MAX_ROWID = Number.MAX_SAFE_INTEGER;

/** What was saved of one table: rows read, rows written, and whether every row could be read whole. */
export interface TableSalvage {
  read: number;
  written: number;
  complete: boolean;
}

export type SalvageReport = Record<SalvagedTable, TableSalvage>;

type Row = Record<string, unknown>;

/** The rows of `table` in rowid order, as far as they can be read, and whether that was all of them. */
function readTable(source: Database.Database, table: string, columns: readonly string[]): { rows: Row[]; complete: boolean } {
  const list = columns.map((c) => `"${c}"`).join(', ');
  try {
    return { rows: source.prepare<[], Row>(`SELECT ${list} FROM "${table}" ORDER BY rowid`).all(), complete: true };
  } catch {
    // Some page of the table is damaged: go row by row.
  }
  const whole = source.prepare<[number], Row>(`SELECT rowid AS "rowid:", ${list} FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT 1`);
  const rowidAfter = source.prepare<[number], { r: number }>(`SELECT rowid AS r FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT 1`);
  const single = new Map(columns.map((c) => [c, source.prepare<[number], Row>(`SELECT "${c}" FROM "${table}" WHERE rowid = ?`)]));
  /** The columns of row `rowid` that can still be read, one by one (a damaged overflow page hides only what lies past it). */
  const piecemeal = (rowid: number): Row => {
    const row: Row = {};
    for (const [column, statement] of single) {
      try {
        const value = statement.get(rowid);
        if (value !== undefined) row[column] = value[column];
      } catch {
        // this column lies on a damaged page
      }
    }
    return row;
  };

  /** The first rowid after `after`, 'end' when there is none, 'damaged' when the seek fails. */
  const seek = (after: number): number | 'end' | 'damaged' => {
    try {
      return rowidAfter.get(after)?.r ?? 'end';
    } catch {
      return 'damaged';
    }
  };
  /** The first reachable rowid after a seek from `after` failed: probe further and further, then narrow down. */
  const skipDamage = (after: number): number | 'end' => {
    let failing = after;
    let found: number | 'end' | null = null;
    let probe = after;
    for (let step = 1; probe < MAX_ROWID; step *= 2) {
      probe = Math.min(after + step, MAX_ROWID);
      const next = seek(probe);
      if (next !== 'damaged') {
        found = next;
        break;
      }
      failing = probe;
    }
    if (found === null) return 'end';
    let working = probe;
    while (working - failing > 1) {
      const middle = Math.floor((failing + working) / 2);
      const next = seek(middle);
      if (next === 'damaged') failing = middle;
      else {
        working = middle;
        found = next;
      }
    }
    return found;
  };

  const rows: Row[] = [];
  let after = 0;
  for (;;) {
    try {
      const row = whole.get(after);
      if (row === undefined) break;
      after = row['rowid:'] as number;
      delete row['rowid:'];
      rows.push(row);
      continue;
    } catch {
      // This row, or the way to it, is damaged.
    }
    const next = seek(after);
    const rowid = next === 'damaged' ? skipDamage(after) : next;
    if (rowid === 'end') break;
    if (next !== 'damaged') {
      // The row is reachable but not whole: keep what of it can be read.
      const row = piecemeal(rowid);
      if (table === 'runs' && !('status' in row)) Object.assign(row, UNREADABLE_RUN_END);
      rows.push(row);
      after = rowid;
      continue;
    }
    after = rowid - 1;
  }
  return { rows, complete: false };
}

/** The column names of `table` in `db`, or null when its schema cannot be read. */
function columnsOf(db: Database.Database, table: string): string[] | null {
  try {
    const names = db.prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)').all(table).map((c) => c.name);
    return names.length === 0 ? null : names;
  } catch {
    return null;
  }
}

/**
 * Copies every readable row of the known tables from `source` (null: the file could not be opened
 * at all) into `target`, a freshly migrated state.db, keeping only columns both know. A row the
 * target refuses (a value no CHECK allows) is not written.
 */
export function salvage(source: Database.Database | null, target: Database.Database): SalvageReport {
  const report = {} as SalvageReport;
  for (const table of SALVAGED_TABLES) {
    const sourceColumns = source === null ? null : columnsOf(source, table);
    const targetColumns = new Set(columnsOf(target, table) ?? []);
    if (source === null || sourceColumns === null) {
      report[table] = { read: 0, written: 0, complete: false };
      continue;
    }
    const columns = sourceColumns.filter((c) => targetColumns.has(c));
    const { rows, complete } = readTable(source, table, columns);
    let written = 0;
    const inserts = new Map<string, Database.Statement>();
    target.transaction(() => {
      for (const row of rows) {
        const present = columns.filter((c) => c in row);
        if (WHOLE_ROWS_ONLY.has(table) && present.length < columns.length) continue;
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
          // a value the schema refuses: not copied
        }
      }
    })();
    report[table] = { read: rows.length, written, complete };
  }
  return report;
}
