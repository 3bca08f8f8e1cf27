/**
 * Soak: a root of hostile skill folders, as a careless or hostile author leaves them. Every folder
 * that holds something named SKILL.md is listed with a diagnostic saying what is wrong — a FIFO, a
 * directory, a device, a link to nothing, an unreadable folder, a name that is not UTF-8 — and
 * nothing is dropped, nothing hangs; unreadable files inside a skill are named and keep "Always"
 * away; `open` of one is E023; an unreadable root is named by `roots` and `check`; and the YAML
 * depth bomb (800 KB, 400,000 levels) is refused before parsing. Prints what it measured.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { decide } from '../../../src-main/core/policy/decide.js';
import type { Skill, SkillRoot } from '../../../src-main/shared/model.js';
import { cliAsOrdinaryUser, openTo, ordinaryUser } from '../../support/ordinary-user.js';
import { skillMd, tempDir, testHome, writeSkill } from '../../support/temp.js';

const good = (name: string) => skillMd({ name, description: `The ${name} skill.` }, `# ${name}\n`);
/** An 800 KB SKILL.md whose frontmatter is one flow sequence nested 400,000 levels deep. */
const depthBomb = () => `---\nname: bomb\ndescription: x\nx: ${'['.repeat(400_000)}${']'.repeat(400_000)}\n---\n`;

interface Listed {
  name: string;
  path: string;
  status: string;
  diagnostics: { code: string; message: string }[];
}

