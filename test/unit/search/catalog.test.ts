import { appendFileSync, closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogPath, SkillCatalog, type CatalogSkill } from '../../../src-main/core/search/catalog.js';
import { catalogMatch } from '../../../src-main/core/search/catalog-sql.js';
import { unspacedMatch } from '../../../src-main/core/search/unspaced-text.js';
import { DEFAULT_SEARCH_LIMIT } from '../../../src-main/core/search/query.js';
import { manifestHash, walkSkill } from '../../../src-main/core/skills/walk.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';

function skill(parent: string, name: string, body: string): CatalogSkill {
  const dir = makeSkill(parent, name, { 'SKILL.md': `---\nname: ${name}\ndescription: ${name} skill\n---\n${body}` });
  return { name, dir, hash: manifestHash(walkSkill(dir).files) };
}

/** The entry with its tools as the loader reads them (names, and their Commands as callers see them). */
function withTools(entry: CatalogSkill): CatalogSkill {
  const parsed = parseSkill(entry.dir, { path: join(entry.dir, '..'), kind: 'env', trust: 'user', syntax: 'angle' });
  return { ...entry, commands: { syntax: parsed.syntax, tools: parsed.tools } };
}

function rehash(entry: CatalogSkill): CatalogSkill {
  return { ...entry, hash: manifestHash(walkSkill(entry.dir).files) };
}

function open(home: string): SkillCatalog {
  return SkillCatalog.open(home);
}

