/**
 * v13 on a database written at v12 (voice's channel): the runs it holds are kept and read as having
 * swept nothing, and a run may now record the hidden paths the sweep removed from its folder.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION, applyMigrations, userVersion } from '../../../src-main/core/store/migrations.js';
import { getRun } from '../../../src-main/core/store/run-queries.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();
const sweptStep = MIGRATIONS.findIndex((m) => m.up.toString().includes('swept'));

it('is the step after voice, and keeps the runs recorded before it', () => {
  expect(MIGRATIONS[sweptStep]?.version).toBe(13);
  expect(MIGRATIONS[sweptStep - 1]?.up.toString()).toContain('channel');
  const raw = new Database(join(homes.dir(), 'state.db'));
  try {
    applyMigrations(raw, MIGRATIONS.slice(0, sweptStep));
    expect(userVersion(raw)).toBe(12);
    raw
      .prepare(
        `INSERT INTO runs (id, trace_id, surface, assistant, skill, tool, args, command, program_path, skill_hash, requested_at, outcome, decided_by, actor, status, channel)
         VALUES ('old', 't', 'mcp', 'claude', 'probe', 'sh', '{}', NULL, '/usr/bin/bash', 'h', 5, 'approved', 'user', 'tray', 'succeeded', 'voice')`,
      )
      .run();
    expect(applyMigrations(raw)).toBe(SCHEMA_VERSION);
    expect(getRun(raw, 'old')).toMatchObject({ skill: 'probe', assistant: 'claude', channel: 'voice', swept: [] });
    raw.prepare(`UPDATE runs SET swept = ? WHERE id = 'old'`).run(JSON.stringify(['build/.git']));
    expect(getRun(raw, 'old')).toMatchObject({ swept: ['build/.git'] });
  } finally {
    raw.close();
  }
});
