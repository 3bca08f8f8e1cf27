/**
 * The state database's schema, as numbered migrations tracked by `PRAGMA user_version`.
 * Each migration runs in its own transaction together with the version bump, so a crash or a
 * failing step leaves the database at the previous version; each is written to be harmless if
 * re-run (IF NOT EXISTS, OR IGNORE). Never edit a shipped migration: append a new one.
 */
import type Database from 'better-sqlite3';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { DEFAULT_PALETTE_SHORTCUT } from '../../shared/shortcut.js';

/** One schema step: `up` brings a database at `version - 1` to `version`. */
export interface Migration {
  version: number;
  up: (db: Database.Database) => void;
}

const v1: Migration = {
  version: 1,
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS runs (
        id TEXT PRIMARY KEY,
        trace_id TEXT NOT NULL,
        surface TEXT NOT NULL CHECK (surface IN ('cli', 'http', 'mcp', 'ipc', 'ui')),
        skill TEXT NOT NULL,
        tool TEXT NOT NULL,
        args TEXT NOT NULL,
        command TEXT,
        program_path TEXT,
        skill_hash TEXT NOT NULL,
        requested_at INTEGER NOT NULL,
        outcome TEXT CHECK (outcome IN ('auto', 'approved', 'denied', 'refused')),
        decided_by TEXT CHECK (decided_by IN ('policy', 'rule', 'remembered', 'user', 'timeout', 'error')),
        rule_id INTEGER,
        actor TEXT,
        decided_at INTEGER,
        reason TEXT,
        error_code TEXT,
        started_at INTEGER,
        ended_at INTEGER,
        exit_code INTEGER,
        signal TEXT,
        timed_out INTEGER NOT NULL DEFAULT 0 CHECK (timed_out IN (0, 1)),
        cancelled INTEGER NOT NULL DEFAULT 0 CHECK (cancelled IN (0, 1)),
        stdout TEXT,
        stderr TEXT,
        dropped_stdout INTEGER NOT NULL DEFAULT 0,
        dropped_stderr INTEGER NOT NULL DEFAULT 0,
        duration_ms REAL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN
          ('pending', 'running', 'succeeded', 'failed', 'cancelled', 'timed_out', 'denied', 'refused'))
      ) STRICT;
      -- History is listed newest first, optionally filtered by one of these columns; rowid breaks ties.
      CREATE INDEX IF NOT EXISTS runs_by_time ON runs (requested_at);
      CREATE INDEX IF NOT EXISTS runs_by_skill ON runs (skill, requested_at);
      CREATE INDEX IF NOT EXISTS runs_by_skill_tool ON runs (skill, tool, requested_at);
      CREATE INDEX IF NOT EXISTS runs_by_tool ON runs (tool, requested_at);
      CREATE INDEX IF NOT EXISTS runs_by_status ON runs (status, requested_at);
      CREATE INDEX IF NOT EXISTS runs_by_surface ON runs (surface, requested_at);

      CREATE TABLE IF NOT EXISTS remembered_approvals (
        id INTEGER PRIMARY KEY,
        skill TEXT NOT NULL,
        tool TEXT NOT NULL,
        skill_hash TEXT NOT NULL,
        program_path TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      ) STRICT;
      -- At most one live approval per tool; revoked ones stay as an audit trail.
      CREATE UNIQUE INDEX IF NOT EXISTS remembered_active
        ON remembered_approvals (skill, tool) WHERE revoked_at IS NULL;

      CREATE TABLE IF NOT EXISTS rules (
        id INTEGER PRIMARY KEY,
        pattern TEXT NOT NULL,
        effect TEXT NOT NULL CHECK (effect IN ('allow', 'deny')),
        created_at INTEGER NOT NULL,
        UNIQUE (pattern, effect)
      ) STRICT;

      -- A single typed row, so every setting has a column, a default and a CHECK.
      CREATE TABLE IF NOT EXISTS settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        mode TEXT NOT NULL DEFAULT 'Global' CHECK (mode IN ('Global', 'Dev', 'Meeting')),
        paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1))
      ) STRICT;
      INSERT OR IGNORE INTO settings (id) VALUES (1);
    `);
  },
};

/** The command palette's global shortcut (an Electron accelerator; '' turns it off). */
const v2: Migration = {
  version: 2,
  up(db) {
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all('settings') as { name: string }[];
    if (!columns.some((c) => c.name === 'palette_shortcut')) {
      db.exec(`ALTER TABLE settings ADD COLUMN palette_shortcut TEXT NOT NULL DEFAULT '${DEFAULT_PALETTE_SHORTCUT}'`);
    }
  },
};

/** The names of `table`'s columns. */
function columnsOf(db: Database.Database, table: string): Set<string> {
  return new Set(
    db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((c) => c.name),
  );
}

/**
 * Rebuilds `table` from its own stored CREATE statement as `edit` changes it (SQLite cannot alter a
 * CHECK in place): every column, row and index is kept, so columns other migrations added survive.
 * Does nothing when `edit` changes nothing (the step already ran).
 */
function rebuildTable(db: Database.Database, table: string, edit: (sql: string) => string): void {
  const row = db.prepare<[string], { sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table);
  if (row === undefined) throw skillcErrors.internal(`state.db has no table '${table}' to migrate`);
  const edited = edit(row.sql);
  if (edited === row.sql) return;
  const indexes = db
    .prepare<[string], { sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
    .all(table)
    .map((i) => i.sql);
  const scratch = `${table}_rebuilt`;
  db.exec(edited.replace(new RegExp(`^CREATE TABLE "?${table}"?`), `CREATE TABLE ${scratch}`));
  db.exec(`INSERT INTO ${scratch} SELECT * FROM ${table}; DROP TABLE ${table}; ALTER TABLE ${scratch} RENAME TO ${table};`);
  for (const sql of indexes) db.exec(sql);
}

/** Replaces `from` with `to` in a stored CREATE statement, or fails loudly (naming `migration`) if neither is there. */
function replaced(sql: string, from: string, to: string, migration: number): string {
  if (sql.includes(to)) return sql;
  if (!sql.includes(from)) throw skillcErrors.internal(`state.db's schema is not what migration ${migration} expects: no ${from}`);
  return sql.replace(from, to);
}

