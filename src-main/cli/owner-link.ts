/** The process that owns runs for a home, as the CLI reaches it; its HTTP client loads only when server.json names one. */
import type { OwnerLink } from '../server/app-link.js';
import { readOwnerRecord } from '../server/owner-record.js';
import type { SkilltrayClient } from '../shared/contract.js';

/** A live owner (the app or serve) and a client of it speaking as the CLI. */
export interface RunningOwner {
  link: OwnerLink;
  client: SkilltrayClient;
}

/** The live owner of runs for `home`, or null; without a server.json nothing heavier than that file is read. */
export async function findRunningOwner(home: string): Promise<RunningOwner | null> {
  // No record, no owner: skip loading the client (the contract's zod schemas, execa) altogether.
  if (readOwnerRecord(home) === null) return null;
  const { findOwner, ownerClient } = await import('../server/app-link.js');
  const link = await findOwner(home);
  return link === null ? null : { link, client: ownerClient(link, 'cli') };
}