/** Peak RSS (MiB) and wall time of `skilltray check <dir>` as its own process, through the bench's probe. */
async function checkProcess(dir: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; rssMb: number }> {
  const probe = join(import.meta.dirname, '..', '..', '..', 'dist', 'node', 'bench', 'rss-probe.js');
  const rssFile = join(tempDir(), 'rss');
  const start = performance.now();
  await execa(process.execPath, ['--import', probe, join(import.meta.dirname, '..', '..', '..', 'bin', 'skilltray.js'), 'check', dir, '--json'], {
    env: { ...env, SKILLTRAY_BENCH_RSS: rssFile },
    extendEnv: false,
    reject: false,
  });
  return { ms: performance.now() - start, rssMb: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

describe('soak: hostile skill folders', () => {
  it('lists every folder that holds something named SKILL.md, each with what is wrong, and drops nothing', async () => {
    const t = testHome();
    const root = t.skills;
    writeSkill(root, 'fine', good('fine'));
    mkdirSync(join(root, 'fifo'));
    await execa('mkfifo', [join(root, 'fifo', 'SKILL.md')]);
    mkdirSync(join(root, 'folder', 'SKILL.md'), { recursive: true });
    mkdirSync(join(root, 'dangling'));
    symlinkSync('nowhere.md', join(root, 'dangling', 'SKILL.md'));
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      mkdirSync(join(root, 'device'));
      await execa('mknod', [join(root, 'device', 'SKILL.md'), 'c', '1', '3']);
    }
    // A folder named with a byte that is not UTF-8 (Latin-1 é), as an old archive leaves it.
    const latin1 = Buffer.concat([Buffer.from(`${root}/caf`), Buffer.from([0xe9])]);
    mkdirSync(latin1);
    writeFileSync(Buffer.concat([latin1, Buffer.from('/SKILL.md')]), good('cafe'));
    writeSkill(root, 'locked', good('locked'));
    chmodSync(join(root, 'locked'), 0o000);
    writeSkill(root, 'secrets', good('secrets'), { 'notes/private.md': 'mine', 'public.md': 'ours' });
    chmodSync(join(root, 'secrets', 'notes', 'private.md'), 0o000);
    mkdirSync(join(root, 'secrets', 'pipes'));
    await execa('mkfifo', [join(root, 'secrets', 'pipes', 'queue')]);
    writeSkill(root, 'bomb', depthBomb());
    // Folders that can be listed but not searched (r without x): their names say whether SKILL.md is there.
    writeSkill(root, 'searchless', good('searchless'));
    chmodSync(join(root, 'searchless'), 0o444);
    writeSkill(root, 'searchless-none', '', { 'README.md': 'not a skill' });
    rmSync(join(root, 'searchless-none', 'SKILL.md'));
    chmodSync(join(root, 'searchless-none'), 0o444);
    openTo(t.home.replace(/\/home$/, ''), [t.home, t.userHome]);

    const started = performance.now();
    const list = await cliAsOrdinaryUser(['list', '--json'], { ...t.env });
    const listMs = performance.now() - started;
    expect(list.code, list.stderr).toBe(0);
    // The bundled skills come along (the CLI runs from the checkout): only this root's are looked at.
    const skills = (JSON.parse(list.stdout) as { skills: Listed[] }).skills.filter((s) => s.path.startsWith(`${root}/`));
    const byName = new Map(skills.map((s) => [s.name, s]));
    const diag = (name: string) => byName.get(name)?.diagnostics.map((d) => `${d.code} ${d.message}`) ?? [`${name} is not listed`];
    expect(byName.get('fine')?.status).toBe('ok');
    expect(diag('fifo')).toContain('E418 SKILL.md is a FIFO (named pipe), not a file');
    expect(diag('folder')).toContain('E418 SKILL.md is a directory, not a file');
    expect(diag('dangling')).toContain('E418 cannot read SKILL.md: ENOENT (it leads nowhere)');
    if (asRoot) expect(diag('device')).toContain('E418 SKILL.md is a character device, not a file');
    expect(diag('caf\\xe9')).toEqual([expect.stringMatching(/^E418 the folder's name is not valid UTF-8 \(shown escaped: 'caf\\xe9'\)/)]);
    expect(diag('locked')).toEqual([expect.stringMatching(/^E418 cannot read the skill's folder .*locked: EACCES \(permission denied\)$/)]);
    expect(diag('secrets')).toEqual([
      "W418 'pipes/queue' is a FIFO (named pipe), not a file or folder; skipped",
      "W417 'notes/private.md' cannot be read (EACCES (permission denied)): the skill's content hash cannot cover it, so none of its tools can be allowed Always",
    ]);
    expect(diag('searchless')).toEqual(['E418 cannot read SKILL.md: EACCES (permission denied)']);
    expect(diag('bomb')).toEqual([
      expect.stringMatching(/^E402 invalid frontmatter YAML: the frontmatter is \d+ characters; Skilltray reads at most 65536 \(refused before parsing\)$/),
    ]);

    const check = await cliAsOrdinaryUser(['check', root, '--json'], { ...t.env });
    const checked = JSON.parse(check.stdout) as { skills: { name: string }[] };
    const expected = ['bomb', 'caf\\xe9', 'dangling', ...(asRoot ? ['device'] : []), 'fifo', 'fine', 'folder', 'locked', 'searchless', 'secrets'];
    expect(skills.map((s) => s.name)).toEqual(expected);
    expect(checked.skills.map((s) => s.name)).toEqual(expected);
    // A load on one thread looks into each folder before parsing, one on two leaves that to each parse: both list the same.
    const oneThread = await cliAsOrdinaryUser(['list', '--json'], { ...t.env, SKILLTRAY_THREADS: '1' });
    const alone = (JSON.parse(oneThread.stdout) as { skills: Listed[] }).skills.filter((s) => s.path.startsWith(`${root}/`));
    expect(alone.map((s) => [s.name, s.diagnostics])).toEqual(skills.map((s) => [s.name, s.diagnostics]));

    const open = await cliAsOrdinaryUser(['open', 'secrets', 'notes/private.md'], { ...t.env });
    // Opened up again: the temp folder's removal cannot look into them otherwise, run by anyone but root.
    for (const name of ['locked', 'searchless', 'searchless-none']) chmodSync(join(root, name), 0o755);
    expect(open.stderr).toBe("error[E023]: cannot read 'notes/private.md': EACCES (permission denied)");
    console.log(
      `[soak] hostile root: ${skills.length} folders listed by 'list --json' in ${listMs.toFixed(0)} ms as ${ordinaryUser() === null ? 'this user' : 'nobody'}, none dropped; open of an unreadable file: E023`,
    );
  });

  it('an unreadable root is named by roots and by check', async () => {
    const t = testHome();
    writeSkill(t.skills, 'inside', good('inside'));
    const elsewhere = writeSkill(t.home.replace(/\/home$/, ''), 'elsewhere', good('elsewhere'));
    chmodSync(t.skills, 0o000);
    openTo(t.home.replace(/\/home$/, ''), [t.home, t.userHome]);
    const roots = await cliAsOrdinaryUser(['roots'], { ...t.env });
    expect(roots.stdout).toContain(`${t.skills} (unreadable)`);
    expect(roots.stdout).toContain(`warning: ${t.skills} cannot be read (EACCES (permission denied)): its skills are not loaded`);
    const check = await cliAsOrdinaryUser(['check', 'inside'], { ...t.env });
    expect(check.stderr).toContain("error[E001]: skill 'inside' not found");
    const report = await cliAsOrdinaryUser(['check', elsewhere, '--json'], { ...t.env });
    expect(JSON.parse(report.stdout)).toMatchObject({ unreadable_roots: [{ path: t.skills, why: 'EACCES (permission denied)' }] });
    chmodSync(t.skills, 0o755);
  });

  it('a skill whose files its hash cannot cover is never allowed Always: a remembered answer asks again', () => {
    const base = tempDir();
    const dir = writeSkill(base, 'secrets', good('secrets'));
    const root: SkillRoot = { path: base, kind: 'env', trust: 'user', syntax: 'angle' };
    const skill: Skill = { ...parseSkill(dir, root), unhashed: ['notes/private.md'] };
    const tool = { name: 'show', description: '', params: [], command: 'cat x', commandLine: 1, examples: null, line: 1 };
    const decision = decide({
      skill,
      tool,
      mode: 'Global',
      paused: false,
      rules: [],
      remembered: {
        id: 1,
        skill: 'secrets',
        tool: 'show',
        skillHash: skill.hash,
        identity: null,
        programPath: '/usr/bin/cat',
        folder: null,
        profile: { name: 'workspace', network: false, hosts: [] },
        expires: 'revoke',
        createdAt: 0,
        revokedAt: null,
      },
      cwd: base,
      programPath: '/usr/bin/cat',
      resolveBin: () => '/usr/bin/cat',
      env: {},
      enabled: true,
      sandbox: { name: 'workspace', network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null },
    });
    expect(decision).toMatchObject({ outcome: 'ask' });
    expect((decision as { reason: string }).reason).toContain(
      "its content hash cannot cover 'notes/private.md', which cannot be read, so an Always answer cannot vouch for it",
    );
    rmSync(base, { recursive: true, force: true });
  });

  it('the YAML depth bomb is refused before parsing: its parse and its check process cost what a plain skill does', async () => {
    const t = testHome();
    const bomb = writeSkill(t.skills, 'bomb', depthBomb());
    const plain = writeSkill(t.skills, 'plain', good('plain'));
    const root: SkillRoot = { path: t.skills, kind: 'env', trust: 'user', syntax: 'angle' };
    parseSkill(plain, root);
    const started = performance.now();
    const parsed = parseSkill(bomb, root);
    const parseMs = performance.now() - started;
    expect(parsed.diagnostics.map((d) => d.code)).toEqual(['E402']);
    // Within the size limit, the depth limit refuses it: 20,000 levels in 40 KB.
    const deep = writeSkill(t.skills, 'deep', `---\nname: deep\ndescription: x\nx: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n---\n`);
    expect(parseSkill(deep, root).diagnostics[0]?.message).toBe(
      'invalid frontmatter YAML: the frontmatter nests more than 640 levels deep; Skilltray reads at most 64 (refused before parsing)',
    );
    // Block mappings, which plain YAML would read if it did not decline them, 66 deep.
    const keys = Array.from({ length: 65 }, (_, level) => `${' '.repeat(level)}k${level}:`).join('\n');
    const indented = writeSkill(t.skills, 'indented', `---\nname: indented\ndescription: x\n${keys}\n${' '.repeat(65)}leaf: x\n---\n`);
    expect(parseSkill(indented, root).diagnostics[0]?.message).toBe(
      'invalid frontmatter YAML: the frontmatter nests 66 levels deep; Skilltray reads at most 64 (refused before parsing)',
    );
    const ofBomb = await checkProcess(bomb, t.env);
    const ofPlain = await checkProcess(plain, t.env);
    console.log(
      `[soak] YAML depth bomb (${(Buffer.byteLength(depthBomb()) / 1024).toFixed(0)} KB, 400,000 levels): refused (E402) in ${parseMs.toFixed(1)} ms in process (goal < 50 ms); ` +
        `'check' of it ${ofBomb.ms.toFixed(0)} ms, peak RSS ${ofBomb.rssMb.toFixed(0)} MiB (goal < 100 MiB) vs ${ofPlain.ms.toFixed(0)} ms, ${ofPlain.rssMb.toFixed(0)} MiB for a plain skill`,
    );
  });
});