/**
 * v3: who owns each run and which process group it started (so the next owner can finish a dead
 * owner's runs: status `interrupted`), the surface `browser` (the UI over HTTP, told apart from the
 * app's own window), output size per run and output retention settings, and notices for the person.
 */
const v3: Migration = {
  version: 3,
  up(db) {
    rebuildTable(db, 'runs', (sql) =>
      replaced(
        replaced(sql, "surface IN ('cli', 'http', 'mcp', 'ipc', 'ui')", "surface IN ('cli', 'http', 'mcp', 'ipc', 'ui', 'browser')", 3),
        "'timed_out', 'denied', 'refused')",
        "'timed_out', 'denied', 'refused', 'interrupted')",
        3,
      ),
    );
    const runs = columnsOf(db, 'runs');
    const runColumns: [string, string][] = [
      // The process that recorded the request and owns it: pid and its start time (Linux /proc, '' elsewhere).
      ['owner_pid', 'INTEGER'],
      ['owner_started', 'TEXT'],
      // The tool's process group (its pid: it leads the group) and the leader's start time.
      ['pgid', 'INTEGER'],
      ['process_started', 'TEXT'],
      // Bytes of stdout + stderr kept, so retention can sum them without reading them.
      ['output_bytes', 'INTEGER NOT NULL DEFAULT 0'],
      // When retention dropped this run's output (the record itself stays).
      ['output_dropped_at', 'INTEGER'],
    ];
    for (const [name, type] of runColumns) if (!runs.has(name)) db.exec(`ALTER TABLE runs ADD COLUMN ${name} ${type}`);
    db.exec(`
      UPDATE runs SET output_bytes = coalesce(octet_length(stdout), 0) + coalesce(octet_length(stderr), 0) WHERE output_bytes = 0;
      -- Retention walks the runs that still hold output, oldest first.
      CREATE INDEX IF NOT EXISTS runs_with_output ON runs (requested_at) WHERE output_bytes > 0;
    `);
    const settings = columnsOf(db, 'settings');
    if (!settings.has('output_days')) db.exec('ALTER TABLE settings ADD COLUMN output_days INTEGER NOT NULL DEFAULT 30 CHECK (output_days BETWEEN 1 AND 3650)');
    if (!settings.has('output_max_mb'))
      db.exec('ALTER TABLE settings ADD COLUMN output_max_mb INTEGER NOT NULL DEFAULT 100 CHECK (output_max_mb BETWEEN 1 AND 102400)');
    db.exec(`
      -- What the person must be told once (a recovered state.db): shown until dismissed.
      CREATE TABLE IF NOT EXISTS notices (
        id INTEGER PRIMARY KEY,
        code TEXT NOT NULL,
        message TEXT NOT NULL,
        details TEXT,
        created_at INTEGER NOT NULL,
        dismissed_at INTEGER
      ) STRICT;
    `);
  },
};

