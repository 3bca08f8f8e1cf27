/**
 * Remembered approvals ("always allow this tool"). Each is pinned to the skill it was given to (its
 * identity: root kind, folder, bundled or not), the skill's content hash, the program's resolved
 * path, the sandbox profile at the time it was given (whole, as JSON, so every field a profile has
 * counts, its host list too) and the working folder it was given in, or any folder. An edited skill, another skill of
 * the name, a different binary on PATH, a wider profile or a run elsewhere lapses it (policy decides
 * that; this file only keeps the records). One given "for this session" carries the id of the owner
 * session that took it and is in force only there. Revoking keeps the row with its revocation time,
 * as a record of what was once allowed.
 */
import { policyErrors } from '../../shared/error-messages/policy.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { NetworkHosts, RootKind, Trust } from '../../shared/model.js';
import type { IdentityPin, Remembered, SandboxProfile, SandboxProfileName } from '../../shared/runs.js';

export interface RememberInput {
  skill: string;
  tool: string;
  skillHash: string;
  identity: IdentityPin;
  programPath: string;
  profile: SandboxProfile;
  /** The working folder it holds in (and the folders inside it); null for any folder. */
  folder: string | null;
  /** The owner session it lasts for; null (or absent) for "until revoked". */
  session?: string | null;
}

interface RememberedRow {
  id: number;
  skill: string;
  tool: string;
  skill_hash: string;
  root_kind: RootKind | null;
  path: string | null;
  trust: Trust | null;
  program_path: string;
  profile: SandboxProfileName;
  network: number;
  hosts: string | null;
  profile_pin: string | null;
  folder: string | null;
  session: string | null;
  created_at: number;
  revoked_at: number | null;
}

const COLUMNS =
  'id, skill, tool, skill_hash, root_kind, path, trust, program_path, profile, network, hosts, profile_pin, folder, session, created_at, revoked_at';

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
    identity: row.root_kind === null || row.path === null || row.trust === null ? null : { rootKind: row.root_kind, path: row.path, trust: row.trust },
    programPath: row.program_path,
    // An approval remembered before whole profiles were kept has its name, network and host list.
    profile:
      row.profile_pin === null ? { name: row.profile, network: row.network === 1, hosts: hostsOf(row) } : (JSON.parse(row.profile_pin) as SandboxProfile),
    folder: row.folder,
    expires: row.session === null ? 'revoke' : 'session',
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Remembers an approval, replacing (revoking) any live one for the same tool in the same folder (or any folder), whichever session took it. */
export function remember(db: StateDb, input: RememberInput, now: number = Date.now()): Remembered {
  return db.transaction(() => {
    prepared(db, "UPDATE remembered_approvals SET revoked_at = ? WHERE skill = ? AND tool = ? AND coalesce(folder, '') = ? AND revoked_at IS NULL").run(
      now,
      input.skill,
      input.tool,
      input.folder ?? '',
    );
    const row = prepared<[Record<string, string | number | null>], RememberedRow>(
      db,
      `INSERT INTO remembered_approvals (skill, tool, skill_hash, root_kind, path, trust, program_path, profile, network, hosts, profile_pin, folder, session, created_at)
       VALUES (@skill, @tool, @skillHash, @rootKind, @path, @trust, @programPath, @profile, @network, @hosts, @profilePin, @folder, @session, @now) RETURNING ${COLUMNS}`,
    ).get({
      skill: input.skill,
      tool: input.tool,
      skillHash: input.skillHash,
      rootKind: input.identity.rootKind,
      path: input.identity.path,
      trust: input.identity.trust,
      programPath: input.programPath,
      profile: input.profile.name,
      network: input.profile.network ? 1 : 0,
      hosts: JSON.stringify(input.profile.hosts),
      profilePin: JSON.stringify(input.profile),
      folder: input.folder,
      session: input.session ?? null,
      now,
    });
    return toRemembered(row as RememberedRow);
  })();
}

/** The remembered approvals of a tool in force in `session`, in every folder (policy picks the one for a run: pins.ts). */
export function findRemembered(db: StateDb, skill: string, tool: string, session: string): Remembered[] {
  return prepared<[Record<string, string>], RememberedRow>(
    db,
    `SELECT ${COLUMNS} FROM remembered_approvals WHERE skill = @skill AND tool = @tool AND ${IN_FORCE} ORDER BY id`,
  )
    .all({ skill, tool, session })
    .map(toRemembered);
}

/** Revokes a remembered approval in force in `session`; E615 when there is none with that id. */
export function revoke(db: StateDb, id: number, session: string, now: number = Date.now()): void {
  const info = prepared(db, `UPDATE remembered_approvals SET revoked_at = @now WHERE id = @id AND ${IN_FORCE}`).run({ now, id, session });
  if (info.changes === 0) {
    throw policyErrors.rememberedNotFound(id);
  }
}

/** Every remembered approval in force in `session`, by skill, tool then folder. */
export function listRemembered(db: StateDb, session: string): Remembered[] {
  return prepared<[Record<string, string>], RememberedRow>(
    db,
    `SELECT ${COLUMNS} FROM remembered_approvals WHERE ${IN_FORCE} ORDER BY skill, tool, coalesce(folder, ''), id`,
  )
    .all({ session })
    .map(toRemembered);
}

/** Revokes every remembered approval of `skill` (of `tools` only, when given), in every session; returns what was revoked. */
export function revokeForSkill(
  db: StateDb,
  skill: string,
  tools: readonly string[] | null = null,
  now: number = Date.now(),
): { skill: string; tool: string }[] {
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
