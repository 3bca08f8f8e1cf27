/**
 * Random byte damage to any page of a small state.db: opening it either recovers and says so (the
 * notice marks every table that came back short as not read whole, and pauses runs when rules,
 * settings or skill switches are among them), or fails with a coded error that leaves nothing quiet
 * behind. Never a table lost without a word.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listRules } from '../../../src-main/core/store/rules.js';
import { listRemembered } from '../../../src-main/core/store/approvals.js';
import { getRun, listRuns } from '../../../src-main/core/store/run-queries.js';
import { recordRequest } from '../../../src-main/core/store/run-records.js';
import { getSettings } from '../../../src-main/core/store/settings.js';
import { setSwitch } from '../../../src-main/core/store/switches.js';
import { trustProject } from '../../../src-main/core/store/trusted-projects.js';
import { setVoiceSettings } from '../../../src-main/core/store/voice.js';
import { listNotices } from '../../../src-main/core/store/notices.js';
import { openStateDb, type StateDb } from '../../../src-main/core/store/state-db.js';
import { SALVAGED_TABLES, type SalvageReport } from '../../../src-main/core/store/salvage.js';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import type { Notice } from '../../../src-main/shared/runs.js';
import { thisProcess } from '../../../src-main/core/process-identity.js';
import { addPersonsChoices, useTempHomes } from './temp-home.js';

const homes = useTempHomes();
const PAGE = 4096;

/** Rows in every salvaged table: rules, a remembered approval, an unsandboxed skill, the mode, runs, a notice, skills turned off, a trusted project, voice. */
function populate(path: string): void {
  const db = openStateDb(path);
  addPersonsChoices(db);
  for (let i = 0; i < 4; i++)
    recordRequest(
      db,
      { traceId: `t${i}`, surface: 'cli', skill: 'git', tool: 'git_log', args: { i }, command: null, programPath: '/usr/bin/git', skillHash: 'h' },
      thisProcess(),
    );
  db.prepare("INSERT INTO notices (code, message, details, created_at) VALUES ('E901', 'an earlier recovery', '{}', 1)").run();
  setSwitch(db, 'evil', false, null, 1);
  setSwitch(db, 'other', false, 'Dev', 1);
  trustProject(db, '/h/project', 'd'.repeat(64), 1);
  setVoiceSettings(db, { enabled: true });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const countOf = (db: StateDb, table: string): number => (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;

describe('random damage to a small state.db', () => {
  it('is recovered with a notice naming every table that came back short, or fails coded; never a table lost in silence', () => {
    const base = join(homes.dir(), 'state.db');
    populate(base);
    const image = readFileSync(base);
    const pages = image.length / PAGE;
    const original = openStateDb(base);
    const before = new Map(SALVAGED_TABLES.map((t) => [t, countOf(original, t)]));
    original.close();
    for (const table of SALVAGED_TABLES) expect(before.get(table), table).toBeGreaterThan(0);

    // Table leaves (page 1's b-tree header follows the 100-byte file header), and where each of their rows starts.
    const leaves = Array.from({ length: pages }, (_, i) => i + 1).filter((p) => image[(p - 1) * PAGE + (p === 1 ? 100 : 0)] === 13);
    const cellsOf = (p: number): number[] => {
      const at = (p - 1) * PAGE + (p === 1 ? 100 : 0);
      return Array.from({ length: image.readUInt16BE(at + 3) }, (_, i) => (p - 1) * PAGE + image.readUInt16BE(at + 8 + 2 * i));
    };
    const byte = fc.integer({ min: 0, max: 255 });
    // Bytes anywhere on any page, or the first bytes of a row on a table leaf: its sizes, rowid and column types, where a record breaks off.
    const damage = fc.oneof(
      fc
        .record({
          page: fc.integer({ min: 1, max: pages }),
          edits: fc.array(fc.record({ offset: fc.integer({ min: 0, max: PAGE - 1 }), byte }), { minLength: 1, maxLength: 12 }),
        })
        .map(({ page, edits }) => edits.map((e) => ({ at: (page - 1) * PAGE + e.offset, byte: e.byte }))),
      fc
        .record({
          leaf: fc.nat(),
          cell: fc.nat(),
          edits: fc.array(fc.record({ offset: fc.integer({ min: 0, max: 6 }), byte }), { minLength: 1, maxLength: 3 }),
        })
        .map(({ leaf, cell, edits }) => {
          const cells = cellsOf(leaves[leaf % leaves.length] as number);
          const start = cells[cell % cells.length] as number;
          return edits.map((e) => ({ at: start + e.offset, byte: e.byte }));
        }),
    );
    fc.assert(
      fc.property(damage, (edits) => {
        const bytes = Buffer.from(image);
        for (const { at, byte: value } of edits) bytes[at] = value;
        const path = join(homes.dir(), 'state.db');
        writeFileSync(path, bytes);
        const told: Notice[] = [];
        let db: StateDb;
        try {
          db = openStateDb(path, { onRecovered: (n) => told.push(n) });
        } catch (error) {
          // A coded error, and what it leaves is not quiet: a notice in the new file (E906), or else the damaged file itself untouched.
          expect(error).toBeInstanceOf(SkilltrayError);
          if ((error as SkilltrayError).code !== 'E906') {
            expect(readFileSync(path).equals(bytes), `${(error as SkilltrayError).code} left the file changed`).toBe(true);
            return;
          }
          const reopened = openStateDb(path, { onRecovered: (n) => told.push(n) });
          try {
            expect(told.length + listNotices(reopened).filter((n) => n.code === 'E906').length).toBeGreaterThan(0);
          } finally {
            reopened.close();
          }
          return;
        }
        try {
          if (told.length === 0) {
            // Not found damaged: every row is still there.
            for (const table of SALVAGED_TABLES) expect(countOf(db, table), table).toBe(before.get(table));
            return;
          }
          expect(told).toHaveLength(1);
          const notice = told[0] as Notice;
          expect(['E901', 'E902']).toContain(notice.code);
          expect(listNotices(db).map((n) => n.id)).toContain(notice.id);
          // What was saved can be read back.
          listRules(db);
          listRemembered(db, 'any-session');
          for (const run of listRuns(db, { limit: 100 })) getRun(db, run.id);
          const report = (notice.details as { tables: SalvageReport }).tables;
          for (const table of SALVAGED_TABLES) {
            const now = countOf(db, table) - (table === 'notices' ? 1 : 0);
            if (now < (before.get(table) as number)) expect(report[table].complete, `${table}: ${now} of ${before.get(table)} rows, said whole`).toBe(false);
          }
          if (getSettings(db).mode !== 'Dev') expect(report.settings.complete, 'settings reset, said whole').toBe(false);
          if (!report.rules.complete) expect(notice.code).toBe('E902');
          if (!report.rules.complete || !report.settings.complete || !report.skill_switches.complete) expect(getSettings(db).paused).toBe(true);
        } finally {
          db.close();
        }
      }),
      { numRuns: 150 },
    );
  });
});
