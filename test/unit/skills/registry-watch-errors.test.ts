import { join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillRegistry } from '../../../src-main/core/skills/registry.js';
import { nextChange } from '../../support/registry-changes.js';
import type { WatchFactory } from '../../../src-main/core/skills/root-watcher.js';
import { skillMd, testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { captureWarnings } from '../../support/warnings.js';

const good = (name: string) => skillMd({ name, description: `The ${name} skill.`, version: '1.0.0' });

const registries: SkillRegistry[] = [];
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.close();
});

/** A registry over `t` whose chokidar watchers are kept in `made`, so a test can make them fail. */
function watched(t: TestHome, made: FSWatcher[], onStart?: (watcher: FSWatcher) => void): SkillRegistry {
  const factory: WatchFactory = (paths, options) => {
    const watcher = watch(paths, options);
    made.push(watcher);
    onStart?.(watcher);
    return watcher;
  };
  const registry = new SkillRegistry(t.config().roots, { watch: factory }).load();
  registries.push(registry);
  return registry;
}

function fsError(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected, watch '${path}'`), { code, path, syscall: 'watch' });
}

describe('the registry watcher when the OS refuses', () => {
  it('is not watching until watch() is called', () => {
    const t = testHome();
    expect(watched(t, []).watchStatus(t.skills)).toBeNull();
  });

  it('falls back to polling at the inotify limit (ENOSPC during start), says so per root, and still sees new skills', async () => {
    const t = testHome();
    const made: FSWatcher[] = [];
    const warnings = captureWarnings();
    const registry = watched(t, made, (watcher) => {
      if (made.length !== 1) return;
      // The first (native) watcher hits the limit while it scans; a skill lands while it is replaced.
      setImmediate(() => {
        writeSkill(t.skills, 'meanwhile', good('meanwhile'));
        watcher.emit('error', fsError('ENOSPC', join(t.skills, 'deep')));
      });
    });
    const caughtUp = nextChange(registry, 'meanwhile');
    await registry.watch();
    expect(await warnings.next('ENOSPC')).toContain('changes are found by scanning every 2 s');
    // The polling watcher rescans once for what changed while watchers were swapped.
    expect(await caughtUp).toMatchObject({ kind: 'added', name: 'meanwhile' });
    expect(made.map((w) => [w.closed, w.options.usePolling === true])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(registry.watchStatus(t.skills)).toEqual({
      mode: 'polling',
      problems: [{ path: join(t.skills, 'deep'), code: 'ENOSPC', message: expect.stringContaining('raise fs.inotify.max_user_watches') }],
    });
    expect(registry.watchStatus(t.bundled)).toEqual({ mode: 'polling', problems: [] });
    // A scan every 2 s reports a change late: nothing is read on the watcher's word while polling.
    expect(registry.watching).toBe(false);

    // From now on the polling watcher alone sees changes.
    const added = nextChange(registry, 'later');
    writeSkill(t.skills, 'later', good('later'));
    expect(await added).toMatchObject({ kind: 'added', name: 'later' });
  });

  it('leaves a path it may not watch (EACCES) unwatched, lists it under its root, and keeps watching the rest', async () => {
    const t = testHome();
    const made: FSWatcher[] = [];
    const registry = watched(t, made);
    await registry.watch();
    expect(registry.watching).toBe(true);
    const locked = join(t.skills, 'locked');
    writeSkill(t.skills, 'locked', good('locked'));
    const warnings = captureWarnings();
    const forgotten = new Promise((resolve) => registry.once('touched', resolve));
    made[0]?.emit('error', fsError('EACCES', locked));
    expect(warnings.messages).toEqual([`skill roots: ${locked} not watched: EACCES: injected, watch '${locked}'`]);
    // A change there would go unreported: whatever the app vouched for is checked again from now on.
    expect(await forgotten).toBeNull();
    expect(registry.watching).toBe(false);
    expect(registry.watchStatus(t.skills)).toEqual({ mode: 'native', problems: [{ path: locked, code: 'EACCES', message: expect.stringContaining('not watched: EACCES') }] });
    expect(made).toHaveLength(1);

    // A root that cannot be watched at all is off; the others keep going.
    made[0]?.emit('error', fsError('EACCES', t.bundled));
    expect(registry.watchStatus(t.bundled)?.mode).toBe('off');
    expect(warnings.messages.slice(1)).toEqual([`skill roots: ${t.bundled} not watched: EACCES: injected, watch '${t.bundled}'`]);
    const added = nextChange(registry, 'fine');
    writeSkill(t.skills, 'fine', good('fine'));
    expect(await added).toMatchObject({ kind: 'added' });
  });

  it('closes a watcher that is still starting: close() during watch() leaves nothing running', async () => {
    const t = testHome();
    const made: FSWatcher[] = [];
    const registry = watched(t, made);
    const starting = registry.watch();
    await registry.close();
    await starting;
    expect(made).toHaveLength(1);
    expect(made[0]?.closed).toBe(true);
    // Once closed, watching again starts nothing.
    await registry.watch();
    expect(made).toHaveLength(1);
  });
});
