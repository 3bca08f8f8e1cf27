/**
 * Being the one owner of runs for a home: refuse to start while another answers (E809), and claim
 * `<home>/server.json` for this process once listening, taking it over from a crashed owner.
 */
import { thisProcess } from '../core/runs-facade.js';
import type { Health } from '../shared/contract.js';
import { findOwner } from './app-link.js';
import { claimOwnerFile, releaseOwnerFile } from './owner-file.js';
import { ownerFilePath, readOwnerRecord, type OwnerRecord } from './owner-record.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';

/** Refuses (E809) when another owner already answers for `home`. */
export async function refuseWhileOwned(home: string): Promise<void> {
  const running = await findOwner(home);
  if (running === null) return;
  throw gatewayErrors.ownerAlreadyRunning(home, running.url, running.owner);
}

/** The server.json this process writes, serving at `url`. */
export function ownerRecordHere(port: number, url: string, owner: Health['owner'], version: string): OwnerRecord {
  const self = thisProcess();
  return { pid: self.pid, port, url, owner, version, started_at: new Date().toISOString(), ...(self.started === '' ? {} : { pid_started: self.started }) };
}

/** Writes `record` as the owner of `home`, replacing a crashed owner's file; E809 when a live owner holds it. */
export async function claimOwnership(home: string, record: OwnerRecord): Promise<void> {
  if (claimOwnerFile(home, record)) return;
  await refuseWhileOwned(home);
  // What is there names no live owner of this home: a crashed owner's file.
  releaseOwnerFile(home, readOwnerRecord(home));
  if (claimOwnerFile(home, record)) return;
  await refuseWhileOwned(home);
  throw gatewayErrors.ownerStarting(home, ownerFilePath(home));
}
