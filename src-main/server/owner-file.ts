/**
 * `<home>/server.json`: how other processes (the CLI, the MCP bridge) find the process that owns
 * runs for a home. Claimed atomically (a complete private file hard-linked into place, which fails
 * if one is already there), so two owners starting together cannot both believe they won.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownerFilePath, readOwnerRecord, type OwnerRecord } from './owner-record.js';

/** Writes server.json unless one exists; false when another record is already in place. */
export function claimOwnerFile(home: string, record: OwnerRecord): boolean {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const temp = join(home, `.server-${process.pid}-${randomBytes(6).toString('hex')}.json`);
  writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (process.platform !== 'win32') chmodSync(temp, 0o600);
    linkSync(temp, ownerFilePath(home));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * Removes server.json if it still holds `record` — or, given null, if it holds no valid record at
 * all — so a later owner's file is never removed by mistake.
 */
export function releaseOwnerFile(home: string, record: Pick<OwnerRecord, 'pid' | 'port'> | null): void {
  const current = readOwnerRecord(home);
  const holds = current === null ? record === null : record !== null && current.pid === record.pid && current.port === record.port;
  if (!holds) return;
  try {
    unlinkSync(ownerFilePath(home));
  } catch {
    // already gone
  }
}
