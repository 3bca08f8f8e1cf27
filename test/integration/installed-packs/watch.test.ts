/**
 * The process that owns runs (the app, `serve`) sees packs another process installs, updates and
 * removes (the CLI), through its watcher on `<home>/packs`: a pack folder renamed into place or
 * away reloads the skills in it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import type { SkillChange } from '../../../src-main/core/skills/registry.js';
import { toolSkill } from '../../support/pack-sources.js';
import { tempDir, testHome, writeSkill } from '../../support/temp.js';

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

/** Resolves with the first change the registry reports that `matches`. */
function nextChange(core: SkilltrayCore, matches: (change: SkillChange) => boolean): Promise<SkillChange> {
  return new Promise((resolve) => {
    const listener = (change: SkillChange): void => {
      if (!matches(change)) return;
      core.registry.off('change', listener);
      resolve(change);
    };
    core.registry.on('change', listener);
  });
}

describe('the watched packs root', () => {
  it('reloads what another process installs, edits behind the lock, and removes', async () => {
    const t = testHome();
    const owner = new SkilltrayCore(t.config());
    const other = new SkilltrayCore(t.config());
    cores.push(owner, other);
    await owner.registry.watch();
    expect(owner.registry.watchStatus(join(t.home, 'packs'))).toMatchObject({ mode: 'native' });
    const source = join(tempDir(), 'duo');
    writeSkill(source, 'left', toolSkill('left', null));
    writeSkill(source, 'right', toolSkill('right', null));

    const added = nextChange(owner, (c) => c.name === 'right' && c.kind === 'added');
    await (await other.packs()).install({ source }, t.home, { confirm: 'yes' });
    await added;
    expect(owner.registry.get('left')?.root.kind).toBe('packs');

    const edited = nextChange(owner, (c) => c.name === 'left' && c.kind === 'changed');
    writeFileSync(join(t.home, 'packs', 'duo', 'left', 'extra.md'), '# Added by hand\n');
    const change = await edited;
    expect(change.kind === 'changed' && change.skill.diagnostics.map((d) => d.code)).toEqual(['W416']);

    const removed = [nextChange(owner, (c) => c.name === 'left' && c.kind === 'removed'), nextChange(owner, (c) => c.name === 'right' && c.kind === 'removed')];
    await (await other.packs()).uninstall('duo');
    await Promise.all(removed);
    expect(owner.registry.list().filter((s) => s.root.kind === 'packs')).toEqual([]);
  });
});