describe('catalog search across all skills', () => {
  it('lives at <home>/runtime/.catalog/search.db', () => {
    expect(catalogPath('/h')).toBe('/h/runtime/.catalog/search.db');
  });

  it('indexes every skill and its results name their skill', () => {
    const home = tempDir();
    const roots = tempDir();
    const skills = [skill(roots, 'pdf', '# Merge\n\nCombine PDF pages.\n'), skill(roots, 'git', '# Rebase\n\nRewrite commits onto another branch.\n')];
    const catalog = open(home);
    expect(catalog.sync(skills)).toEqual({ added: ['pdf', 'git'], updated: [], removed: [], unchanged: 0, rebuilt: false });
    const result = catalog.search('commits');
    expect(result).toEqual({
      query: 'commits',
      matched: 'all',
      results: [
        {
          skill: 'git',
          file: 'SKILL.md',
          section: 'Rebase',
          about: false,
          title: 'Rebase',
          trail: [],
          tool: null,
          level: 1,
          startLine: 5,
          endLine: 8,
          snippet: 'Rewrite [MATCH]commits[/MATCH] onto another branch.',
          score: 1,
        },
      ],
    });
    catalog.close();
  });

  it("reads the files a skill's load walked when it is given them, and walks its folder when not", () => {
    const home = tempDir();
    const parent = tempDir();
    const deploy = skill(parent, 'deploy', '# Deploy\n\nShip the release.\n');
    writeFileSync(join(deploy.dir, 'notes.md'), '# Rollback\n\nUndo a release.\n');
    const catalog = open(home);
    // The load walked SKILL.md alone: notes.md came after it and is not read.
    const walked = walkSkill(deploy.dir).files.filter((file) => file.rel === 'SKILL.md');
    catalog.sync([{ ...deploy, files: walked }]);
    expect(catalog.search('rollback').results).toEqual([]);
    expect(catalog.search('release').results.map((hit) => hit.file)).toEqual(['SKILL.md']);
    catalog.sync([{ ...deploy, hash: `${deploy.hash}-again` }]);
    expect(catalog.search('rollback').results.map((hit) => hit.file)).toEqual(['notes.md']);
    catalog.close();
  });

  it('incremental: a changed skill is the only one reindexed; unchanged skills keep their rows', () => {
    const home = tempDir();
    const roots = tempDir();
    const skills = [skill(roots, 'a', '# A\n\nalpha\n'), skill(roots, 'b', '# B\n\nbravo\n'), skill(roots, 'c', '# C\n\ncharlie\n')];
    const catalog = open(home);
    catalog.sync(skills);
    const rowids = (name: string): number[] => {
      const db = new Database(catalogPath(home), { readonly: true });
      const rows = db.prepare('SELECT id FROM catalog_rows WHERE skill = ? ORDER BY id').all(name) as { id: number }[];
      db.close();
      return rows.map((r) => r.id);
    };
    const before = { a: rowids('a'), c: rowids('c') };
    appendFileSync(join(skills[1]!.dir, 'SKILL.md'), '\n## Extra\n\nbrandnew words\n');
    const changed = [skills[0]!, rehash(skills[1]!), skills[2]!];
    expect(catalog.sync(changed)).toEqual({ added: [], updated: ['b'], removed: [], unchanged: 2, rebuilt: false });
    expect(rowids('a')).toEqual(before.a);
    expect(rowids('c')).toEqual(before.c);
    // The new subsection is its own row and part of its parent's row: one hit, the subsection, under its parent.
    expect(catalog.search('brandnew').results.map((r) => [r.skill, r.section, r.trail])).toEqual([['b', 'Extra', ['B']]]);
    expect(catalog.sync(changed)).toEqual({ added: [], updated: [], removed: [], unchanged: 3, rebuilt: false });
    catalog.close();
  });

  it('removes skills no longer loaded and replaces a skill whose directory changed', () => {
    const home = tempDir();
    const roots = tempDir();
    const a = skill(roots, 'a', '# A\n\nalpha\n');
    const b = skill(roots, 'b', '# B\n\nbravo\n');
    const catalog = open(home);
    catalog.sync([a, b]);
    expect(catalog.sync([a])).toMatchObject({ removed: ['b'], unchanged: 1 });
    expect(catalog.search('bravo').results).toEqual([]);
    const moved = skill(join(roots, 'other'), 'a', '# A\n\nalpha moved\n');
    expect(catalog.sync([moved])).toMatchObject({ updated: ['a'] });
    expect(catalog.skills()).toEqual([{ name: 'a', dir: moved.dir, hash: moved.hash, sections: 1 }]);
    catalog.close();
  });

  it('remembers its skill records between syncs, and reads them again once another process has written the catalog', () => {
    const home = tempDir();
    const roots = tempDir();
    const a = skill(roots, 'a', '# A\n\nalpha\n');
    const b = skill(roots, 'b', '# B\n\nbravo\n');
    const app = open(home);
    const cli = open(home);
    try {
      expect(app.sync([a])).toMatchObject({ added: ['a'] });
      expect(app.sync([a])).toMatchObject({ unchanged: 1, added: [] });
      // Another connection (a CLI process) adds b and then replaces a with other content.
      expect(cli.sync([a, b])).toMatchObject({ added: ['b'], unchanged: 1 });
      const edited = skill(join(roots, 'edited'), 'a', '# A\n\nalpha edited\n');
      expect(cli.sync([edited, b])).toMatchObject({ updated: ['a'] });
      expect(app.sync([a])).toEqual({ added: [], updated: ['a'], removed: ['b'], unchanged: 0, rebuilt: false });
      expect(app.search('bravo').results).toEqual([]);
      expect(app.skills()).toEqual([{ name: 'a', dir: a.dir, hash: a.hash, sections: 1 }]);
    } finally {
      app.close();
      cli.close();
    }
  });

  it('keeps its state across processes: reopening sees the synced skills', () => {
    const home = tempDir();
    const a = skill(tempDir(), 'a', '# A\n\nalpha\n');
    const first = open(home);
    first.sync([a]);
    first.close();
    const second = open(home);
    expect(second.sync([a])).toMatchObject({ unchanged: 1, added: [] });
    expect(second.search('alpha').results.map((r) => [r.skill, r.section])).toEqual([['a', 'A']]);
    second.close();
  });

  it('survives corruption: garbage bytes are detected on open and the catalog is rebuilt', () => {
    const home = tempDir();
    const a = skill(tempDir(), 'a', '# A\n\nalpha\n');
    mkdirSync(join(home, 'runtime', '.catalog'), { recursive: true });
    writeFileSync(catalogPath(home), Buffer.alloc(8192, 0x5a));
    const catalog = open(home);
    expect(catalog.sync([a])).toEqual({ added: ['a'], updated: [], removed: [], unchanged: 0, rebuilt: true });
    expect(catalog.search('alpha').results.length).toBeGreaterThan(0);
    catalog.close();
  });

  it('survives a damaged header SQLite calls an unsupported file format: detected on open and rebuilt', () => {
    const home = tempDir();
    const a = skill(tempDir(), 'a', '# A\n\nalpha\n');
    const first = open(home);
    first.sync([a]);
    first.close();
    // The schema format number (a big-endian integer at offset 44) is 1 to 4 in every file SQLite writes.
    const fd = openSync(catalogPath(home), 'r+');
    writeSync(fd, Buffer.from([0, 0, 0, 9]), 0, 4, 44);
    closeSync(fd);
    const second = open(home);
    expect(second.sync([a])).toMatchObject({ added: ['a'], rebuilt: true });
    expect(second.search('alpha').results.map((r) => [r.skill, r.section])).toEqual([['a', 'A']]);
    second.close();
  });

  it('survives corruption found at query time by rebuilding from the last synced skills', () => {
    const home = tempDir();
    const a = skill(tempDir(), 'a', '# A\n\nalpha\n');
    const catalog = open(home);
    catalog.sync([a]);
    const db = new Database(catalogPath(home));
    db.exec('DROP TABLE catalog');
    db.close();
    expect(catalog.search('alpha').results.map((r) => [r.skill, r.section])).toEqual([['a', 'A']]);
    catalog.close();
  });

  it('a catalog of another tokenizer or layout is rebuilt on open', () => {
    const home = tempDir();
    const a = skill(tempDir(), 'a', '# A\n\nalpha\n');
    const first = open(home);
    first.sync([a]);
    first.close();
    const db = new Database(catalogPath(home));
    db.exec("UPDATE catalog_meta SET value = 'unicode61' WHERE key = 'tokenizer'");
    db.close();
    const second = open(home);
    expect(second.sync([a])).toMatchObject({ added: ['a'], rebuilt: true });
    second.close();
  });

  it('prefix: true makes the last token a word prefix "tok"* for search-as-you-type', () => {
    expect(catalogMatch('merge pd', true)).toEqual({ stemmed: '"merge"', common: null, required: '"merge"', wordPrefix: '"pd"*', anyWord: '"merge" OR "pd"*' });
    expect(catalogMatch('say "hi', true)).toEqual({ stemmed: '"say"', common: null, required: '"say"', wordPrefix: '"""hi"*', anyWord: '"say" OR """hi"*' });
    expect(catalogMatch('pd', true)).toEqual({ stemmed: null, common: null, required: null, wordPrefix: '"pd"*', anyWord: '"pd"*' });
    expect(catalogMatch('merge pd', false)).toEqual({
      stemmed: '"merge" "pd"',
      common: null,
      required: '"merge" "pd"',
      wordPrefix: null,
      anyWord: '"merge" OR "pd"',
    });
    // Common words are a bonus for the rows that hold them (ranked apart: they add to a row's score once), never a requirement; alone, all are needed.
    expect(catalogMatch('who changed this file', false)).toMatchObject({
      stemmed: '"changed" "file"',
      common: '"who" OR "this"',
      required: '"changed" "file"',
    });
    expect(catalogMatch('who changed this file', false, 'any')).toMatchObject({ stemmed: '"changed" OR "file"' });
    expect(catalogMatch('how is it', false)).toMatchObject({ stemmed: '"how" "is" "it"' });
    const home = tempDir();
    const catalog = open(home);
    catalog.sync([skill(tempDir(), 'pdf', '# Merge\n\nCombine documents into one.\n')]);
    // A full search matches whole words: no row holds "docu", so it answers with the rows holding some of the words.
    expect(catalog.search('combine docu')).toMatchObject({ matched: 'any', results: [{ section: 'Merge' }] });
    const typed = catalog.search('combine docu', { prefix: true }).results;
    expect(typed.map((r) => r.section)).toEqual(['Merge']);
    expect(typed[0]?.snippet).toContain('[MATCH]Combine[/MATCH]');
    const first = catalog.search('docu', { prefix: true }).results;
    expect(first.map((r) => r.section)).toEqual(['Merge']);
    expect(first[0]?.snippet).toContain('[MATCH]documents[/MATCH]');
    catalog.close();
  });

  it('a partly typed word matches even where its stem is shorter than what was typed (authenticati → authentication)', () => {
    const catalog = open(tempDir());
    catalog.sync([skill(tempDir(), 'signin', '# Login\n\nToken authentication for the API.\n\n# Other\n\nnothing\n')]);
    const word = 'authentication';
    for (let i = 2; i <= word.length; i++) {
      expect(
        catalog.search(word.slice(0, i), { prefix: true }).results.map((r) => r.section),
        word.slice(0, i),
      ).toEqual(['Login']);
      expect(catalog.search(`token ${word.slice(0, i)}`, { prefix: true }).results.map((r) => r.section)).toEqual(['Login']);
    }
    // Complete words are stemmed: "tokens" finds "Token".
    expect(catalog.search('tokens authen', { prefix: true }).results.map((r) => r.section)).toEqual(['Login']);
    catalog.close();
  });

  it('an empty query is E004; limit below 1 is E100', () => {
    const catalog = open(tempDir());
    expect(thrownBy(() => catalog.search(' ')).code).toBe('E004');
    expect(thrownBy(() => catalog.search('x', { limit: 0 })).code).toBe('E100');
    catalog.close();
  });

  it('a skill directory that vanished contributes no rows and does not break the sync', () => {
    const home = tempDir();
    const roots = tempDir();
    const a = skill(roots, 'a', '# A\n\nalpha\n');
    const gone = skill(roots, 'gone', '# G\n\ngolf\n');
    rmSync(gone.dir, { recursive: true });
    const catalog = open(home);
    expect(catalog.sync([a, gone])).toMatchObject({ added: ['a', 'gone'] });
    expect(catalog.search('golf').results).toEqual([]);
    catalog.close();
  });
});

