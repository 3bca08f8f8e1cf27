/**
 * Keeping state.db's history bounded. A run's output (up to 2 MiB) is what makes history grow, so
 * retention drops output — of runs older than the setting's days, then of the oldest runs until the
 * output left fits the size setting — and never the record itself: who asked, what ran, when, what
 * was decided and by whom, and how it ended all stay. Freed pages are given back to the file system
 * by incremental vacuum, or by a full VACUUM when much of the file is free or fragmented (dropped
 * output leaves sparse pages that only a full VACUUM packs again), and once to switch a database made
 * before retention existed to incremental auto-vacuum. Each batch yields, so an owner's requests keep flowing.
 */
import type { HistoryUsage, MaintenanceReport, Retention } from '../../shared/runs.js';
import { getSettings } from './settings.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const MIB = 1024 * 1024;

/** How many rows one transaction touches, so a huge history never holds the write lock, or the event loop, long. */
const BATCH = 200;

/** What one run's record and its index entries take, generously: to tell a fragmented file from a full one. */
const RECORD_BYTES = 1024;

/** A file larger than twice what it holds (plus this) is fragmented enough to be vacuumed whole. */
const SLACK_BYTES = 16 * MIB;

/** Lets other work run between batches. */
export type Yield = () => Promise<void>;

const nextTurn: Yield = () => new Promise((resolve) => setImmediate(resolve));

/** What is stored now: runs, their output, and the file's size and free space. */
export function historyUsage(db: StateDb): HistoryUsage {
  const runs = prepared<[], { runs: number; withOutput: number; outputBytes: number }>(
    db,
    'SELECT count(*) AS runs, count(*) FILTER (WHERE output_bytes > 0) AS withOutput, coalesce(sum(output_bytes), 0) AS outputBytes FROM runs',
  ).get() as { runs: number; withOutput: number; outputBytes: number };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return { runs: runs.runs, runsWithOutput: runs.withOutput, outputBytes: runs.outputBytes, dbBytes: pages * pageSize, freeBytes: free * pageSize };
}

/** Drops the output of the runs `ids` (finished ones only), keeping each record; returns the bytes dropped. */
function dropOutput(db: StateDb, ids: readonly string[], now: number): number {
  const drop = prepared(
    db,
    `UPDATE runs SET stdout = NULL, stderr = NULL, output_bytes = 0, output_dropped_at = ?
     WHERE id = ? AND output_bytes > 0 AND status NOT IN ('pending', 'running')`,
  );
  const bytes = prepared<[string], { output_bytes: number }>(db, 'SELECT output_bytes FROM runs WHERE id = ?');
  let dropped = 0;
  db.transaction(() => {
    for (const id of ids) {
      const size = bytes.get(id)?.output_bytes ?? 0;
      if (drop.run(now, id).changes === 1) dropped += size;
    }
  })();
  return dropped;
}

/**
 * Applies `retention` (the stored settings unless given): output of finished runs older than its
 * days is dropped, then the oldest remaining output until the total fits its size. Returns how many
 * runs lost their output to each rule and the bytes dropped.
 */
export async function pruneOutput(
  db: StateDb,
  retention: Retention = getSettings(db).retention,
  now: number = Date.now(),
  pause: Yield = nextTurn,
): Promise<Pick<MaintenanceReport, 'droppedByAge' | 'droppedBySize' | 'bytesDropped'>> {
  const old = prepared<[number], { id: string }>(db, "SELECT id FROM runs WHERE output_bytes > 0 AND requested_at < ? AND status NOT IN ('pending', 'running')")
    .all(now - retention.outputDays * DAY_MS)
    .map((r) => r.id);
  let bytesDropped = 0;
  for (let i = 0; i < old.length; i += BATCH) {
    bytesDropped += dropOutput(db, old.slice(i, i + BATCH), now);
    await pause();
  }

  const budget = retention.outputMaxMb * MIB;
  let total = historyUsage(db).outputBytes;
  let droppedBySize = 0;
  if (total > budget) {
    // Oldest first, by the index over runs that still hold output.
    const oldest = prepared<[], { id: string; output_bytes: number }>(
      db,
      "SELECT id, output_bytes FROM runs WHERE output_bytes > 0 AND status NOT IN ('pending', 'running') ORDER BY requested_at, rowid",
    );
    const chosen: string[] = [];
    for (const row of oldest.iterate()) {
      if (total <= budget) break;
      chosen.push(row.id);
      total -= row.output_bytes;
    }
    for (let i = 0; i < chosen.length; i += BATCH) {
      const batch = chosen.slice(i, i + BATCH);
      bytesDropped += dropOutput(db, batch, now);
      droppedBySize += batch.length;
      await pause();
    }
  }
  return { droppedByAge: old.length, droppedBySize, bytesDropped };
}

/**
 * Gives free pages back to the file system: a full VACUUM when the database is not yet in incremental
 * auto-vacuum, when a quarter of its pages are free, or when it is more than twice the size of what it
 * holds (pages left sparse by dropped output); otherwise incremental vacuum, a batch of pages at a
 * time. Then truncates the WAL.
 */
export async function compact(db: StateDb, pause: Yield = nextTurn): Promise<Pick<MaintenanceReport, 'vacuum' | 'bytesFreed'>> {
  const before = historyUsage(db);
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const holds = before.outputBytes + before.runs * RECORD_BYTES;
  let vacuum: MaintenanceReport['vacuum'] = 'none';
  if ((db.pragma('auto_vacuum', { simple: true }) as number) !== 2 || free * 4 > pages || before.dbBytes > 2 * holds + SLACK_BYTES) {
    db.pragma('auto_vacuum = INCREMENTAL');
    db.exec('VACUUM');
    vacuum = 'full';
  } else if (free > 0) {
    for (let left = free; left > 0; left = db.pragma('freelist_count', { simple: true }) as number) {
      db.pragma(`incremental_vacuum(${BATCH * 10})`);
      await pause();
    }
    vacuum = 'incremental';
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { vacuum, bytesFreed: Math.max(0, before.dbBytes - historyUsage(db).dbBytes) };
}

/** One maintenance pass: retention, then compaction. */
export async function maintainHistory(db: StateDb, now: number = Date.now(), pause: Yield = nextTurn): Promise<MaintenanceReport> {
  const pruned = await pruneOutput(db, getSettings(db).retention, now, pause);
  return { at: now, ...pruned, ...(await compact(db, pause)) };
}
