/**
 * `<home>/server.json`: how other processes (the CLI, the MCP bridge) find the process that owns
 * runs for a home. Claimed atomically (a complete private file hard-linked into place, which fails
 * if one is already there), so two owners starting together cannot both believe they won.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Health } from '../shared/contract.js';

/** What server.json holds. */
export interface OwnerRecord {
  pid: number;
  port: number;
  url: string;
  owner: Health['owner'];
  version: string;
  /** ISO-8601. */
  started_at: string;
  /** The pid's start token (see processStartTime), so a recycled pid is not taken for the owner; absent in older files. */
  pid_started?: string;
}

/** Where the owner record of a home is kept. */
export function ownerFilePath(home: string): string {
  return join(home, 'server.json');
}

function isRecord(value: unknown): value is OwnerRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    Number.isInteger(r.pid) &&
    (r.pid as number) > 0 &&
    Number.isInteger(r.port) &&
    (r.port as number) > 0 &&
    (r.port as number) < 65536 &&
    typeof r.url === 'string' &&
    (r.owner === 'app' || r.owner === 'serve') &&
    typeof r.version === 'string' &&
    typeof r.started_at === 'string' &&
    (r.pid_started === undefined || typeof r.pid_started === 'string')
  );
}

/** The owner record of a home, or null when there is none or it is not one. */
export function readOwnerRecord(home: string): OwnerRecord | null {
  try {
    const value: unknown = JSON.parse(readFileSync(ownerFilePath(home), 'utf8'));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

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
