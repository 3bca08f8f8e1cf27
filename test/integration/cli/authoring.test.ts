/**
 * The authors' commands of the first hour (issue 39): `new` writes a skill that checks clean into
 * the person's skills folder and refuses a bad name or one taken, with a did-you-mean; `check
 * --watch` checks again on every real edit and stops on SIGINT.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';

describe('skilltray new', () => {
  it('writes <home>/skills/<name>/SKILL.md that checks clean, and its example runs at once', async () => {
    const t = testHome();
    const made = await cli(['new', 'hello'], t, { cwd: t.work });
    expect(made).toMatchObject({ code: 0, stderr: '' });
    const file = join(t.home, 'skills', 'hello', 'SKILL.md');
    expect(made.stdout).toContain(`wrote ${file}\nchecked: 0 errors, 0 warnings\nnext:\n  skilltray run hello hello --example 1 --dry-run`);
    expect(readFileSync(file, 'utf8')).toMatch(
      /^---\nname: hello\ndescription: Hello\. .*\nread_only: true\n---\n[\s\S]*### hello\n[\s\S]*#### Parameters[\s\S]*#### Command\n\n```\necho <<text>>\n```/,
    );
    const checked = await cli(['check', 'hello'], t);
    expect(checked).toMatchObject({ code: 0 });
    expect(checked.stdout).toMatch(/^1 skill checked: 0 errors, 0 warnings$/m);
    const ran = await cli(['run', 'hello', 'hello', '--example', '1', '--yes'], t, { cwd: t.work });
    expect(ran).toMatchObject({ code: 0, stdout: 'hello from hello\n' });
  });

  it('--tool names the tool, --dir writes elsewhere and says it is not loaded there, --json gives the check too', async () => {
    const t = testHome();
    const json = JSON.parse((await cli(['new', 'release-notes', '--tool', 'draft', '--dir', 'drafts', '--json'], t, { cwd: t.work })).stdout);
    expect(json).toMatchObject({
      name: 'release-notes',
      tool: 'draft',
      path: join(t.work, 'drafts', 'release-notes'),
      loaded: false,
      check: { errors: 0, warnings: 0 },
    });
    const text = await cli(['new', 'other', '--dir', 'drafts'], t, { cwd: t.work });
    expect(text.stdout).toContain('is not in a skill root, so Skilltray does not load it');
  });

  it('refuses a bad name (E150) and a taken one (E151), each with the name it would take instead', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'git', skillMd({ name: 'git', description: 'Git. Use when asked about git.' }));
    expect((await cli(['new', 'hello'], t)).code).toBe(0);
    const again = await cli(['new', 'hello'], t);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^error\[E151\]: a skill named 'hello' already exists \(the folder .*hello\); pick another name; did you mean 'hello-2' or 'my-hello' or 'hello-skill'\?$/m,
    );
    expect((await cli(['new', 'git'], t)).stderr).toMatch(/^error\[E151\]: a skill named 'git' already exists \(loaded from .*git; a new one would hide it\)/m);
    expect((await cli(['new', 'My Skill'], t)).stderr).toMatch(
      /^error\[E150\]: 'My Skill' cannot be a skill name: a skill name is lower-case letters and digits, with single hyphens between words; did you mean 'my-skill'\?$/m,
    );
    expect((await cli(['new', 'tidy', '--tool', 'Tidy-Up'], t)).stderr).toMatch(
      /^error\[E150\]: 'Tidy-Up' cannot be a tool name: .*; did you mean 'tidy_up'\?$/m,
    );
    expect((await cli(['new', 'x'.repeat(65)], t)).stderr).toMatch(/longer than 64 characters; did you mean 'x{64}'\?$/m);
  });
});

/** What a stream has printed so far, and a wait for what it prints next: listened to from the start, so nothing is missed. */
function collect(stream: NodeJS.ReadableStream): { text: () => string; until: (pattern: RegExp) => Promise<void> } {
  let text = '';
  const waiting: { pattern: RegExp; done: () => void }[] = [];
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const wait of waiting.filter((w) => w.pattern.test(text))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.done();
    }
  });
  return {
    text: () => text,
    until: (pattern) => new Promise((done) => (pattern.test(text) ? done() : waiting.push({ pattern, done }))),
  };
}

describe('skilltray check --watch', () => {
  it('checks again after every edit of the skill, printing the new diagnostics, and stops on SIGINT', async () => {
    const t = testHome();
    // In a root, checked by name: the loaded parse (kept while a file is rewritten) must not stand in for the edit.
    const dir = writeSkill(t.skills, 'draft', skillMd({ name: 'draft', description: 'A draft. Use when drafting.' }));
    const child = execa(process.execPath, [join(import.meta.dirname, '..', '..', '..', 'bin', 'skilltray.js'), 'check', 'draft', '--watch'], {
      env: t.env,
      extendEnv: false,
      cwd: t.work,
      reject: false,
      stdin: 'ignore',
    });
    const out = collect(child.stdout);
    const err = collect(child.stderr);
    await err.until(/watching .*draft: checked again on every change/);
    await out.until(/draft ok [\s\S]*1 skill checked: 0 errors, 0 warnings\n/);

    writeFileSync(join(dir, 'SKILL.md'), '---\nname: draft\ndescription: "never closed\n---\n');
    await out.until(/error\[E402\] SKILL\.md:3 invalid frontmatter YAML: a quoted value opens on this line[\s\S]*1 error, 0 warnings\n/);
    expect(err.text()).toMatch(/changed: .*SKILL\.md; checked again/);

    // Saved as many editors save, a new copy renamed over the file; the edits after it are seen too.
    writeFileSync(join(dir, '.SKILL.md.new'), skillMd('name: draft\ndescription: Deploy: a draft, use when drafting'));
    renameSync(join(dir, '.SKILL.md.new'), join(dir, 'SKILL.md'));
    await out.until(/warning\[W419\] SKILL\.md:3[\s\S]*0 errors, 1 warning\n/);
    writeFileSync(join(dir, 'SKILL.md'), skillMd({ name: 'draft', description: 'A draft. Use when drafting.' }));
    await out.until(/W419[\s\S]*draft ok [\s\S]*1 skill checked: 0 errors, 0 warnings\n/);

    // A folder made while watching is watched from then on.
    mkdirSync(join(dir, 'references'));
    await err.until(/changed: .*references; checked again/);
    writeFileSync(join(dir, 'references', 'notes.md'), '# Notes\n');
    await err.until(/changed: .*references\/notes\.md; checked again/);

    child.kill('SIGINT');
    const ended = await child;
    expect(ended.exitCode).toBe(0);
    expect(ended.stderr).toMatch(/stopped watching$/);
  });
});
