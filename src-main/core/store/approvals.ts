/**
 * Remembered approvals ("always allow this tool"). Each is pinned to the skill's content hash, the
 * program's resolved path and the sandbox profile at the time it was given, so an edited skill, a
 * different binary on PATH or a wider profile lapses it (policy decides that; this file only keeps
 * the records). One given "for this session" carries the id of the owner session that took it and
 * is in force only there. Each is pinned to the folder the run worked in as well, unless it was
 * given for any folder (null; policy lets only a read-only tool run on that), so there is one live
 * approval per tool and folder. Revoking keeps the row with its revocation time, as a record of what
 * was once allowed.
 */
import { SkilltrayError } from '../errors.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { Remembered, SandboxProfile, SandboxProfileName } from '../../shared/runs.js';

export interface RememberInput {
  skill: string;
  tool: string;
  skillHash: string;
  programPath: string;
  profile: SandboxProfile;
  /** The owner session it lasts for; null (or absent) for "until revoked". */
  session?: string | null;
  /** The canonical folder it holds in; null for any folder. */
  folder: string | null;
}

interface RememberedRow {
  id: number;
  skill: string;
  tool: string;
  skill_hash: string;
  program_path: string;
  profile: SandboxProfileName;
  network: number;
  session: string | null;
  /** JSON of the profile's reads, writes and limits; null for an approval remembered before the box had them. */
  box: string | null;
  folder: string | null;
  created_at: number;
  revoked_at: number | null;
}

const COLUMNS = 'id, skill, tool, skill_hash, program_path, profile, network, session, box, folder, created_at, revoked_at';

/** In force in `session`: until revoked, or taken in this very session. */
const IN_FORCE = 'revoked_at IS NULL AND (session IS NULL OR session = @session)';

function toRemembered(row: RememberedRow): Remembered {
  return {
    id: row.id,
    skill: row.skill,
    tool: row.tool,
    skillHash: row.skill_hash,
    programPath: row.program_path,
    profile: { name: row.profile, network: row.network === 1, ...(row.box === null ? {} : (JSON.parse(row.box) as Pick<SandboxProfile, 'reads' | 'writes' | 'limits'>)) },
    expires: row.session === null ? 'revoke' : 'session',
    folder: row.folder,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Remembers an approval, replacing (revoking) any live one for the same tool and folder, whichever session took it. */
export function remember(db: StateDb, input: RememberInput, now: number = Date.now()): Remembered {
  return db.transaction(() => {
    prepared(db, 'UPDATE remembered_approvals SET revoked_at = ? WHERE skill = ? AND tool = ? AND folder IS ? AND revoked_at IS NULL')
      .run(now, input.skill, input.tool, input.folder);
    const row = prepared<[Record<string, string | number | null>], RememberedRow>(
      db,
      `INSERT INTO remembered_approvals (skill, tool, skill_hash, program_path, profile, network, session, box, folder, created_at)
       VALUES (@skill, @tool, @skillHash, @programPath, @profile, @network, @session, @box, @folder, @now) RETURNING ${COLUMNS}`,
    ).get({
      skill: input.skill,
      tool: input.tool,
      skillHash: input.skillHash,
      programPath: input.programPath,
      profile: input.profile.name,
      network: input.profile.network ? 1 : 0,
      session: input.session ?? null,
      box: JSON.stringify({ reads: input.profile.reads ?? [], writes: input.profile.writes ?? [], ...(input.profile.limits === undefined ? {} : { limits: input.profile.limits }) }),
      folder: input.folder,
      now,
    });
    return toRemembered(row as RememberedRow);
  })();
}

/**
 * The remembered approval for a tool in force in `session` for a run in `folder`: the one given in
 * that folder, else one given for any folder, else (so policy can say why it asks again) the newest
 * given in another folder; null when there is none.
 */
export function findRemembered(db: StateDb, skill: string, tool: string, session: string, folder: string): Remembered | null {
  const row = prepared<[Record<string, string>], RememberedRow>(
    db,
    `SELECT ${COLUMNS} FROM remembered_approvals WHERE skill = @skill AND tool = @tool AND ${IN_FORCE}
     ORDER BY folder IS @folder DESC, folder IS NULL DESC, id DESC LIMIT 1`,
  ).get({ skill, tool, session, folder });
  return row === undefined ? null : toRemembered(row);
}

/** Revokes a remembered approval in force in `session`; E615 when there is none with that id. */
export function revoke(db: StateDb, id: number, session: string, now: number = Date.now()): void {
  const info = prepared(db, `UPDATE remembered_approvals SET revoked_at = @now WHERE id = @id AND ${IN_FORCE}`).run({ now, id, session });
  if (info.changes === 0) {
    throw new SkilltrayError('E615', `no remembered approval with id ${id} is in force`, { details: { id } });
  }
}

/** Every remembered approval in force in `session`, by skill then tool. */
export function listRemembered(db: StateDb, session: string): Remembered[] {
  return prepared<[Record<string, string>], RememberedRow>(
    db,
    `SELECT ${COLUMNS} FROM remembered_approvals WHERE ${IN_FORCE} ORDER BY skill, tool`,
  ).all({ session }).map(toRemembered);
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
