/**
 * Remembered approvals ("always allow this tool"). Each is pinned to the skill's content hash, the
 * program's resolved path and the sandbox profile at the time it was given, so an edited skill, a
 * different binary on PATH or a wider profile lapses it (policy decides that; this file only keeps
 * the records). One given "for this session" carries the id of the owner session that took it and
 * is in force only there. Revoking keeps the row with its revocation time, as a record of what was
 * once allowed.
 */
import { SkilltrayError } from '../errors.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { NetworkHosts, Remembered, SandboxProfile, SandboxProfileName } from '../../shared/runs.js';

export interface RememberInput {
  skill: string;
  tool: string;
  skillHash: string;
  programPath: string;
  profile: SandboxProfile;
  /** The owner session it lasts for; null (or absent) for "until revoked". */
  session?: string | null;
}

interface RememberedRow {
  id: number;
  skill: string;
  tool: string;
  skill_hash: string;
  program_path: string;
  profile: SandboxProfileName;
  network: number;
  hosts: string | null;
  session: string | null;
  created_at: number;
  revoked_at: number | null;
}

const COLUMNS = 'id, skill, tool, skill_hash, program_path, profile, network, hosts, session, created_at, revoked_at';

/** Where the network of an approval led; one given before host lists had the host's own network, if any. */
function hostsOf(row: Pick<RememberedRow, 'network' | 'hosts'>): NetworkHosts {
  if (row.hosts !== null) return JSON.parse(row.hosts) as NetworkHosts;
  return row.network === 1 ? 'host' : [];
}

/** In force in `session`: until revoked, or taken in this very session. */
const IN_FORCE = 'revoked_at IS NULL AND (session IS NULL OR session = @session)';

function toRemembered(row: RememberedRow): Remembered {
  return {
    id: row.id,
    skill: row.skill,
    tool: row.tool,
    skillHash: row.skill_hash,
    programPath: row.program_path,
    profile: { name: row.profile, network: row.network === 1, hosts: hostsOf(row) },
    expires: row.session === null ? 'revoke' : 'session',
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Remembers an approval, replacing (revoking) any live one for the same tool, whichever session took it. */
export function remember(db: StateDb, input: RememberInput, now: number = Date.now()): Remembered {
  return db.transaction(() => {
    prepared(db, 'UPDATE remembered_approvals SET revoked_at = ? WHERE skill = ? AND tool = ? AND revoked_at IS NULL')
      .run(now, input.skill, input.tool);
    const row = prepared<[Record<string, string | number | null>], RememberedRow>(
      db,
      `INSERT INTO remembered_approvals (skill, tool, skill_hash, program_path, profile, network, hosts, session, created_at)
       VALUES (@skill, @tool, @skillHash, @programPath, @profile, @network, @hosts, @session, @now) RETURNING ${COLUMNS}`,
    ).get({
      skill: input.skill,
      tool: input.tool,
      skillHash: input.skillHash,
      programPath: input.programPath,
      profile: input.profile.name,
      network: input.profile.network ? 1 : 0,
      hosts: JSON.stringify(input.profile.hosts),
      session: input.session ?? null,
      now,
    });
    return toRemembered(row as RememberedRow);
  })();
}

/** The remembered approval for a tool in force in `session`, or null. */
export function findRemembered(db: StateDb, skill: string, tool: string, session: string): Remembered | null {
  const row = prepared<[Record<string, string>], RememberedRow>(
    db,
    `SELECT ${COLUMNS} FROM remembered_approvals WHERE skill = @skill AND tool = @tool AND ${IN_FORCE}`,
  ).get({ skill, tool, session });
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
