/**
 * v11 on a database written before it: a run may now be recorded as stopped by a private folder
 * of its box that was full (`privateFolder`); every run kept, the history indexes back, and
 * anything else unknown still refused by the CHECK.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION, applyMigrations } from '../../../src-main/core/store/migrations.js';
import { getRun } from '../../../src-main/core/store/run-queries.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();
const limitStep = MIGRATIONS.findIndex((m) => m.up.toString().includes('privateFolder'));

it('lets a run record a full private folder, and keeps the runs recorded before', () => {
  expect(limitStep).toBeGreaterThan(0);
  const raw = new Database(join(homes.dir(), 'state.db'));
  try {
    applyMigrations(raw, MIGRATIONS.slice(0, limitStep));
    raw
      .prepare(
        `INSERT INTO runs (id, trace_id, surface, skill, tool, args, command, program_path, skill_hash, requested_at, outcome, decided_by, actor, status, limit_hit)
         VALUES ('old', 't', 'cli', 'probe', 'sh', '{}', NULL, '/usr/bin/bash', 'h', 5, 'approved', 'user', 'tray', 'failed', 'cpuSeconds')`,
      )
      .run();
    expect(() => raw.prepare(`UPDATE runs SET limit_hit = 'privateFolder' WHERE id = 'old'`).run()).toThrow(/CHECK/);
    expect(applyMigrations(raw)).toBe(SCHEMA_VERSION);
    expect(getRun(raw, 'old')).toMatchObject({ skill: 'probe', status: 'failed', limitHit: 'cpuSeconds' });
    raw.prepare(`UPDATE runs SET limit_hit = 'privateFolder' WHERE id = 'old'`).run();
    expect(getRun(raw, 'old')).toMatchObject({ limitHit: 'privateFolder' });
    expect(() => raw.prepare(`UPDATE runs SET limit_hit = 'disk' WHERE id = 'old'`).run()).toThrow(/CHECK/);
    const plan = raw.prepare(`EXPLAIN QUERY PLAN SELECT id FROM runs WHERE skill = 'probe' ORDER BY requested_at DESC`).all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join(' ')).toMatch(/USING INDEX runs_by_skill/);
  } finally {
    raw.close();
  }
});
