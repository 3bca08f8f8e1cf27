import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outlineSkill } from '../../../src-main/core/gateway/outline.js';
import { copyFixtureSkill, fixturePath } from '../../fixtures/gateway/skill-fixture.js';
import { cli, cliProcessBytes } from '../../support/cli.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';

/** A skill shaped like RFC-0002's outline example. */
function home() {
  const t = testHome();
  writeSkill(
    t.skills,
    'guide',
    skillMd(
      { name: 'guide', description: 'A guide.', version: '1.0.0' },
      '# Skill Name\n\n## Getting Started\n\nInstall it.\n\n## API Reference\n\n### Authentication\n\nConfigure authentication with a token.\n\n### Endpoints\n\nList of endpoints.\n',
    ),
    { 'references/advanced.md': '# Advanced Topics\n\n## Performance\n\nConfiguring caches.\n', 'notes.txt': 'plain text about tokens\n' },
  );
  return t;
}

describe('RFC-0002 gateway commands through the CLI', () => {
  it('C-OUTLINE: headings per file in bytewise order, --level filters', async () => {
    const t = home();
    expect((await cli(['outline', 'guide'], t)).stdout).toBe(
      'SKILL.md\n  # Skill Name\n  ## Getting Started\n  ## API Reference\n    ### Authentication\n    ### Endpoints\nreferences/advanced.md\n  # Advanced Topics\n  ## Performance\n',
    );
    expect((await cli(['outline', 'guide', '--level', '2'], t)).stdout).toBe(
      'SKILL.md\n  # Skill Name\n  ## Getting Started\n  ## API Reference\nreferences/advanced.md\n  # Advanced Topics\n  ## Performance\n',
    );
  });

  it('C-OUTLINE streams file by file in exactly the JSON the whole result prints as, empty outlines included', async () => {
    const t = home();
    writeSkill(t.skills, 'bare', skillMd({ name: 'bare', description: 'No headings.', version: '1.0.0' }, 'Just prose.\n'));
    for (const [skill, level] of [
      ['guide', undefined],
      ['guide', 1],
      ['bare', undefined],
    ] as const) {
      const argv = ['outline', skill, '--json', ...(level === undefined ? [] : ['--level', String(level)])];
      const whole = outlineSkill(join(t.skills, skill), level === undefined ? {} : { level });
      expect((await cli(argv, t)).stdout).toBe(`${JSON.stringify(whole, null, 2)}\n`);
    }
    expect(await cli(['outline', 'bare'], t)).toMatchObject({ code: 0, stdout: '' });
  });

  it('C-OUTLINE of a skill whose outline runs past one write (64 KiB) prints every heading once, in order', async () => {
    const t = testHome();
    const files: Record<string, string> = {};
    for (let f = 0; f < 80; f++)
      files[`references/topic-${String(f).padStart(2, '0')}.md`] = Array.from({ length: 40 }, (_, h) => `## Topic ${f} heading ${h}\n\nText.\n`).join('\n');
    writeSkill(t.skills, 'long', skillMd({ name: 'long', description: 'Many headings.', version: '1.0.0' }, '# Long\n'), files);
    const whole = outlineSkill(join(t.skills, 'long'));
    expect(whole.headings).toHaveLength(1 + 80 * 40);
    const json = (await cli(['outline', 'long', '--json'], t)).stdout;
    expect(json.length).toBeGreaterThan(4 * 65536);
    expect(json).toBe(`${JSON.stringify(whole, null, 2)}\n`);
    const text = (await cli(['outline', 'long'], t)).stdout;
    expect(text.length).toBeGreaterThan(65536);
    const lines = ['SKILL.md', '  # Long'];
    for (let f = 0; f < 80; f++)
      lines.push(`references/topic-${String(f).padStart(2, '0')}.md`, ...Array.from({ length: 40 }, (_, h) => `  ## Topic ${f} heading ${h}`));
    expect(text).toBe(`${lines.join('\n')}\n`);
  });

  it('C-SHOW: a read builds the index itself; --strict (or SKILLTRAY_STRICT=1) keeps E002, "not built yet" for a new index', async () => {
    const t = home();
    const strictly = ["error[E002]: search index not built yet; run 'skilltray build guide' to build it\n"];
    expect(await cli(['show', 'guide', '--section', 'authentication', '--strict'], t)).toMatchObject({ code: 1, stderr: strictly[0] });
    expect(await cli(['show', 'guide', 'authentication'], t, { env: { SKILLTRAY_STRICT: '1' } })).toMatchObject({ code: 1, stderr: strictly[0] });
    expect(await cli(['show', 'guide', 'authentication'], t)).toMatchObject({
      code: 0,
      stderr: '',
      stdout: '### Authentication\n\nConfigure authentication with a token.\n',
    });
    // Built by that read: strict reads find it now.
    expect(await cli(['show', 'guide', 'authentication', '--strict'], t)).toMatchObject({ code: 0 });
  });

  it('C-SHOW: index-based, case-insensitive, em-dash stripped, --max-lines truncation line', async () => {
    const t = home();
    await cli(['build', 'guide'], t);
    expect((await cli(['show', 'guide', '--section', '  api reference — the whole API  '], t)).stdout).toBe(
      '## API Reference\n\n### Authentication\n\nConfigure authentication with a token.\n\n### Endpoints\n\nList of endpoints.\n',
    );
    expect((await cli(['show', 'guide', '--section', 'API Reference', '--max-lines', '3'], t)).stdout).toBe(
      '## API Reference\n\n### Authentication\n... (6 more lines)\n',
    );
  });

  it('C-SHOW: several matches → the first, a warning on stderr, exit 0', async () => {
    const t = home();
    writeFileSync(join(t.skills, 'guide', 'references', 'more.md'), '# Performance\n\nAgain.\n');
    await cli(['build', 'guide'], t);
    const outcome = await cli(['show', 'guide', '--section', 'performance'], t);
    expect(outcome).toMatchObject({ code: 0, stderr: 'warning: multiple matches for "performance"; showing first\n' });
  });

  it('C-SHOW: no match → E020 with up to five suggestions, exit 1', async () => {
    const t = home();
    await cli(['build', 'guide'], t);
    expect(await cli(['show', 'guide', '--section', 'auth'], t)).toMatchObject({
      code: 1,
      stdout: '',
      stderr: "error[E020]: section not found: 'auth'\n\nDid you mean one of these?\n  - Authentication (SKILL.md)\n",
    });
    expect((await cli(['show', 'guide', '--section', 'zzz'], t)).stderr).toBe("error[E020]: section not found: 'zzz'\n");
  });

  it('C-OPEN: any file as-is; E012 outside the root (.., absolute, symlink); E021 missing or a directory', async () => {
    const t = home();
    expect((await cli(['open', 'guide', 'notes.txt'], t)).stdout).toBe('plain text about tokens\n');
    expect((await cli(['open', 'guide', 'SKILL.md', '--max-lines', '2'], t)).stdout).toBe('---\nname: "guide"\n... (18 more lines)\n');
    symlinkSync('/etc/hostname', join(t.skills, 'guide', 'link'));
    for (const path of ['../other/SKILL.md', '/etc/passwd', 'link']) {
      expect(await cli(['open', 'guide', path], t)).toMatchObject({ code: 1, stderr: `error[E012]: path escapes skill root: '${path}'\n` });
    }
    expect(await cli(['open', 'guide', 'missing.md'], t)).toMatchObject({ code: 1, stderr: "error[E021]: file not found: 'missing.md'\n" });
    expect((await cli(['open', 'guide', 'references'], t)).stderr).toBe("error[E021]: file not found: 'references'\n");
  });

  it('C-OPEN: a font that is not UTF-8 reaches stdout byte for byte (in process and from the real bin), and as base64 in JSON', async () => {
    const t = home();
    copyFixtureSkill(t.skills, 'font-skill');
    const font = readFileSync(fixturePath('font-skill', 'assets/glyphs.ttf'));
    expect((await cli(['open', 'font-skill', 'assets/glyphs.ttf'], t)).stdoutBytes).toEqual(font);
    const json = JSON.parse((await cli(['open', 'font-skill', 'assets/glyphs.ttf', '--json'], t)).stdout) as { encoding: string; content: string };
    expect(json.encoding).toBe('base64');
    expect(Buffer.from(json.content, 'base64')).toEqual(font);
    const real = await cliProcessBytes(['open', 'font-skill', 'assets/glyphs.ttf'], t.env);
    expect(real).toMatchObject({ code: 0, stderr: '' });
    expect(real.stdout).toEqual(font);
  });

  it('C-OPEN: any bytes in a skill file come back unchanged through the CLI (property)', async () => {
    const t = home();
    const file = join(t.skills, 'guide', 'blob.bin');
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        writeFileSync(file, bytes);
        expect((await cli(['open', 'guide', 'blob.bin'], t)).stdoutBytes).toEqual(Buffer.from(bytes));
        const json = JSON.parse((await cli(['open', 'guide', 'blob.bin', '--json'], t)).stdout) as { encoding: 'utf-8' | 'base64'; content: string };
        expect(Buffer.from(json.content, json.encoding === 'base64' ? 'base64' : 'utf8')).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 60 },
    );
  });

  it('C-SOURCES: tree with directories first; --dir scoping; E012 and E022; --limit truncation', async () => {
    const t = home();
    expect((await cli(['sources', 'guide'], t)).stdout).toBe('guide/\n├── references/\n│   └── advanced.md\n├── SKILL.md\n└── notes.txt\n');
    expect((await cli(['sources', 'guide', '--depth', '1'], t)).stdout).toBe('guide/\n├── references/ (1 files)\n├── SKILL.md\n└── notes.txt\n');
    expect((await cli(['sources', 'guide', '--limit', '2'], t)).stdout).toBe('guide/\n├── references/\n│   └── advanced.md\n└── ... (2 more)\n');
    expect((await cli(['sources', 'guide', '--dir', '..'], t)).stderr).toBe("error[E012]: path escapes skill root: '..'\n");
    expect((await cli(['sources', 'guide', '--dir', 'nope'], t)).stderr).toBe("error[E022]: directory not found: 'nope'\n");
    expect(JSON.parse((await cli(['sources', 'guide', '--format', 'json'], t)).stdout)).toMatchObject({ total: 4 });
  });

  it('RFC-0001:C-INPUT: build refuses a SKILL.md without name or description (E011)', async () => {
    const t = home();
    writeSkill(t.skills, 'nameless', '---\ndescription: no name here\n---\n# Body\n');
    writeSkill(t.skills, 'undescribed', '---\nname: undescribed\n---\n# Body\n');
    expect(await cli(['build', 'nameless'], t)).toMatchObject({ code: 1, stderr: "error[E011]: missing frontmatter field 'name' in SKILL.md\n" });
    expect(await cli(['build', join(t.skills, 'undescribed')], t)).toMatchObject({
      code: 1,
      stderr: "error[E011]: missing frontmatter field 'description' in SKILL.md\n",
    });
  });

  it('build --all builds every loaded skill and reports each failure with its code', async () => {
    const t = home();
    writeSkill(t.skills, 'nameless', '---\ndescription: no name here\n---\n# Body\n');
    const outcome = await cli(['build', '--all'], t);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain('guide: created');
    expect(outcome.stderr).toBe("nameless: error[E011]: missing frontmatter field 'name' in SKILL.md\n");
  });

  it('C-ERRORS: E001 for no skill, E010 for a directory without SKILL.md, E100 for bad options, E101 for a line that does not fit — all exit 1', async () => {
    const t = home();
    mkdirSync(join(t.skills, 'empty'));
    expect(await cli(['outline', 'nope'], t)).toMatchObject({ code: 1, stderr: "error[E001]: skill 'nope' not found\n" });
    expect((await cli(['outline', 'empty'], t)).stderr).toBe(`error[E010]: not a valid skill: '${join(t.skills, 'empty')}' (missing SKILL.md)\n`);
    expect((await cli(['outline', 'guide', '--level', 'x'], t)).stderr).toMatch(
      /^error\[E100\]: --level expects an integer, got 'x'\nusage: skilltray outline <skill> \[options\]\n/,
    );
    expect((await cli(['outline', 'guide', '--level', '7'], t)).stderr).toMatch(/^error\[E100\]: --level must be/);
    expect((await cli(['show', 'guide'], t)).stderr).toMatch(
      /^error\[E101\]: show needs <section>, the heading to show\nusage: skilltray show <skill> <section> \[options\]\n/,
    );
  });
});

