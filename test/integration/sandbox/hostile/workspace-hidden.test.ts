/**
 * Issue #38's writing allow-list: a writing tool held only a list of names, and only at the top or
 * four folders deep, so it planted `.cargo/config.toml` (the person's next `cargo build` ran its
 * wrapper), `.gemini/`, `.continue/`, `.zed/`, `.cursorrules`, and a `build/cache/.git` whose
 * `gitdir:` the next run followed to the home. Now every hidden path at every depth is read-only
 * unless the tool declares it: existing ones are bound read-only, new ones are removed when the run
 * ends (and the run says which). Attacked through the real command line, as root and as an ordinary
 * user.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { RunReport } from '../../../../src-main/shared/runs.js';
import { asRootAndUser, attack, plant, resultOf, scriptSkill, skilltray } from './actors.js';

const LONG = { timeout: 180_000 };

/** Hidden paths a writing tool plants, at the top and deep, new folders and old. */
const PLANTED = [
  'build/cache/.git/config',
  '.cargo/config.toml',
  'sub/.envrc',
  '.gemini/settings.json',
  '.continue/config.json',
  '.zed/settings.json',
  '.cursorrules',
  'a/b/c/d/e/f/.claude/settings.json',
  'docs/.mcp.json',
];

const plantScript = (paths: readonly string[], content: string): string =>
  paths.map((path) => `mkdir -p "$(dirname ${path})" && echo '${content}' > ${path} && echo planted ${path}`).join('; ');

asRootAndUser((actor) => {
  it('hidden paths a writing tool creates, at any depth, are gone when it ends, the run says so, and the next run reads nothing of them', LONG, async () => {
    const project = join(actor.project, 'hidden-new');
    mkdirSync(project, { recursive: true });
    plant(actor, { 'hidden-new/readme.txt': 'project\n' }, actor.project);
    const script = `${plantScript(PLANTED, `gitdir: ${actor.home}`)}; echo ok > visible.txt`;
    const { report } = await attack(actor, 'probe-ws', 'sh', { script }, project);
    expect(report.sandbox).toMatchObject({ name: 'workspace', contained: true });
    for (const path of PLANTED) expect(existsSync(join(project, path)), path).toBe(false);
    expect(readFileSync(join(project, 'visible.txt'), 'utf8')).toBe('ok\n');
    // What was removed is on the run, and in its history (the names at the top were held by placeholders: never made).
    const swept = (report as unknown as RunReport).swept;
    expect([...swept].sort()).toEqual(['a/b/c/d/e/f/.claude', 'build/cache/.git', 'docs/.mcp.json', 'sub/.envrc']);
    const history = await skilltray(actor, ['history', report.id as string]);
    expect(history.stdout).toMatch(/removed +build\/cache\/\.git \(hidden, made by the run/);
    // The next run finds none of it, and nothing of the home.
    plant(actor, { '.bash_history': 'decoy-bash-history' });
    const next = await attack(actor, 'git', 'git_status', { repo: 'build/cache' }, project);
    expect(next.outcome.stdout + next.outcome.stderr).not.toContain('decoy');
  });

  it('existing hidden paths stay read-only at any depth, even when the folder holding them is moved away', LONG, async () => {
    const project = join(actor.project, 'hidden-old');
    const existing = ['.cargo/config.toml', 'src/.eslintrc.js', 'a/b/c/d/e/f/.envrc', 'sub/.git/config', '.gemini/settings.json'];
    plant(actor, Object.fromEntries(existing.map((path) => [`hidden-old/${path}`, 'original\n'])), actor.project);
    const script = [
      ...existing.map((path) => `echo evil > ${path} && echo wrote ${path}`),
      'mv sub sub-moved && mkdir -p sub/.git && echo evil > sub/.git/config && echo replaced sub/.git',
      'mv a a-moved && mkdir -p a/b/c/d/e/f && echo evil > a/b/c/d/e/f/.envrc && echo replaced deep',
    ].join('; ');
    const { report } = await attack(actor, 'probe-ws', 'sh', { script }, project);
    expect(resultOf(report).stdout).not.toMatch(/^wrote/m);
    expect(resultOf(report).stderr).toMatch(/Read-only file system/);
    for (const path of existing) {
      const now = existsSync(join(project, path)) ? readFileSync(join(project, path), 'utf8') : 'absent';
      expect(now, path).not.toContain('evil');
    }
  });

  it('a tool that declares an exact hidden path may write it, the approval says so, and it stays', LONG, async () => {
    const project = join(actor.project, 'hidden-declared');
    plant(actor, { 'hidden-declared/readme.txt': 'project\n' }, actor.project);
    scriptSkill(actor, 'cargo-writer', { writes: ['.cargo'] });
    const dry = await skilltray(actor, ['run', 'cargo-writer', 'sh', '--args', JSON.stringify({ script: 'true' }), '--cwd', project, '--dry-run', '--json']);
    expect((JSON.parse(dry.stdout) as RunReport).sandbox.writes).toEqual(['.cargo']);
    const { report } = await attack(actor, 'cargo-writer', 'sh', { script: plantScript(['.cargo/config.toml', '.tool-cache/state'], 'declared') }, project);
    expect(readFileSync(join(project, '.cargo', 'config.toml'), 'utf8')).toBe('declared\n');
    expect(existsSync(join(project, '.tool-cache'))).toBe(false);
    expect((report as unknown as RunReport).swept).toEqual(['.tool-cache']);
  });
});