/** Containment: the withdrawn-by-caller decider, each run's sandbox and answer, profile-pinned and session approvals, unsandboxed skills. */
const v4: Migration = {
  version: 4,
  up(db) {
    // A request withdrawn by its caller (a closed tab, Ctrl-C) is not a denial by the person: 'caller' decides it.
    rebuildTable(db, 'runs', (sql) => replaced(sql, "'user', 'timeout', 'error')", "'user', 'timeout', 'caller', 'error')", 4));
    const runs = columnsOf(db, 'runs');
    // How each run was contained (JSON: profile, network, contained, mechanism, why), and the person's answer.
    if (!runs.has('sandbox')) db.exec('ALTER TABLE runs ADD COLUMN sandbox TEXT');
    if (!runs.has('answer')) db.exec("ALTER TABLE runs ADD COLUMN answer TEXT CHECK (answer IN ('once', 'always', 'always-session', 'deny'))");
    const approvals = columnsOf(db, 'remembered_approvals');
    const approvalColumns: [string, string][] = [
      // An approval remembered before sandboxes existed was given for an uncontained run: 'none', with the network.
      ['profile', "TEXT NOT NULL DEFAULT 'none' CHECK (profile IN ('read-only', 'workspace', 'none'))"],
      ['network', 'INTEGER NOT NULL DEFAULT 1 CHECK (network IN (0, 1))'],
      // NULL: until revoked; otherwise the id of the owner session it lasts for.
      ['session', 'TEXT'],
    ];
    for (const [name, type] of approvalColumns) if (!approvals.has(name)) db.exec(`ALTER TABLE remembered_approvals ADD COLUMN ${name} ${type}`);
    db.exec(`
      -- Skills the person chose to run without a sandbox (profile 'none'); only a person adds them, never a skill.
      CREATE TABLE IF NOT EXISTS unsandboxed_skills (
        skill TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};

/** Skills the person turned on or off, everywhere (`all`) or in one mode; no row means on. */
const v5: Migration = {
  version: 5,
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS skill_switches (
        skill TEXT NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN ('all', 'Global', 'Dev', 'Meeting')),
        enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (skill, scope)
      ) STRICT;
    `);
  },
};

/**
 * Project folders whose skills (`.claude/skills`, `.agents/skills`) the person chose to trust, each
 * pinned to the digest of those skills as the person saw them. (Version 12 in the plan of the
 * branches being merged: renumbered to follow whatever lands first.)
 */
