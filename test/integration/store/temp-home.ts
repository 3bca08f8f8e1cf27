/** Fresh temp homes for store tests: every dir and database made here is closed and removed after each test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { StateDb } from '../../../src-main/core/store/state-db.js';
import { remember } from '../../../src-main/core/store/approvals.js';
import { addRule } from '../../../src-main/core/store/rules.js';
import { setMode } from '../../../src-main/core/store/settings.js';
import { setSandboxed } from '../../../src-main/core/store/unsandboxed.js';
import { openStateDb } from '../../../src-main/core/store/state-db.js';

export interface TempHomes {
  /** A new empty temp dir. */
  dir: () => string;
  /** Opens a state database at `path`, closed after the test. */
  open: (path: string) => StateDb;
  /** A state database in a new temp dir. */
  fresh: () => StateDb;
}

/** Registers the cleanup hook; call once at the top of a test file. */
export function useTempHomes(): TempHomes {
  const dirs: string[] = [];
  const dbs: StateDb[] = [];
  afterEach(() => {
    for (const db of dbs.splice(0)) if (db.open) db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dir = (): string => {
    const made = mkdtempSync(join(tmpdir(), 'skilltray-'));
    dirs.push(made);
    return made;
  };
  const open = (path: string): StateDb => {
    const db = openStateDb(path);
    dbs.push(db);
    return db;
  };
  return { dir, open, fresh: () => open(join(dir(), 'state.db')) };
}

/** What the person chose and recovery must keep: an allow and a deny rule, a remembered approval, an unsandboxed skill, the Dev mode. */
export function addPersonsChoices(db: StateDb): void {
  addRule(db, 'tool:git/*', 'allow');
  addRule(db, 'skill:danger*', 'deny');
  remember(db, {
    skill: 'notes',
    tool: 'append',
    skillHash: 'h'.repeat(64),
    identity: { rootKind: 'home', path: '/h/skills/notes', trust: 'user' },
    programPath: '/usr/bin/tee',
    profile: { name: 'workspace', network: false, hosts: [] },
    folder: '/h/notes',
  });
  setSandboxed(db, 'legacy', false);
  setMode(db, 'Dev');
}
