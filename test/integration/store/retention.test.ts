import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compact, historyUsage, maintainHistory, pruneOutput } from '../../../src-main/core/store/retention.js';
import { getRun, listRuns } from '../../../src-main/core/store/run-queries.js';
import { recordDecision, recordRequest, recordResult, recordStart } from '../../../src-main/core/store/run-records.js';
import { setRetention } from '../../../src-main/core/store/settings.js';
import type { StateDb } from '../../../src-main/core/store/state-db.js';
import type { RunSummary } from '../../../src-main/shared/runs.js';
import { useTempHomes } from './temp-home.js';
import { thisProcess } from '../../../src-main/core/process-identity.js';

const homes = useTempHomes();
const DAY = 24 * 60 * 60 * 1000;
const MIB = 1024 * 1024;
const NOW = 1_800_000_000_000;
const noWait = async (): Promise<void> => undefined;

/** A finished run requested `daysAgo` days before NOW with `bytes` of stdout; or one still running (no output yet). */
function run(db: StateDb, id: string, daysAgo: number, bytes: number, finished = true): void {
  recordRequest(
    db,
    {
      id,
      traceId: `t-${id}`,
      surface: 'mcp',
      skill: 'git',
      tool: 'git_log',
      args: { n: 3 },
      command: null,
      programPath: '/usr/bin/git',
      skillHash: 'h',
      requestedAt: NOW - daysAgo * DAY,
    },
    thisProcess(),
  );
  recordDecision(db, id, { outcome: 'approved', decidedBy: 'user', actor: 'tray', reason: 'user skill', decidedAt: NOW - daysAgo * DAY + 5 });
  recordStart(db, id, NOW - daysAgo * DAY + 10);
  if (!finished) return;
  recordResult(
    db,
    id,
    {
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      stdout: 'x'.repeat(bytes),
      stderr: '',
      droppedBytes: { stdout: 0, stderr: 0 },
      durationMs: 3,
    },
    { endedAt: NOW - daysAgo * DAY + 20 },
  );
}

/** Everything of a run but its output: what retention must never change. */
const record = ({ outputDroppedAt: _dropped, ...rest }: RunSummary): Omit<RunSummary, 'outputDroppedAt'> => rest;

describe('history retention', () => {
  it('drops the output of runs older than the days kept, and keeps every record whole', async () => {
    const db = homes.fresh();
    run(db, 'old', 40, 1000);
    run(db, 'edge', 29, 1000);
    run(db, 'new', 1, 1000);
    run(db, 'live', 60, 0, false);
    const before = listRuns(db).map(record);
    expect(await pruneOutput(db, { outputDays: 30, outputMaxMb: 100 }, NOW, noWait)).toEqual({ droppedByAge: 1, droppedBySize: 0, bytesDropped: 1000 });
    expect(listRuns(db).map(record)).toEqual(before);
    expect(getRun(db, 'old')).toMatchObject({
      stdout: null,
      stderr: null,
      outputDroppedAt: NOW,
      status: 'succeeded',
      outcome: 'approved',
      decidedBy: 'user',
      actor: 'tray',
      exitCode: 0,
    });
    expect(getRun(db, 'edge')).toMatchObject({ stdout: 'x'.repeat(1000), outputDroppedAt: null });
    // A run still going is never touched, however old.
    expect(getRun(db, 'live')).toMatchObject({ status: 'running', outputDroppedAt: null });
    expect(historyUsage(db)).toMatchObject({ runs: 4, runsWithOutput: 2, outputBytes: 2000 });
  });

  it('drops the oldest output first until what is left fits the size kept', async () => {
    const db = homes.fresh();
    for (let i = 0; i < 6; i++) run(db, `r${i}`, 6 - i, MIB / 2);
    const result = await pruneOutput(db, { outputDays: 30, outputMaxMb: 2 }, NOW, noWait);
    expect(result).toEqual({ droppedByAge: 0, droppedBySize: 2, bytesDropped: MIB });
    expect(listRuns(db).map((r) => [r.id, r.outputDroppedAt !== null])).toEqual([
      ['r5', false],
      ['r4', false],
      ['r3', false],
      ['r2', false],
      ['r1', true],
      ['r0', true],
    ]);
    expect(historyUsage(db).outputBytes).toBe(2 * MIB);
  });

  it('for any history and settings: no kept output is past its days, the total fits, size drops the oldest, records never change', async () => {
    const histories = fc.array(fc.record({ daysAgo: fc.integer({ min: 0, max: 60 }), kib: fc.integer({ min: 0, max: 256 }), finished: fc.boolean() }), {
      minLength: 1,
      maxLength: 20,
    });
    const settings = fc.record({ outputDays: fc.integer({ min: 1, max: 45 }), outputMaxMb: fc.integer({ min: 1, max: 2 }) });
    await fc.assert(
      fc.asyncProperty(histories, settings, async (runs, retention) => {
        const db = homes.fresh();
        runs.forEach((r, i) => run(db, `r${String(i).padStart(2, '0')}`, r.daysAgo, r.kib * 4096, r.finished));
        const before = listRuns(db, { limit: 1000 }).map(record);
        await pruneOutput(db, retention, NOW, noWait);
        const after = listRuns(db, { limit: 1000 });
        expect(after.map(record)).toEqual(before);
        const kept = after.filter((r) => r.status === 'succeeded' && r.outputDroppedAt === null && getRun(db, r.id)?.stdout !== '');
        for (const r of kept) expect(r.requestedAt).toBeGreaterThanOrEqual(NOW - retention.outputDays * DAY);
        expect(historyUsage(db).outputBytes).toBeLessThanOrEqual(retention.outputMaxMb * MIB);
        const droppedRecent = after.filter((r) => r.outputDroppedAt !== null && r.requestedAt >= NOW - retention.outputDays * DAY);
        for (const dropped of droppedRecent) for (const k of kept) expect(dropped.requestedAt).toBeLessThanOrEqual(k.requestedAt);
        db.close();
      }),
      { numRuns: 30 },
    );
  });

  it('makes new databases incrementally vacuumed, and gives freed pages back to the file system', async () => {
    const db = homes.fresh();
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    for (let i = 0; i < 40; i++) run(db, `r${i}`, 90, 256 * 1024);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const full = historyUsage(db).dbBytes;
    const report = await maintainHistory(db, NOW, noWait);
    expect(report).toMatchObject({ droppedByAge: 40, droppedBySize: 0, bytesDropped: 40 * 256 * 1024 });
    expect(['incremental', 'full']).toContain(report.vacuum);
    expect(historyUsage(db).dbBytes).toBeLessThan(full / 10);
    expect(report.bytesFreed).toBe(full - historyUsage(db).dbBytes);
    expect(listRuns(db)).toHaveLength(40);
  });

  it('vacuums a database made before retention existed whole, once, switching it to incremental vacuum', async () => {
    const path = join(homes.dir(), 'state.db');
    const legacy = new Database(path);
    legacy.exec('CREATE TABLE leftover (x)');
    legacy.close();
    const db = homes.open(path);
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(0);
    expect((await compact(db, noWait)).vacuum).toBe('full');
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect((await compact(db, noWait)).vacuum).toBe('none');
  });

  it('applies the stored settings', async () => {
    const db = homes.fresh();
    run(db, 'week-old', 7, 10);
    setRetention(db, { outputDays: 3 });
    expect((await maintainHistory(db, NOW, noWait)).droppedByAge).toBe(1);
  });
});
