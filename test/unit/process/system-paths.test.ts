/** The system part of a run's view: found once, and found again as soon as a watched folder changes (a chmod too), as root. */
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemView } from '../../../src-main/core/process/sandbox/system-paths.js';

const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { force: true });
});

/** Where the view as root binds /etc from: the copy of what others may read of it. */
function etcSource(): string {
  const etc = systemView('linux', true).dirs.find((dir) => dir.path === '/etc');
  return etc?.source ?? '/etc';
}

/** The copy of /etc once `done` holds for it: the watch tells the change on a later turn of the event loop, never at a set time. */
async function copyUntil(done: (copy: string) => boolean): Promise<string> {
  for (;;) {
    const copy = etcSource();
    if (done(copy)) return copy;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const asRoot = process.getuid?.() === 0;

describe('the system view', () => {
  it.runIf(asRoot)('as root, binds a copy of /etc holding what others may read, and covers nothing in it', () => {
    const view = systemView('linux', true);
    const copy = etcSource();
    expect(copy).not.toBe('/etc');
    expect(existsSync(join(copy, 'passwd'))).toBe(true);
    for (const secret of ['shadow', 'gshadow', 'sudoers', 'ssl/private']) expect(existsSync(join(copy, secret)), secret).toBe(false);
    expect(view.secrets.filter((mask) => mask.path.startsWith('/etc/'))).toEqual([]);
  });

  it('for an ordinary user, binds /etc itself and covers its listed secrets', () => {
    const view = systemView('linux', false);
    expect(view.dirs.find((dir) => dir.path === '/etc')).toEqual({ path: '/etc' });
    if (existsSync('/etc/shadow')) expect(view.secrets).toContainEqual({ path: '/etc/shadow', kind: 'file' });
  });

  it.runIf(asRoot)('as root, leaves a file of /etc made unreadable by chmod alone out of the next copy, and copies it again when readable', async () => {
    const path = `/etc/skilltray-view-test-${process.pid}`;
    made.push(path);
    writeFileSync(path, 'x', { mode: 0o644 });
    const name = basename(path);
    await copyUntil((copy) => existsSync(join(copy, name)));
    // Kept: the same view while nothing changes.
    expect(systemView('linux', true)).toBe(systemView('linux', true));
    chmodSync(path, 0o600);
    expect(existsSync(join(await copyUntil((copy) => !existsSync(join(copy, name))), name))).toBe(false);
    chmodSync(path, 0o644);
    expect(existsSync(join(await copyUntil((copy) => existsSync(join(copy, name))), name))).toBe(true);
  });
});
