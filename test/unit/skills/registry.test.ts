import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkillRegistry, type SkillChange } from '../../../src-main/core/skills/registry.js';
import { skillMd, tempDir, testHome, writeFiles, writeSkill } from '../../support/temp.js';
import { readBundledManifest, type BundledManifest } from '../../../src-main/core/skills/bundled-manifest.js';

const good = (name: string, description = `The ${name} skill.`) => skillMd({ name, description, version: '1.0.0' });

describe('skill roots and precedence', () => {
  it('orders roots: SKILLTRAY_SKILLS_PATH entries, <home>/skills, installed packs, bundled, compatibility roots that exist, then what MCP sources serve', () => {
    const t = testHome();
    const second = tempDir();
    mkdirSync(join(t.userHome, '.kode', 'skills'), { recursive: true });
    mkdirSync(join(t.userHome, '.claude', 'skills'), { recursive: true });
    mkdirSync(join(t.userHome, '.local', 'share', 'gibb.eri.sh', 'skills'), { recursive: true });
    mkdirSync(join(t.userHome, '.config', 'gibb.eri.sh', 'tools.d'), { recursive: true });
    for (const folder of ['.agents', '.codex', '.cursor', '.copilot']) mkdirSync(join(t.userHome, folder, 'skills'), { recursive: true });
    const config = t.config({ SKILLTRAY_SKILLS_PATH: [t.skills, second].join(delimiter) });
    expect(config.roots.map((r) => [r.kind, r.trust, r.syntax])).toEqual([
      ['env', 'user', 'angle'],
      ['env', 'user', 'angle'],
      ['home', 'user', 'angle'],
      ['packs', 'user', 'angle'],
      ['bundled', 'bundled', 'angle'],
      ['gibberish', 'user', 'braces'],
      ['gibbtools', 'user', 'angle'],
      ['gibbtools', 'user', 'angle'],
      ['kode', 'user', 'angle'],
      ['claude', 'user', 'angle'],
      ['agents', 'user', 'angle'],
      ['codex', 'user', 'angle'],
      ['cursor', 'user', 'angle'],
      ['copilot', 'user', 'angle'],
      ['mcp', 'user', 'angle'],
    ]);
    expect(config.roots.at(-1)?.path).toBe(join(t.home, 'mcp', 'skills'));
    expect(config.roots.slice(-5, -1).map((r) => r.path)).toEqual(['.agents', '.codex', '.cursor', '.copilot'].map((folder) => join(t.userHome, folder, 'skills')));
    expect(t.config({ CODEX_HOME: join(t.userHome, '.codex') }).roots.find((r) => r.kind === 'codex')?.path).toBe(join(t.userHome, '.codex', 'skills'));
    expect(config.roots[2]?.path).toBe(join(t.home, 'skills'));
    expect(config.roots[3]?.path).toBe(join(t.home, 'packs'));
    // gibb.eri.sh's tool packs: its config folder (whose tools folder is a skill) and its tools.d.
    expect(config.roots.filter((r) => r.kind === 'gibbtools').map((r) => r.path)).toEqual([
      join(t.userHome, '.config', 'gibb.eri.sh'),
      join(t.userHome, '.config', 'gibb.eri.sh', 'tools.d'),
    ]);
    expect(t.config({ XDG_CONFIG_HOME: join(t.userHome, 'xdg') }).roots.some((r) => r.kind === 'gibbtools')).toBe(false);
  });

  it('leaves out compatibility roots that do not exist', () => {
    expect(testHome().config().roots.map((r) => r.kind)).toEqual(['env', 'home', 'packs', 'bundled', 'mcp']);
  });

  it('T7: an override root beats ~/.kode/skills; first match wins and the loser is reported', () => {
    const t = testHome();
    const kodeRoot = join(t.userHome, '.kode', 'skills');
    writeSkill(kodeRoot, 'deploy', good('deploy', 'from kode'));
    writeSkill(t.skills, 'deploy', good('deploy', 'from override'));
    writeSkill(kodeRoot, 'lint', good('lint'));
    const registry = new SkillRegistry(t.config().roots).load();
    expect(registry.get('deploy')?.description).toBe('from override');
    expect(registry.get('deploy')?.shadows.map((s) => s.dir)).toEqual([join(kodeRoot, 'deploy')]);
    expect(registry.get('lint')?.root.kind).toBe('kode');
    expect(registry.shadowed()).toEqual([
      expect.objectContaining({ name: 'deploy', winner: expect.objectContaining({ dir: join(t.skills, 'deploy') }), loser: expect.objectContaining({ dir: join(kodeRoot, 'deploy') }) }),
    ]);
  });

  it('gives bundled trust only to a skill of the bundled root that the shipped manifest lists as it is', () => {
    const t = testHome();
    writeSkill(t.bundled, 'clock', good('clock'));
    writeSkill(t.skills, 'notes', good('notes'));
    t.sealBundled();
    const manifest = (): BundledManifest | null => readBundledManifest(t.config().bundledManifest);
    const registry = new SkillRegistry(t.config().roots, { manifest }).load();
    expect(registry.get('clock')).toMatchObject({ trust: 'bundled', identity: { rootKind: 'bundled', manifest: 'match', trust: 'bundled', unverified: null }, diagnostics: [] });
    expect(registry.get('notes')).toMatchObject({ trust: 'user', identity: { rootKind: 'env', manifest: null, trust: 'user' } });
    // Without the manifest (a registry told of none), nothing in the bundled folder is bundled.
    expect(new SkillRegistry(t.config().roots).load().get('clock')?.trust).toBe('user');
  });

  it('a skill planted in the bundled folder, or one edited there, is a user skill with W420 naming what differs', () => {
    const t = testHome();
    writeSkill(t.bundled, 'clock', good('clock'), { 'notes.md': 'shipped\n' });
    t.sealBundled();
    writeSkill(t.bundled, 'planted', good('planted'));
    writeFiles(join(t.bundled, 'clock'), { 'notes.md': 'edited\n', 'extra.sh': 'echo hi\n' });
    const registry = new SkillRegistry(t.config().roots, { manifest: () => readBundledManifest(t.config().bundledManifest) }).load();
    const planted = registry.get('planted');
    expect(planted).toMatchObject({ trust: 'user', state: 'warnings', identity: { rootKind: 'bundled', manifest: 'absent', trust: 'user' } });
    expect(planted?.diagnostics.map((d) => d.code)).toEqual(['W420']);
    expect(planted?.diagnostics[0]?.message).toMatch(/^'planted' is in Skilltray's bundled folder but Skilltray did not ship it; .*: it is trusted as a user skill and never runs unasked$/);
    const clock = registry.get('clock');
    expect(clock).toMatchObject({ trust: 'user', identity: { manifest: 'differs', trust: 'user' } });
    expect(clock?.identity.unverified).toBe("bundled skill 'clock' is not as Skilltray shipped it: extra.sh (added), notes.md (changed); reinstall Skilltray to restore it");
  });

  it('a missing or broken manifest makes nothing bundled, saying so', () => {
    const t = testHome();
    writeSkill(t.bundled, 'clock', good('clock'));
    writeFileSync(t.config().bundledManifest, '{"version": 1, "skills": {"clock": {"hash": 5}}}');
    const registry = new SkillRegistry(t.config().roots, { manifest: () => readBundledManifest(t.config().bundledManifest) }).load();
    expect(registry.get('clock')).toMatchObject({ trust: 'user', identity: { manifest: 'unreadable' } });
    expect(registry.get('clock')?.diagnostics.map((d) => d.code)).toEqual(['W420']);
  });

  it('T10: a directory with one malformed skill loads all the others', () => {
    const t = testHome();
    writeSkill(t.skills, 'alpha', good('alpha'));
    writeSkill(t.skills, 'broken', '---\nname: [oops\n');
    writeSkill(t.skills, 'gamma', good('gamma'));
    writeSkill(t.skills, 'binary', Buffer.from([0x00, 0xff, 0x13, 0x37]));
    mkdirSync(join(t.skills, 'not-a-skill'));
    const registry = new SkillRegistry(t.config().roots).load();
    expect(registry.list().map((s) => [s.name, s.state])).toEqual([
      ['alpha', 'ok'],
      ['binary', 'error'],
      ['broken', 'error'],
      ['gamma', 'ok'],
    ]);
  });

  it('lists symlinked skill directories and ignores hidden ones', () => {
    const t = testHome();
    const elsewhere = tempDir();
    writeSkill(elsewhere, 'linked', good('linked'));
    symlinkSync(join(elsewhere, 'linked'), join(t.skills, 'linked'));
    writeSkill(t.skills, '.hidden', good('hidden'));
    expect(new SkillRegistry(t.config().roots).load().list().map((s) => s.name)).toEqual(['linked']);
  });
});

describe('watching the roots', () => {
  /** The next change that passes `predicate`; a change that never comes fails the test by its timeout. */
  function nextChange(registry: SkillRegistry, predicate: (c: SkillChange) => boolean = () => true): Promise<SkillChange> {
    return new Promise((resolve) => {
      const listener = (change: SkillChange) => {
        if (!predicate(change)) return;
        registry.off('change', listener);
        resolve(change);
      };
      registry.on('change', listener);
    });
  }

  it('reloads a changed skill, picks up a new one and drops a removed one, with events', async () => {
    const t = testHome();
    const dir = writeSkill(t.skills, 'notes', good('notes', 'before'));
    const registry = new SkillRegistry(t.config().roots).load();
    await registry.watch();
    try {
      const oldHash = registry.get('notes')?.hash;
      const changed = nextChange(registry);
      writeFileSync(join(dir, 'SKILL.md'), good('notes', 'after'));
      expect(await changed).toMatchObject({ kind: 'changed', name: 'notes' });
      expect(registry.get('notes')?.description).toBe('after');
      expect(registry.get('notes')?.hash).not.toBe(oldHash);

      const added = nextChange(registry, (c) => c.name === 'fresh');
      writeSkill(t.skills, 'fresh', good('fresh'));
      expect(await added).toMatchObject({ kind: 'added', name: 'fresh' });

      const removed = nextChange(registry, (c) => c.name === 'notes');
      rmSync(dir, { recursive: true });
      expect(await removed).toEqual({ kind: 'removed', name: 'notes' });
      expect(registry.get('notes')).toBeUndefined();
    } finally {
      await registry.close();
    }
  });

  it('debounces a burst of writes into one reload', async () => {
    const t = testHome();
    const dir = writeSkill(t.skills, 'notes', good('notes'));
    const registry = new SkillRegistry(t.config().roots).load();
    await registry.watch();
    const events: SkillChange[] = [];
    registry.on('change', (c) => events.push(c));
    try {
      const reloaded = nextChange(registry, (c) => c.name === 'notes');
      for (let i = 0; i < 10; i++) writeFileSync(join(dir, 'SKILL.md'), good('notes', `draft ${i}`));
      await reloaded;
      // A skill written after the burst is reloaded after anything the burst still had queued, so once
      // its event arrives, every event of the burst has.
      const marker = nextChange(registry, (c) => c.name === 'marker');
      writeSkill(t.skills, 'marker', good('marker'));
      await marker;
      expect(events.map((c) => [c.kind, c.name])).toEqual([
        ['changed', 'notes'],
        ['added', 'marker'],
      ]);
      expect(registry.get('notes')?.description).toBe('draft 9');
    } finally {
      await registry.close();
    }
  });

  it('starts watching a root that is created after start, and loads its skills', async () => {
    const t = testHome();
    const later = join(t.userHome, 'made-later', 'skills');
    const registry = new SkillRegistry(t.config({ SKILLTRAY_SKILLS_PATH: later }).roots).load();
    await registry.watch();
    try {
      const added = nextChange(registry, (c) => c.name === 'late');
      writeSkill(later, 'late', good('late'));
      expect(await added).toMatchObject({ kind: 'added', name: 'late' });
      const changed = nextChange(registry, (c) => c.name === 'late');
      writeFileSync(join(later, 'late', 'SKILL.md'), good('late', 'edited'));
      expect(await changed).toMatchObject({ kind: 'changed', name: 'late' });
    } finally {
      await registry.close();
    }
  });

  it('creates the user skills directory so skills dropped into it later are seen', async () => {
    const t = testHome();
    const registry = new SkillRegistry(t.config().roots).load();
    await registry.watch();
    try {
      const added = nextChange(registry);
      writeSkill(join(t.home, 'skills'), 'mine', good('mine'));
      expect(await added).toMatchObject({ kind: 'added', name: 'mine' });
      expect(registry.get('mine')?.root.kind).toBe('home');
    } finally {
      await registry.close();
    }
  });
});
