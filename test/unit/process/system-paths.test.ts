/** The system part of a run's view: found once, and found again as soon as a watched folder changes (a chmod too), as root. */
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { systemView } from '../../../src-main/core/process/sandbox/system-paths.js';

const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { force: true });
});

/** systemView until `done` holds: the watch tells the change on a later turn of the event loop, never at a set time. */
async function viewUntil(done: (secrets: string[]) => boolean): Promise<string[]> {
  for (;;) {
    const secrets = systemView('linux', true).secrets.map((mask) => mask.path);
    if (done(secrets)) return secrets;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('the system view', () => {
  it.runIf(process.getuid?.() === 0)(
    'as root, hides a file of /etc made unreadable by chmod alone from the next view, and shows it again when readable',
    async () => {
      const path = `/etc/skilltray-view-test-${process.pid}`;
      made.push(path);
      writeFileSync(path, 'x', { mode: 0o644 });
      await viewUntil((secrets) => !secrets.includes(path));
      // Kept: the same view while nothing changes.
      expect(systemView('linux', true)).toBe(systemView('linux', true));
      chmodSync(path, 0o600);
      expect(await viewUntil((secrets) => secrets.includes(path))).toContain(path);
      chmodSync(path, 0o644);
      expect(await viewUntil((secrets) => !secrets.includes(path))).not.toContain(path);
    },
  );
});
