/**
 * Remembered approvals ("always allow this tool"). Each is pinned to the skill's content hash and
 * the program's resolved path at the time it was given, so an edited skill or a different binary
 * on PATH lapses it (policy decides that; this file only keeps the records). Revoking keeps the
 * row with its revocation time, as a record of what was once allowed.
 */
import { SkilltrayError } from '../errors.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { Remembered } from '../../shared/runs.js';

export interface RememberInput {
  skill: string;
  tool: string;
  skillHash: string;
  programPath: string;
}

interface RememberedRow {
  id: number;
  skill: string;
  tool: string;
  skill_hash: string;
  program_path: string;
  created_at: number;
  revoked_at: number | null;
}

const COLUMNS = 'id, skill, tool, skill_hash, program_path, created_at, revoked_at';

function toRemembered(row: RememberedRow): Remembered {
  return {
    id: row.id,
    skill: row.skill,
    tool: row.tool,
    skillHash: row.skill_hash,
    programPath: row.program_path,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Remembers an approval, replacing (revoking) any live one for the same tool. */
export function remember(db: StateDb, input: RememberInput, now: number = Date.now()): Remembered {
  return db.transaction(() => {
    prepared(db, 'UPDATE remembered_approvals SET revoked_at = ? WHERE skill = ? AND tool = ? AND revoked_at IS NULL')
      .run(now, input.skill, input.tool);
    const row = prepared<[string, string, string, string, number], RememberedRow>(
      db,
      `INSERT INTO remembered_approvals (skill, tool, skill_hash, program_path, created_at)
       VALUES (?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    ).get(input.skill, input.tool, input.skillHash, input.programPath, now);
    return toRemembered(row as RememberedRow);
  })();
}

/** The live remembered approval for a tool, or null. */
export function findRemembered(db: StateDb, skill: string, tool: string): Remembered | null {
  const row = prepared<[string, string], RememberedRow>(
    db,
    `SELECT ${COLUMNS} FROM remembered_approvals WHERE skill = ? AND tool = ? AND revoked_at IS NULL`,
  ).get(skill, tool);
  return row === undefined ? null : toRemembered(row);
}

/** Revokes a live remembered approval; E615 when there is none with that id. */
export function revoke(db: StateDb, id: number, now: number = Date.now()): void {
  const info = prepared(db, 'UPDATE remembered_approvals SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id);
  if (info.changes === 0) {
    throw new SkilltrayError('E615', `no remembered approval with id ${id} is in force`, { details: { id } });
  }
}

/** Every live remembered approval, by skill then tool. */
export function listRemembered(db: StateDb): Remembered[] {
  return prepared<[], RememberedRow>(
    db,
    `SELECT ${COLUMNS} FROM remembered_approvals WHERE revoked_at IS NULL ORDER BY skill, tool`,
  ).all().map(toRemembered);
}

/** Revokes every remembered approval of `skill` (of `tools` only, when given), in every session; returns what was revoked. */
export function revokeForSkill(db: StateDb, skill: string, tools: readonly string[] | null = null, now: number = Date.now()): { skill: string; tool: string }[] {
  const rows = prepared<[number, string], { skill: string; tool: string }>(
    db,
    'UPDATE remembered_approvals SET revoked_at = ? WHERE skill = ? AND revoked_at IS NULL RETURNING skill, tool',
  );
  if (tools === null) return rows.all(now, skill);
  return db.transaction(() =>
    tools.flatMap((tool) =>
      prepared<[number, string, string], { skill: string; tool: string }>(
        db,
        'UPDATE remembered_approvals SET revoked_at = ? WHERE skill = ? AND tool = ? AND revoked_at IS NULL RETURNING skill, tool',
      ).all(now, skill, tool),
    ),
  )();
}