describe('RFC-0004 search through the CLI (--strict)', () => {
  it('C-SEARCH: E002 before a build; BM25 JSON with [MATCH] snippets after; porter stemming', async () => {
    const t = home();
    expect((await cli(['search', 'guide', 'token', '--strict'], t)).stderr).toBe(
      "error[E002]: search index not built yet; run 'skilltray build guide' to build it\n",
    );
    expect((await cli(['build', 'guide'], t)).stdout).toBe('guide: created (8 sections, porter)\n');
    expect((await cli(['build', 'guide'], t)).stdout).toBe('guide: up-to-date\n');
    const result = JSON.parse((await cli(['search', 'guide', 'configuring', '--format', 'json', '--strict'], t)).stdout);
    expect(result.query).toBe('configuring');
    expect(result.results.map((r: { file: string; section: string }) => `${r.file}#${r.section}`)).toEqual(
      expect.arrayContaining(['SKILL.md#Authentication', 'references/advanced.md#Performance']),
    );
    for (const r of result.results) {
      expect(r.score).toBeGreaterThan(0);
      expect(r.snippet).toMatch(/\[MATCH\]Configur\w*\[\/MATCH\]/i);
    }
    expect(JSON.parse((await cli(['search', 'guide', 'zebra', '--json', '--strict'], t)).stdout)).toEqual({ query: 'zebra', results: [] });
    expect((await cli(['search', 'guide', 'token', '--strict'], t)).stdout).toMatch(/^[\w.]+#[^\n]* \(score: \d+\.\d\d\)\n {2}\S/);
  });

  it('C-QUERY-SYNTAX: an empty or whitespace query is E004', async () => {
    const t = home();
    await cli(['build', 'guide'], t);
    expect(await cli(['search', 'guide', ' \t '], t)).toMatchObject({ code: 1, stderr: 'error[E004]: empty query\n' });
    expect(await cli(['search', 'guide', ' \t ', '--strict'], t)).toMatchObject({ code: 1, stderr: 'error[E004]: empty query\n' });
  });

  it('C-INDEX: a stale index (the skill changed) is E002 under --strict until rebuilt; a plain read rebuilds it', async () => {
    const t = home();
    await cli(['build', 'guide'], t);
    writeFileSync(
      join(t.skills, 'guide', 'SKILL.md'),
      skillMd({ name: 'guide', description: 'A guide.', version: '1.0.0' }, '# Skill Name\n\n## Changed\n\nNew text.\n'),
    );
    expect((await cli(['show', 'guide', 'Changed', '--strict'], t)).stderr).toBe(
      "error[E002]: search index unusable; run 'skilltray build guide' to rebuild\n",
    );
    expect(await cli(['show', 'guide', 'Changed'], t)).toMatchObject({ code: 0, stdout: '## Changed\n\nNew text.\n' });
    expect((await cli(['build', 'guide'], t)).stdout).toBe('guide: up-to-date\n');
  });
});

describe('search through the CLI: one result model', () => {
  it('a lone query searches every skill, tools first, sections titled by their trail; JSON carries the same hits', async () => {
    const t = home();
    writeSkill(t.skills, 'other', skillMd({ name: 'other', description: 'Tokens everywhere.', version: '1.0.0' }, '# Tokens\n\nA token, a token.\n'));
    const result = JSON.parse((await cli(['search', 'token', '--json'], t)).stdout);
    expect(result).toMatchObject({ query: 'token', matched: 'all' });
    expect(new Set(result.results.map((r: { skill: string }) => r.skill))).toEqual(new Set(['guide', 'other']));
    expect(result.results.map((r: { rank: number }) => r.rank)).toEqual(result.results.map((_: unknown, i: number) => i + 1));
    expect((await cli(['search', 'authentication'], t)).stdout).toBe(
      ' 1. guide: API Reference › Authentication (SKILL.md:14)\n    Configure authentication with a token.\n',
    );
    // --all: every skill for every word, even when the first names a skill.
    expect(JSON.parse((await cli(['search', '--all', 'guide', 'token', '--json'], t)).stdout)).toMatchObject({ query: 'guide token' });
  });

  it('several words: the first names a skill → that skill for the rest; names none → every skill for all of them, said on stderr', async () => {
    const t = home();
    const inGuide = await cli(['search', 'guide', 'token', '--json'], t);
    expect(inGuide.stderr).toBe('');
    expect(new Set(JSON.parse(inGuide.stdout).results.map((r: { skill: string }) => r.skill))).toEqual(new Set(['guide']));
    const everywhere = await cli(['search', 'configure', 'token', '--json'], t);
    expect(everywhere.stderr).toBe('note: no skill is named \'configure\', so every skill was searched for "configure token"\n');
    expect(JSON.parse(everywhere.stdout)).toMatchObject({ query: 'configure token', results: [{ section: 'Authentication' }] });
    // A path that is no skill is still an error: only a plain word falls back.
    expect((await cli(['search', './nowhere', 'token'], t)).stderr).toBe("error[E001]: skill './nowhere' not found\n");
  });
});

describe('a search that finds nothing says so (issue 39)', () => {
  it('"no results for …" on stderr and in the JSON, with the query that finds something when a word was mistyped; exit 0', async () => {
    const t = home();
    const none = await cli(['search', 'xyzzy'], t);
    expect(none).toMatchObject({ code: 0, stdout: '', stderr: 'no results for "xyzzy"\n' });
    expect(JSON.parse((await cli(['search', 'xyzzy', '--json'], t)).stdout)).toMatchObject({
      results: [],
      skill: null,
      message: 'no results for "xyzzy"',
      did_you_mean: null,
    });
    const typo = await cli(['search', 'authentcation', '--json'], t);
    expect(typo.stderr).toBe('no results for "authentcation"; did you mean "authentication"?\n');
    expect(JSON.parse(typo.stdout)).toMatchObject({ results: [], did_you_mean: 'authentication' });
    // Found: no message.
    expect(JSON.parse((await cli(['search', 'authentication', '--json'], t)).stdout)).toMatchObject({ message: null, did_you_mean: null });
  });

  it('when the first word named a skill and the search stayed inside it, it says so', async () => {
    const t = home();
    writeSkill(t.skills, 'other', skillMd({ name: 'other', description: 'Other things.' }, '# Zebras\n\nStriped horses.\n'));
    const inGuide = await cli(['search', 'guide', 'zebras'], t);
    expect(inGuide).toMatchObject({ code: 0, stdout: '' });
    expect(inGuide.stderr).toBe(
      [
        'note: \'guide\' names a skill, so only it was searched for "zebras"; search --all guide zebras searches every skill for all the words',
        'no results for "zebras" in skill \'guide\'',
        '',
      ].join('\n'),
    );
    expect(JSON.parse((await cli(['search', 'guide', 'zebras', '--json'], t)).stdout)).toMatchObject({ skill: 'guide', results: [] });
  });

  it('a broken skill comes last and is marked, with no run hint that cannot work', async () => {
    const t = home();
    const tool =
      '## Tools\n\n### greet\n\nGreet someone by name.\n\n#### Parameters\n\n| name | type | required | description |\n|---|---|---|---|\n| who | string | yes | whom |\n\n#### Command\n\n```\necho hello <<who>>\n```\n';
    // Its name differs from its folder (E407): it loads, and will not run.
    writeSkill(t.skills, 'hello', skillMd({ name: 'not-hello', description: 'Greets.' }, `# Hello\n\n${tool}`));
    writeSkill(t.skills, 'welcome', skillMd({ name: 'welcome', description: 'Welcomes guests.' }, '# Welcome\n\nGreet a guest at the door.\n'));
    const result = JSON.parse((await cli(['search', 'greet', '--json'], t)).stdout);
    expect(result.results.map((hit: { skill: string; errors: string[] }) => [hit.skill, hit.errors])).toEqual([
      ['welcome', []],
      ['hello', ['E407']],
    ]);
    const text = (await cli(['search', 'greet'], t)).stdout;
    expect(text).toContain('    broken (E407): it will not run until fixed · skilltray check hello\n');
    expect(text).not.toContain('skilltray run hello');
  });
});

describe('RFC-0003 stats and RFC-0007 access logging through the CLI', () => {
  it('every access is logged and stats aggregates it; bad group/filters are E030/E031', async () => {
    const t = home();
    await cli(['build', 'guide'], t);
    await cli(['show', 'guide', '--section', 'Endpoints'], t);
    await cli(['show', 'guide', '--section', 'nothing'], t);
    await cli(['search', 'guide', 'token'], t);
    await cli(['open', 'guide', 'notes.txt'], t);
    const summary = JSON.parse((await cli(['stats', 'guide', '--format', 'json'], t)).stdout);
    expect(summary).toMatchObject({ skill: 'guide', query: 'summary', data: { total_accesses: 5, unique_sections: 1, unique_files: 2, error_count: 1 } });
    const commands = JSON.parse((await cli(['stats', 'guide', '--group-by', 'commands', '--json'], t)).stdout);
    expect(commands.data).toMatchObject({ build: 1, show: 2, search: 1, open: 1 });
    expect((await cli(['stats', 'guide', '--group-by', 'searches'], t)).stderr).toBe("error[E030]: invalid query type: 'searches'\n");
    expect((await cli(['stats', 'guide', '--since', 'yesterday'], t)).stderr).toMatch(/^error\[E031\]: invalid filter: /);
  });
});
