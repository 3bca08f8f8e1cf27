/**
 * Where a run works when its caller names no folder: an empty one of its own, not the person's
 * home. A tool that needs no folder (uptime, a DNS lookup) runs as before; one that does finds
 * nothing there and says so, rather than reading the home. One per process, read-only, removed
 * when the process exits.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let folder: string | null = null;

/** The empty folder, made on first use. */
export function emptyFolder(): string {
  if (folder === null) {
    const made = mkdtempSync(join(tmpdir(), 'skilltray-no-folder-'));
    chmodSync(made, 0o555);
    folder = made;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return folder;
}