const v6: Migration = {
  version: 6,
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS trusted_projects (
        path TEXT PRIMARY KEY,
        digest TEXT NOT NULL CHECK (length(digest) = 64),
        trusted_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};

/** Network by host list: where a remembered approval's network led, and the connections each run's proxy refused. */
const v7: Migration = {
  version: 7,
  up(db) {
    // JSON: a list of host patterns, or "host"; NULL for an approval given before host lists (read as the host's network).
    if (!columnsOf(db, 'remembered_approvals').has('hosts')) db.exec('ALTER TABLE remembered_approvals ADD COLUMN hosts TEXT');
    // JSON: [{host, port, why, count}], at most 100; NULL when the run had no proxy or it refused nothing.
    if (!columnsOf(db, 'runs').has('network_denied')) db.exec('ALTER TABLE runs ADD COLUMN network_denied TEXT');
  },
};

/**
 * v8: trust pinned to identity. A remembered approval records the skill it was given to (root kind,
 * folder, bundled or not), the working folder it holds in (NULL: any folder) and its whole sandbox
 * profile as JSON (every field a profile has counts); at most one is live per tool and folder. A rule
 * records the skills it allows as they were when it was made (JSON; NULL until a rule made before
 * this is pinned, on first use: see core/store/rules.ts). An approval remembered before this gets the
 * folder of the run it was given on, from history; a read-only one whose run is gone holds in any
 * folder (as a read-only Always may), any other such one is revoked, so it asks once more. (Follows
 * netproxy's v7 in the landing order.)
 */
const v8: Migration = {
  version: 8,
  up(db) {
    const approvals = columnsOf(db, 'remembered_approvals');
    const approvalColumns: [string, string][] = [
      // No CHECK on the kind: the roots grow with the folders Skilltray reads, and SQLite cannot change a CHECK in place.
      ['root_kind', 'TEXT'],
      ['path', 'TEXT'],
      ['trust', "TEXT CHECK (trust IN ('bundled', 'user'))"],
      ['folder', 'TEXT'],
      ['profile_pin', 'TEXT'],
    ];
    for (const [name, type] of approvalColumns) if (!approvals.has(name)) db.exec(`ALTER TABLE remembered_approvals ADD COLUMN ${name} ${type}`);
    if (!approvals.has('folder')) {
      db.exec(`
        UPDATE remembered_approvals SET folder = (
          SELECT json_extract(r.command, '$.cwd') FROM runs r
          WHERE r.skill = remembered_approvals.skill AND r.tool = remembered_approvals.tool AND r.skill_hash = remembered_approvals.skill_hash
            AND r.answer IN ('always', 'always-session') AND r.command IS NOT NULL
          ORDER BY abs(coalesce(r.decided_at, r.requested_at) - remembered_approvals.created_at) LIMIT 1
        ) WHERE revoked_at IS NULL;
      `);
      db.prepare("UPDATE remembered_approvals SET revoked_at = ? WHERE revoked_at IS NULL AND folder IS NULL AND profile <> 'read-only'").run(Date.now());
    }
    db.exec(`
      DROP INDEX IF EXISTS remembered_active;
      -- At most one live approval per tool and folder ('' for any folder); revoked ones stay as an audit trail.
      CREATE UNIQUE INDEX IF NOT EXISTS remembered_active_in
        ON remembered_approvals (skill, tool, coalesce(folder, '')) WHERE revoked_at IS NULL;
    `);
    if (!columnsOf(db, 'rules').has('pins')) db.exec('ALTER TABLE rules ADD COLUMN pins TEXT');
  },
};

/**
 * v9: the box. Which resource limit stopped a run, and the ceiling the person sets on what a skill
 * may ask for (JSON of the four limits; NULL: the default ceiling). A remembered approval's reads,
 * writes and limits live in v8's profile_pin with the rest of its profile.
 */
const v9: Migration = {
  version: 9,
  up(db) {
    if (!columnsOf(db, 'runs').has('limit_hit')) {
      db.exec("ALTER TABLE runs ADD COLUMN limit_hit TEXT CHECK (limit_hit IN ('processes', 'memoryMiB', 'fileSizeMiB', 'cpuSeconds'))");
    }
    if (!columnsOf(db, 'settings').has('limit_ceiling')) db.exec('ALTER TABLE settings ADD COLUMN limit_ceiling TEXT');
  },
};

/** v10: which assistant's credential asked for each run (NULL: the person, or before this was recorded), so an assistant sees its own runs only. */
const v10: Migration = {
  version: 10,
  up(db) {
    if (!columnsOf(db, 'runs').has('assistant')) db.exec('ALTER TABLE runs ADD COLUMN assistant TEXT');
    db.exec('CREATE INDEX IF NOT EXISTS runs_by_assistant ON runs (assistant, requested_at) WHERE assistant IS NOT NULL');
  },
};

/** v11: a run may also be stopped by a private folder of its box that was full (`privateFolder`). */
const v11: Migration = {
  version: 11,
  up(db) {
    rebuildTable(db, 'runs', (sql) =>
      replaced(
        sql,
        "CHECK (limit_hit IN ('processes', 'memoryMiB', 'fileSizeMiB', 'cpuSeconds'))",
        "CHECK (limit_hit IN ('processes', 'memoryMiB', 'fileSizeMiB', 'cpuSeconds', 'privateFolder'))",
        11,
      ),
    );
  },
};

/**
 * v12: voice. Where each run request came from (`voice`: an assistant acting on something the person
 * said; `keyboard`: the person's own surfaces; `assistant`: any other assistant request; NULL for a
 * run recorded before this), and the person's voice settings (prompts spoken and answers heard, off
 * by default; the hotkeys that answer the newest request, '' for none).
 */
const v12: Migration = {
  version: 12,
  up(db) {
    if (!columnsOf(db, 'runs').has('channel')) db.exec("ALTER TABLE runs ADD COLUMN channel TEXT CHECK (channel IN ('voice', 'keyboard', 'assistant'))");
    db.exec(`
      CREATE TABLE IF NOT EXISTS voice_settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        enabled INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
        run_shortcut TEXT NOT NULL DEFAULT '',
        deny_shortcut TEXT NOT NULL DEFAULT ''
      ) STRICT;
    `);
  },
};

/** v13: the hidden paths a writing run made without declaring them, removed when it ended (JSON list of relative paths; NULL: none). */
const v13: Migration = {
  version: 13,
  up(db) {
    if (!columnsOf(db, 'runs').has('swept')) db.exec('ALTER TABLE runs ADD COLUMN swept TEXT');
  },
};

/** Every migration, in order; versions run 1, 2, 3… without gaps. */
export const MIGRATIONS: readonly Migration[] = [v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The database's `user_version`: 0 for a new file. */
export function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings `db` up to the last of `migrations`, one transaction per step, and returns the version
 * it ended at. A database written by a newer Skilltray is refused rather than guessed at.
 */
export function applyMigrations(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw skillcErrors.internal(`state.db migrations are misnumbered: expected version ${i + 1}, found ${m.version}`);
    }
  });
  const latest = migrations.length;
  const current = userVersion(db);
  if (current > latest) {
    throw skillcErrors.internal(
      `state.db has schema version ${current}, newer than this Skilltray understands (${latest}); ` +
        'update Skilltray, or move the file aside to start with a fresh history',
      { details: { userVersion: current, schemaVersion: latest } },
    );
  }
  if (current === latest) return latest;
  // Each step takes the write lock before it reads the version, so two processes opening a new file
  // at once take turns instead of both running a step (the second would fail on a column the first added).
  const step = db.transaction((): boolean => {
    const at = userVersion(db);
    const next = migrations[at];
    if (next === undefined) return false;
    next.up(db);
    db.pragma(`user_version = ${next.version}`);
    return true;
  });
  while (step.immediate());
  return latest;
}
