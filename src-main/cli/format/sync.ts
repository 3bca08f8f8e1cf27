/** `sync` as the CLI prints it, and its exit status. */
import type { SyncResult } from '../../shared/gateway.js';

/** RFC-0007's lines: progress on stdout, one `error[E04x]: …` line per failed skill on stderr. */
export function formatSync(result: SyncResult): { stdout: string; stderr: string } {
  if (result.skills.length === 0) return { stdout: 'No local logs to sync', stderr: '' };
  const stdout: string[] = [];
  const stderr: string[] = [];
  for (const entry of result.skills) {
    if (entry.status === 'synced') stdout.push(`Synced ${entry.entries} entries for '${entry.skill}' (local logs removed)`);
    else if (entry.status === 'would_sync') stdout.push(`Would sync ${entry.entries} entries for '${entry.skill}'`);
    else if (entry.error !== null) stderr.push(`error[${entry.error.code}]: ${entry.error.message}`);
  }
  return { stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

/** Exit status of `skilltray sync`: 1 when any skill failed. */
export function syncExitStatus(result: SyncResult): 0 | 1 {
  return result.skills.some((entry) => entry.status === 'failed') ? 1 : 0;
}
