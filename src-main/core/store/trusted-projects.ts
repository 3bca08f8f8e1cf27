/** The project folders whose skills the person trusts, each pinned to the digest of those skills they confirmed. */
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';

export interface TrustedProjectRow {
  path: string;
  digest: string;
  trustedAt: number;
}

/** Every trusted project folder, by path. */
export function listTrustedProjects(db: StateDb): TrustedProjectRow[] {
  return prepared<[], { path: string; digest: string; trusted_at: number }>(db, 'SELECT path, digest, trusted_at FROM trusted_projects ORDER BY path')
    .all()
    .map((row) => ({ path: row.path, digest: row.digest, trustedAt: row.trusted_at }));
}

/** Trusts `path`'s skills as they are now (`digest`), replacing an earlier trust of the same folder. */
export function trustProject(db: StateDb, path: string, digest: string, now: number = Date.now()): void {
  prepared(db, 'INSERT OR REPLACE INTO trusted_projects (path, digest, trusted_at) VALUES (?, ?, ?)').run(path, digest, now);
}

/** Stops trusting `path`; returns whether it was trusted. */
export function untrustProject(db: StateDb, path: string): boolean {
  return prepared(db, 'DELETE FROM trusted_projects WHERE path = ?').run(path).changes > 0;
}