/** A skill laid out as the bundled git pack is: an intro that mentions everything, then tools. */
const GIT_LIKE = `# Git

Views of a Git repository. \`git status\` may run hooks; every tool takes \`repo\`.

## Tools

### git_status

Show the current branch and every changed file.

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
| repo | string | no | Repository directory |

#### Command

\`\`\`bash
git -c core.fsmonitor=false -c log.showSignature=false -C <<repo:.>> status --short --branch
\`\`\`

#### Examples

\`\`\`
Call: git_status {}
\`\`\`

### git_log

Recent commits. Unlike git_status, it shows history.

#### Command

\`\`\`bash
git log -n 10
\`\`\`
`;

describe('a sync or check of one skill by a process that has not read the catalog (a command line)', () => {
  it('answers for that skill as a read of every record would: held and unchanged, changed, absent', () => {
    const home = tempDir();
    const roots = tempDir();
    const skills = ['pdf', 'git', 'csv'].map((name) => skill(roots, name, `# ${name}\n\nWords about ${name}.\n`));
    const writer = open(home);
    writer.sync(skills);
    writer.close();
    const git = skills[1] as CatalogSkill;
    const fresh = open(home);
    try {
      expect(fresh.holding(git)).toBeTypeOf('number');
      expect(fresh.syncOne(git)).toMatchObject({ added: [], updated: [], unchanged: 1 });
      const edited = { ...git, hash: 'another' };
      expect(fresh.holding(edited)).toBeNull();
      expect(fresh.syncOne(edited)).toMatchObject({ updated: ['git'], unchanged: 0 });
      expect(fresh.holding({ ...git, name: 'absent' })).toBeNull();
      expect(
        fresh
          .skills()
          .map((held) => held.name)
          .sort(),
      ).toEqual(['csv', 'git', 'pdf']);
    } finally {
      fresh.close();
    }
  });
});

