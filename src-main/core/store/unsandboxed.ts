/**
 * The skills the person chose to run without a sandbox (profile `none`). Only the person sets this,
 * from Settings or `skilltray rules unsandbox <skill>`; a skill's own frontmatter never can.
 */
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';

/** Names of the skills whose runs are not contained, sorted. */
export function listUnsandboxed(db: StateDb): string[] {
  return prepared<[], { skill: string }>(db, 'SELECT skill FROM unsandboxed_skills ORDER BY skill')
    .all()
    .map((row) => row.skill);
}

/** True when the person took `skill` out of the sandbox. */
export function isUnsandboxed(db: StateDb, skill: string): boolean {
  return prepared<[string], { skill: string }>(db, 'SELECT skill FROM unsandboxed_skills WHERE skill = ?').get(skill) !== undefined;
}

/** Takes `skill` out of the sandbox (`sandboxed: false`) or puts it back; returns whether anything changed. */
export function setSandboxed(db: StateDb, skill: string, sandboxed: boolean, now: number = Date.now()): boolean {
  const info = sandboxed
    ? prepared(db, 'DELETE FROM unsandboxed_skills WHERE skill = ?').run(skill)
    : prepared(db, 'INSERT OR IGNORE INTO unsandboxed_skills (skill, created_at) VALUES (?, ?)').run(skill, now);
  return info.changes > 0;
}
