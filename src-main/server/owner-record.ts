/**
 * Reading `<home>/server.json`, the record of the process that owns runs for a home (owner-file.ts
 * claims and releases it). Apart from the claiming so that every CLI command, which only reads it,
 * does not load node:crypto (about 6 ms of Node 20's start) for the claim's temp name.
 */
import { readFileSync } from 'node:fs';
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