describe('results people can scan', () => {
  function gitCatalog(): SkillCatalog {
    const catalog = open(tempDir());
    const roots = tempDir();
    catalog.sync([
      withTools(skill(roots, 'git', GIT_LIKE)),
      skill(roots, 'notes', '# Notes\n\nThe status of git at work: see the git skill for git status and more.\n'),
    ]);
    return catalog;
  }

  it('the tool whose heading holds every word comes first, in full and in prefix mode alike', () => {
    const catalog = gitCatalog();
    for (const prefix of [false, true]) {
      const [first] = catalog.search('git status', { prefix }).results;
      expect(first, `prefix ${prefix}`).toMatchObject({
        skill: 'git',
        section: 'git_status',
        tool: 'git_status',
        trail: ['Git', 'Tools'],
        title: '[MATCH]git[/MATCH]_[MATCH]status[/MATCH]',
      });
    }
    // While the last word is still being typed, too.
    expect(catalog.search('git stat', { prefix: true }).results[0]).toMatchObject({ section: 'git_status', title: '[MATCH]git[/MATCH]_[MATCH]status[/MATCH]' });
    catalog.close();
  });

  it('marks every query word in the snippet, the word being typed included', () => {
    const catalog = gitCatalog();
    const notes = catalog.search('git stat', { prefix: true }).results.find((hit) => hit.skill === 'notes');
    expect(notes?.snippet).toBe(
      'The [MATCH]status[/MATCH] of [MATCH]git[/MATCH] at work: see the [MATCH]git[/MATCH] skill for [MATCH]git[/MATCH] [MATCH]status[/MATCH] and more.',
    );
    catalog.close();
  });

  it('a section, its parent and its subsections are one hit; hits are grouped by skill', () => {
    const catalog = gitCatalog();
    const hits = catalog.search('git status').results;
    const where = hits.map((hit) => `${hit.skill}:${hit.section}`);
    // Git (the intro), Tools and the tool's own subsections all hold or sit in git_status: they are not repeated.
    expect(where.filter((w) => w.startsWith('git:'))).not.toContain('git:Git');
    expect(where).not.toContain('git:Tools');
    expect(where).not.toContain('git:Examples');
    expect(where).not.toContain('git:Command');
    // Each skill's hits sit together.
    const skills = hits.map((hit) => hit.skill);
    expect(skills).toEqual([...skills].sort((a, b) => skills.indexOf(a) - skills.indexOf(b)));
    catalog.close();
  });

  it('snippets are plain text on one line: no heading marks, fences, table pipes, backticks or YAML brackets', () => {
    const catalog = gitCatalog();
    const hits = [...catalog.search('repo').results, ...catalog.search('branch', { prefix: true }).results, ...catalog.search('git skill').results];
    expect(hits.length).toBeGreaterThan(2);
    for (const hit of hits) {
      expect(hit.snippet).not.toMatch(/[#`|\n]|\[(?!\/?MATCH\])|---/);
    }
    catalog.close();
  });
});

describe('scripts written without spaces: any part of a run is found (unspaced-text.ts)', () => {
  const ZH =
    '# 会议记录助手\n\n## 适用场景\n\n当用户需要整理会议纪要、提炼行动项时使用本技能。\n\n## 使用方法\n\n把会议记录交给助手，助手会列出每项决定和负责人。\n';

  function zhCatalog(): SkillCatalog {
    const catalog = open(tempDir());
    const roots = tempDir();
    catalog.sync([
      skill(roots, 'zh-notes', ZH),
      skill(roots, 'git', '# Log\n\nShow recent commits.\n'),
      skill(roots, 'ko', '# 도움말\n\n전체검색기능을 씁니다.\n'),
    ]);
    return catalog;
  }

  it('a part of a heading or of prose finds its section, the part marked', () => {
    const catalog = zhCatalog();
    const heading = catalog.search('适用').results;
    expect(heading.map((hit) => [hit.skill, hit.section])).toEqual([['zh-notes', '适用场景']]);
    expect(heading[0]?.title).toBe('[MATCH]适用[/MATCH]场景');
    const prose = catalog.search('行动').results;
    expect(prose.map((hit) => hit.section)).toEqual(['适用场景']);
    expect(prose[0]?.snippet).toContain('提炼[MATCH]行动[/MATCH]项');
    // The whole run still finds it, as unicode61 did.
    expect(catalog.search('适用场景').results.map((hit) => hit.section)).toEqual(['适用场景']);
    catalog.close();
  });

  it('ranks a heading above prose, as the word index does', () => {
    const catalog = zhCatalog();
    // 使用 is the heading of 使用方法 and part of the prose of 适用场景.
    expect(catalog.search('使用').results.map((hit) => hit.section)).toEqual(['使用方法', '适用场景']);
    catalog.close();
  });

  it('a lone character is a prefix of its pairs; Korean runs too; a Latin word in the query is needed too', () => {
    const catalog = zhCatalog();
    expect(catalog.search('纪').results.map((hit) => hit.section)).toEqual(['适用场景']);
    expect(catalog.search('검색').results.map((hit) => [hit.skill, hit.section])).toEqual([['ko', '도움말']]);
    // Nothing holds both: the rows that hold one of the words come, and say so.
    expect(catalog.search('负责人 zzz')).toMatchObject({ matched: 'any', results: [{ skill: 'zh-notes' }] });
    expect(catalog.search('zzz 负责人x').results).toEqual([]);
    expect(catalog.search('适用 zh')).toMatchObject({ matched: 'any', results: [{ section: '适用场景' }] });
    expect(catalog.search('适 zh-not', { prefix: true })).toMatchObject({ matched: 'any', results: [{ section: '适用场景' }] });
    expect(catalog.search('适zh-not', { prefix: true }).results).toEqual([]);
    catalog.close();
  });

  it('Latin queries keep the word indexes and their ranking: the pair index is never asked', () => {
    expect(unspacedMatch('git log', false)).toBeNull();
    expect(unspacedMatch('git lo', true)).toBeNull();
    expect(unspacedMatch('git 提交', false)).toEqual({ expression: '"git" "提交"', pieces: ['git', '提交'] });
    expect(unspacedMatch('提交 mes', true)).toEqual({ expression: '"提交" "mes"*', pieces: ['提交', 'mes'] });
    const catalog = zhCatalog();
    expect(catalog.search('commits').results.map((hit) => [hit.skill, hit.snippet])).toEqual([['git', 'Show recent [MATCH]commits[/MATCH].']]);
    catalog.close();
  });

  it('a changed skill leaves no pairs of its old text behind', () => {
    const home = tempDir();
    const roots = tempDir();
    const first = skill(roots, 'zh', '# 标题\n\n旧的内容在这里。\n');
    const catalog = open(home);
    catalog.sync([first]);
    expect(catalog.search('内容').results).toHaveLength(1);
    writeFileSync(join(first.dir, 'SKILL.md'), '---\nname: zh\ndescription: zh skill\n---\n# 标题\n\n新的文字。\n');
    catalog.sync([rehash(first)]);
    expect(catalog.search('内容').results).toEqual([]);
    expect(catalog.search('文字').results).toHaveLength(1);
    catalog.sync([]);
    expect(catalog.search('文字').results).toEqual([]);
    catalog.close();
  });

  it('a cold sync of many skills (the bulk path, triggers dropped) fills the pair index too, and a later edit keeps it exact', () => {
    const roots = tempDir();
    const many = Array.from({ length: 80 }, (_, i) => skill(roots, `latin-${i}`, `# Tool ${i}\n\nPlain words only.\n`));
    const zh = skill(roots, 'zh-notes', ZH);
    const catalog = open(tempDir());
    catalog.sync([...many, zh]);
    expect(catalog.search('行动').results.map((hit) => [hit.skill, hit.section])).toEqual([['zh-notes', '适用场景']]);
    writeFileSync(join(zh.dir, 'SKILL.md'), '---\nname: zh-notes\ndescription: zh skill\n---\n# 标题\n\n新的文字。\n');
    catalog.sync([...many, rehash(zh)]);
    expect(catalog.search('行动').results).toEqual([]);
    expect(catalog.search('文字').results.map((hit) => hit.skill)).toEqual(['zh-notes']);
    catalog.close();
  });

  it('every part of any run of Han, kana or Thai is found, and marked where it is (property)', () => {
    const char = fc.constantFrom(...'会议记录助手适用场景提炼行动项ひらがなカタカナภาษาไทย𠮶𨋢');
    const catalog = open(tempDir());
    const roots = tempDir();
    fc.assert(
      fc.property(fc.array(char, { minLength: 1, maxLength: 16 }), fc.nat(), fc.nat(), (chars, from, length) => {
        const run = chars.join('');
        const start = from % chars.length;
        const part = chars.slice(start, start + 1 + (length % (chars.length - start))).join('');
        catalog.sync([skill(roots, 'p', `# Heading\n\nlead ${run} tail\n`)]);
        const hits = catalog.search(part).results;
        expect(hits.map((hit) => hit.skill)).toEqual(['p']);
        expect(hits[0]?.snippet).toContain(`[MATCH]${part}[/MATCH]`);
        catalog.sync([]);
      }),
      { numRuns: 60 },
    );
    catalog.close();
  });
});

describe('the prefix index a cold sync leaves to the first prefix search (catalog_words)', () => {
  /** Many skills (the bulk path), each with words only it holds. */
  function manySkills(count: number): CatalogSkill[] {
    const roots = tempDir();
    return Array.from({ length: count }, (_, i) =>
      skill(roots, `tool-${i}`, `# Deploy ${i}\n\nShip release ${i} to staging${i % 7}.\n\n## Rollback\n\nRestore the previous build of item${i}.\n`),
    );
  }

  /** A catalog bulk-synced with 80 such skills, in its own home. */
  function bulkSynced(): { skills: CatalogSkill[]; home: string; catalog: SkillCatalog } {
    const skills = manySkills(80);
    const home = tempDir();
    const catalog = open(home);
    catalog.sync(skills);
    return { skills, home, catalog };
  }

  /** What the file says of catalog_words: whether its triggers are there, and how many rows it finds for a prefix. */
  function wordsState(home: string, prefix: string): { triggers: number; found: number } {
    const db = new Database(catalogPath(home), { readonly: true });
    try {
      const triggers = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'catalog_words_%'").pluck().get() as number;
      const found = db.prepare('SELECT count(*) FROM catalog_words WHERE catalog_words MATCH ?').pluck().get(`"${prefix}"*`) as number;
      return { triggers, found };
    } finally {
      db.close();
    }
  }

  const QUERIES = ['stag', 'deploy resto', 'item1', 'rollback previ', 'ship'];

  /** The prefix answers of a catalog each of `skills` reached one sync at a time (no bulk path: the index kept by its triggers). */
  function onePerSync(skills: readonly CatalogSkill[]): unknown[] {
    const catalog = open(tempDir());
    for (let i = 1; i <= skills.length; i++) catalog.sync(skills.slice(0, i));
    const answers = QUERIES.map((query) => catalog.search(query, { prefix: true, limit: 50 }));
    catalog.close();
    return answers;
  }

  it('a bulk sync leaves it unbuilt; the first prefix search builds it, answering as an index kept all along does', () => {
    const { skills, home, catalog } = bulkSynced();
    expect(wordsState(home, 'stag')).toEqual({ triggers: 0, found: 0 });
    // A full search never reads it.
    expect(catalog.search('staging3').results.map((hit) => hit.skill)).toEqual(expect.arrayContaining(['tool-3', 'tool-10']));
    expect(wordsState(home, 'stag').triggers).toBe(0);
    const answers = QUERIES.map((query) => catalog.search(query, { prefix: true, limit: 50 }));
    expect(wordsState(home, 'stag')).toEqual({ triggers: 2, found: 80 });
    expect(answers).toEqual(onePerSync(skills));
    expect(answers[0]?.results.length).toBeGreaterThan(10);
    catalog.close();
  });

  it('edits synced while it is unbuilt are in it once built: a changed skill found by its new words only, a removed one gone', () => {
    const { skills, home, catalog } = bulkSynced();
    const changed = skills[5] as CatalogSkill;
    writeFileSync(join(changed.dir, 'SKILL.md'), '---\nname: tool-5\ndescription: tool-5 skill\n---\n# Archive\n\nCompress the quarterly ledgers.\n');
    const next = [...skills.slice(0, 5), rehash(changed), ...skills.slice(6, 79)];
    expect(catalog.sync(next)).toMatchObject({ updated: ['tool-5'], removed: ['tool-79'] });
    expect(wordsState(home, 'stag').triggers).toBe(0);
    expect(catalog.search('quarter', { prefix: true }).results.map((hit) => hit.skill)).toEqual(['tool-5']);
    expect(catalog.search('item5', { prefix: true }).results.map((hit) => hit.skill)).not.toContain('tool-5');
    expect(catalog.search('item79', { prefix: true }).results).toEqual([]);
    // Kept by its triggers from then on.
    writeFileSync(join(changed.dir, 'SKILL.md'), '---\nname: tool-5\ndescription: tool-5 skill\n---\n# Archive\n\nCompress the yearly ledgers.\n');
    catalog.sync([...next.slice(0, 5), rehash(changed), ...next.slice(6)]);
    expect(catalog.search('quarter', { prefix: true }).results).toEqual([]);
    expect(catalog.search('year', { prefix: true }).results.map((hit) => hit.skill)).toEqual(['tool-5']);
    catalog.close();
  });

  it('built by one process, it is whole for another that has the catalog open', () => {
    const { skills, home, catalog: first } = bulkSynced();
    const second = open(home);
    second.sync(skills);
    expect(second.search('stag', { prefix: true }).results.length).toBeGreaterThan(0);
    expect(wordsState(home, 'stag').triggers).toBe(2);
    expect(first.search('stag', { prefix: true })).toEqual(second.search('stag', { prefix: true }));
    first.close();
    second.close();
  });

  it('a long-running process builds it in the background, before anyone types', async () => {
    const home = tempDir();
    const catalog = open(home);
    await catalog.syncInBackground(manySkills(80));
    expect(wordsState(home, 'stag')).toEqual({ triggers: 2, found: 80 });
    catalog.close();
  });
});

describe('a first sync of many skills indexes their rows a batch at a time while it reads them', () => {
  /** FTS5's own check that `table`'s index holds exactly the rows of its content table. */
  function integrity(home: string, table: string): void {
    const db = new Database(catalogPath(home));
    try {
      db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('integrity-check', 1)`).run();
    } finally {
      db.close();
    }
  }

  it("a skill's rows are one run of ids, recorded with it, whatever syncs came before: a search of one skill ranks that run alone", () => {
    const roots = tempDir();
    const home = tempDir();
    const made = ['a', 'b', 'c'].map((name) => skill(roots, name, `# ${name}\n\nshared words ${name}\n\n## More\n\nshared again\n`));
    const catalog = open(home);
    catalog.sync(made);
    appendFileSync(join((made[1] as CatalogSkill).dir, 'SKILL.md'), '\n## Extra\n\nshared once more\n');
    const d = skill(roots, 'd', '# d\n\nshared words d\n');
    catalog.sync([made[0] as CatalogSkill, rehash(made[1] as CatalogSkill), d]);
    catalog.syncOne(rehash(made[0] as CatalogSkill));
    const db = new Database(catalogPath(home), { readonly: true });
    const runs = db
      .prepare(
        'SELECT s.name, s.first_row, s.last_row, min(r.id) AS low, max(r.id) AS high, count(*) AS rows FROM catalog_skills s JOIN catalog_rows r ON r.skill_id = s.id GROUP BY s.id ORDER BY s.name',
      )
      .all() as { name: string; first_row: number; last_row: number; low: number; high: number; rows: number }[];
    db.close();
    expect(runs.map((run) => run.name)).toEqual(['a', 'b', 'd']);
    for (const run of runs) expect([run.first_row, run.last_row, run.rows], run.name).toEqual([run.low, run.high, run.high - run.low + 1]);
    for (const name of ['a', 'b', 'd'])
      expect(new Set(catalog.search('shared', { skill: name }).results.map((hit) => hit.skill)), name).toEqual(new Set([name]));
    expect(catalog.search('shared', { skill: 'c' }).results).toEqual([]);
    catalog.close();
  });

  it('one big skill among many is stored in bulk by its bytes, and every index stays exact: the word index kept whole, deletes gone', () => {
    const roots = tempDir();
    const skills = Array.from({ length: 40 }, (_, i) => skill(roots, `s-${i}`, `# Part ${i}\n\nWord${i} and common text.\n`));
    const home = tempDir();
    const catalog = open(home);
    catalog.sync(skills);
    // A prefix search makes the word index whole: from then on it is kept by its triggers.
    expect(catalog.search('word1', { prefix: true }).results.length).toBeGreaterThan(0);
    const triggers = (): string[] => {
      const db = new Database(catalogPath(home), { readonly: true });
      const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").pluck().all() as string[];
      db.close();
      return names;
    };
    const before = triggers();
    // Over a MiB of sections in one skill, replacing a small one: far from a quarter of the skills.
    const pages = Array.from({ length: 1200 }, (_, i) => `## Page ${i}\n\nLedger${i} ${'lorem ipsum dolor sit amet '.repeat(40)}\n`).join('\n');
    writeFileSync(join((skills[3] as CatalogSkill).dir, 'SKILL.md'), `---\nname: s-3\ndescription: s-3 skill\n---\n# Big\n\n${pages}`);
    const next = [...skills.slice(0, 3), rehash(skills[3] as CatalogSkill), ...skills.slice(4)];
    expect(catalog.sync(next)).toMatchObject({ updated: ['s-3'], unchanged: 39 });
    expect(triggers()).toEqual(before);
    for (const table of ['catalog', 'catalog_words', 'catalog_grams']) integrity(home, table);
    expect(catalog.search('ledger1199').results.map((hit) => [hit.skill, hit.section])).toEqual([['s-3', 'Page 1199']]);
    expect(catalog.search('ledger119', { prefix: true, limit: 20 }).results.map((hit) => hit.section)).toContain('Page 1199');
    expect(catalog.search('word3').results).toEqual([]);
    expect(catalog.search('word3', { prefix: true, limit: 50 }).results.map((hit) => hit.skill)).not.toContain('s-3');
    // Alone, through syncOne, as a search of that one skill syncs it.
    const big = skill(roots, 'big', `# Big\n\n${pages.replace(/Ledger/g, 'Journal')}`);
    expect(catalog.syncOne(big)).toMatchObject({ added: ['big'] });
    for (const table of ['catalog', 'catalog_words', 'catalog_grams']) integrity(home, table);
    expect(catalog.search('journal7', { prefix: true, skill: 'big' }).results.map((hit) => hit.section)).toContain('Page 7');
    catalog.close();
  });

  it('every row of 1,100 skills is indexed once, as when each was synced alone; a later bulk update (rebuilt in one pass) too', () => {
    const roots = tempDir();
    const skills = Array.from({ length: 1100 }, (_, i) =>
      skill(roots, `s-${i}`, `# Part ${i}\n\nWord${i} and common text.\n\n## 注意 ${i}\n\n用于第${i}项的说明。\n`),
    );
    const home = tempDir();
    const catalog = open(home);
    expect(catalog.sync(skills).added).toHaveLength(1100);
    integrity(home, 'catalog');
    for (const i of [0, 999, 1000, 1099]) {
      expect(
        catalog.search(`word${i}`).results.map((hit) => [hit.skill, hit.section]),
        `word${i}`,
      ).toEqual([[`s-${i}`, `Part ${i}`]]);
      expect(catalog.search(`第${i}项`).results.map((hit) => hit.skill)).toEqual([`s-${i}`]);
    }
    expect(catalog.search('common').results).toHaveLength(DEFAULT_SEARCH_LIMIT);
    // A third of them changed: rows are deleted and stored again, and the indexes rebuilt whole.
    for (const changed of skills.slice(0, 400))
      writeFileSync(join(changed.dir, 'SKILL.md'), `---\nname: ${changed.name}\ndescription: d\n---\n# Moved\n\nElsewhere now.\n`);
    const next = [...skills.slice(0, 400).map(rehash), ...skills.slice(400)];
    expect(catalog.sync(next).updated).toHaveLength(400);
    integrity(home, 'catalog');
    expect(catalog.search('word0').results).toEqual([]);
    expect(catalog.search('第0项').results).toEqual([]);
    expect(catalog.search('word1000').results.map((hit) => hit.skill)).toEqual(['s-1000']);
    catalog.close();
  });
});
