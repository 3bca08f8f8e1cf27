import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { buildIndex, locateIndex, openIndexForSearch, SCHEMA_VERSION } from '../../../src-main/core/search/skill-index.js';
import { searchSkill } from '../../support/index-reads.js';
import { tokenizerPreference } from '../../../src-main/core/search/tokenizer.js';
import { manifestHash, walkSkill } from '../../../src-main/core/skills/walk.js';
import { thisProcess } from '../../../src-main/core/process-identity.js';
import { copyRfcSkill, makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';

function setup(files?: Record<string, string>): { dir: string; runtime: string; path: string } {
  const base = tempDir();
  const dir = files === undefined ? copyRfcSkill(base) : makeSkill(base, 'skill', files);
  const runtime = join(base, 'runtime', 'skill');
  return { dir, runtime, path: locateIndex(dir, runtime).path };
}

function editMeta(path: string, sql: string): void {
  const db = new Database(path);
  db.exec(sql);
  db.close();
}

function query<T>(path: string, sql: string): T[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe('RFC-0004:C-INDEX storage', () => {
  it('names the index search-<hash16>.db after SHA-256 of the canonical source path', () => {
    const { dir, runtime } = setup();
    const hash16 = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 16);
    expect(locateIndex(dir, runtime)).toEqual({ skillPath: realpathSync(dir), hash16, path: join(runtime, '.skillc-meta', `search-${hash16}.db`) });
  });

  it('prefers the porter tokenizer when SQLite has it', () => {
    expect(tokenizerPreference()).toBe('porter');
  });

  it('has exactly the RFC schema: sections (FTS5), headings + idx_headings_text, index_meta', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    const objects = query<{ type: string; name: string; sql: string }>(
      path,
      "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sections_%' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    );
    expect(objects.map((o) => `${o.type}:${o.name}`)).toEqual(['table:headings', 'index:idx_headings_text', 'table:index_meta', 'table:sections']);
    expect(objects.find((o) => o.name === 'sections')?.sql).toBe(
      "CREATE VIRTUAL TABLE sections USING fts5(file, section, content, tokenize='porter unicode61')",
    );
    expect(objects.find((o) => o.name === 'idx_headings_text')?.sql).toBe('CREATE INDEX idx_headings_text ON headings(text COLLATE NOCASE)');
    const columns = query<{ name: string; type: string; notnull: number; pk: number }>(path, 'PRAGMA table_info(headings)');
    expect(columns.map((c) => [c.name, c.type, c.notnull, c.pk])).toEqual([
      ['id', 'INTEGER', 0, 1],
      ['file', 'TEXT', 1, 0],
      ['text', 'TEXT', 1, 0],
      ['level', 'INTEGER', 1, 0],
      ['start_line', 'INTEGER', 1, 0],
      ['end_line', 'INTEGER', 1, 0],
    ]);
  });

  it('records source_hash, skill_path, schema_version 2, indexed_at (RFC 3339 UTC) and the tokenizer', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    const meta = Object.fromEntries(query<{ key: string; value: string }>(path, 'SELECT key, value FROM index_meta').map((r) => [r.key, r.value]));
    expect(meta).toEqual({
      source_hash: manifestHash(walkSkill(dir).files),
      skill_path: realpathSync(dir),
      schema_version: '2',
      indexed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      tokenizer: 'porter',
    });
    expect(SCHEMA_VERSION).toBe(2);
  });

  it('headings carry level, 1-based start_line and end_line = next heading of the same or higher level or EOF+1', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    expect(query(path, 'SELECT file, text, level, start_line, end_line FROM headings ORDER BY id')).toEqual([
      { file: 'SKILL.md', text: 'Skill Name', level: 1, start_line: 5, end_line: 25 },
      { file: 'SKILL.md', text: 'Getting Started', level: 2, start_line: 9, end_line: 14 },
      { file: 'SKILL.md', text: 'API Reference', level: 2, start_line: 14, end_line: 25 },
      { file: 'SKILL.md', text: 'Authentication', level: 3, start_line: 18, end_line: 22 },
      { file: 'SKILL.md', text: 'Endpoints', level: 3, start_line: 22, end_line: 25 },
      { file: 'references/advanced.md', text: 'Advanced Topics', level: 1, start_line: 1, end_line: 8 },
      { file: 'references/advanced.md', text: 'Performance', level: 2, start_line: 5, end_line: 8 },
    ]);
  });
});

describe('RFC-0004:C-FORMATS', () => {
  it('.md is one row per section (heading + content to the next same-or-higher heading); text before the first heading, frontmatter included, is no row', () => {
    const { dir, runtime, path } = setup({ 'SKILL.md': '---\nname: skill\n---\nIntro line.\n# A\na text\n## B\nb text\n# C\nc text\n' });
    buildIndex(dir, runtime);
    expect(query(path, 'SELECT file, section, content FROM sections ORDER BY rowid')).toEqual([
      { file: 'SKILL.md', section: 'A', content: '# A\na text\n## B\nb text' },
      { file: 'SKILL.md', section: 'B', content: '## B\nb text' },
      { file: 'SKILL.md', section: 'C', content: '# C\nc text' },
    ]);
  });

  it('a .md without any heading is one document with section "" (fetched by open), its frontmatter left out', () => {
    const { dir, runtime, path } = setup({
      'SKILL.md': '# S\n',
      'notes.md': '---\ntitle: kettle\n---\nThe kettle whistles.\n',
      'empty.md': '---\na: b\n---\n\n',
    });
    buildIndex(dir, runtime);
    expect(query(path, 'SELECT file, section, content FROM sections ORDER BY rowid')).toEqual([
      { file: 'SKILL.md', section: 'S', content: '# S' },
      { file: 'notes.md', section: '', content: 'The kettle whistles.\n' },
    ]);
  });

  it('.txt is one document with section ""; other file types are skipped silently', () => {
    const { dir, runtime, path } = setup({
      'SKILL.md': '# S\n',
      'notes.txt': 'plain notes\nsecond line\n',
      'data.json': '{"searchable": false}',
      'script.py': 'print(1)',
    });
    const result = buildIndex(dir, runtime);
    expect(result.files).toBe(2);
    expect(query(path, 'SELECT file, section, content FROM sections ORDER BY rowid')).toEqual([
      { file: 'SKILL.md', section: 'S', content: '# S' },
      { file: 'notes.txt', section: '', content: 'plain notes\nsecond line\n' },
    ]);
  });
});

describe('RFC-0004:C-INDEX build lifecycle', () => {
  it('missing → created, then up-to-date without rewriting the file', () => {
    const { dir, runtime, path } = setup();
    const created = buildIndex(dir, runtime);
    expect(created).toMatchObject({ status: 'created', reason: null, path, tokenizer: 'porter', files: 2, sections: 7, headings: 7 });
    const before = readFileSync(path);
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'up-to-date', reason: null, sections: 0 });
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('stale by source hash → rebuilt', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    appendFileSync(join(dir, 'SKILL.md'), '\n## Troubleshooting\n\nRestart it.\n');
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'rebuilt', reason: 'stale' });
    expect(query(path, "SELECT text FROM headings WHERE text = 'Troubleshooting'")).toHaveLength(1);
  });

  it('stale by schema_version < 2 and by tokenizer → rebuilt', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    editMeta(path, "UPDATE index_meta SET value = '1' WHERE key = 'schema_version'");
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'rebuilt', reason: 'stale' });
    editMeta(path, "UPDATE index_meta SET value = 'unicode61' WHERE key = 'tokenizer'");
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'rebuilt', reason: 'stale' });
    expect(() => openIndexForSearch(dir, runtime, 'skill').db.close()).not.toThrow();
  });

  it('corrupt (garbage bytes) → deleted and rebuilt without a collision check', () => {
    const { dir, runtime, path } = setup();
    mkdirSync(join(runtime, '.skillc-meta'), { recursive: true });
    writeFileSync(path, Buffer.alloc(4096, 0xab));
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'rebuilt', reason: 'corrupt' });
    expect(() => openIndexForSearch(dir, runtime, 'skill').db.close()).not.toThrow();
  });

  it.each([
    ['index_meta missing', 'DROP TABLE index_meta'],
    ['a required key missing', "DELETE FROM index_meta WHERE key = 'tokenizer'"],
    ['schema_version not an integer', "UPDATE index_meta SET value = 'two' WHERE key = 'schema_version'"],
  ])('corrupt (%s) → rebuilt', (_label, sql) => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    editMeta(path, sql);
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'rebuilt', reason: 'corrupt' });
  });

  it('E003 on a collision: build refuses and leaves the other index untouched', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    editMeta(path, "UPDATE index_meta SET value = '/somewhere/else' WHERE key = 'skill_path'");
    const before = readFileSync(path);
    const error = thrownBy(() => buildIndex(dir, runtime));
    const { hash16 } = locateIndex(dir, runtime);
    expect(error.format()).toBe(`error[E003]: index hash collision; delete .skillc-meta/search-${hash16}.db and rebuild`);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('never deletes other search-*.db files in the runtime dir', () => {
    const { dir, runtime } = setup();
    mkdirSync(join(runtime, '.skillc-meta'), { recursive: true });
    const other = join(runtime, '.skillc-meta', 'search-0123456789abcdef.db');
    writeFileSync(other, 'another skill’s index');
    buildIndex(dir, runtime);
    appendFileSync(join(dir, 'SKILL.md'), '\nmore\n');
    buildIndex(dir, runtime);
    expect(readFileSync(other, 'utf8')).toBe('another skill’s index');
  });
});

describe('RFC-0004:C-INDEX atomic swap', () => {
  it('a stray temp file never counts as an index, and a dead build’s temp is cleaned up by the next build', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    const temp = `${path}.999999-deadbeef.tmp`;
    copyFileSync(path, temp);
    writeFileSync(path, 'damaged');
    // Only the stray temp holds a valid index now, and it must not be used.
    expect(thrownBy(() => openIndexForSearch(dir, runtime, 'skill')).details).toMatchObject({ reason: 'corrupt' });
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'rebuilt', reason: 'corrupt' });
    expect(existsSync(temp)).toBe(false);
  });

  it('a temp file of a live build is left alone, and a finished build leaves no temp behind (only its lock file, which is empty)', () => {
    const { dir, runtime, path } = setup();
    mkdirSync(join(runtime, '.skillc-meta'), { recursive: true });
    const live = `${path}.${process.pid}-00000000.tmp`;
    writeFileSync(live, 'in progress');
    buildIndex(dir, runtime);
    const name = path.split('/').pop() as string;
    expect(readdirSync(join(runtime, '.skillc-meta')).sort()).toEqual([name, `${name}.lock`, live.split('/').pop()].sort());
  });

  it("the next build removes a dead build's temp file and the journal SQLite kept beside it", () => {
    const { dir, runtime, path } = setup();
    mkdirSync(join(runtime, '.skillc-meta'), { recursive: true });
    // A pid no process has: the build that wrote these was killed.
    const dead = `${path}.999999999-0badc0de.tmp`;
    for (const leftover of [dead, `${dead}-journal`, `${dead}-wal`]) writeFileSync(leftover, 'left by a killed build');
    buildIndex(dir, runtime);
    const name = path.split('/').pop() as string;
    expect(readdirSync(join(runtime, '.skillc-meta')).sort()).toEqual([name, `${name}.lock`].sort());
  });
  it("a temp file named for a live pid whose start time is not its builder's is a dead build's (the pid was reused): removed", () => {
    const { dir, runtime, path } = setup();
    mkdirSync(join(runtime, '.skillc-meta'), { recursive: true });
    const self = thisProcess();
    const reused = `${path}.${self.pid}-${Number(self.started) + 1}-0badc0de.tmp`;
    const mine = `${path}.${self.pid}-${self.started}-00000000.tmp`;
    for (const leftover of [reused, mine]) writeFileSync(leftover, 'a build');
    buildIndex(dir, runtime);
    expect(existsSync(reused)).toBe(false);
    expect(existsSync(mine)).toBe(true);
  });
});

/** How many descriptors this process holds on `file` (Linux: /proc/self/fd; a renamed file's are listed by its new name). */
function handlesOn(file: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) count++;
    } catch {
      // Closed since it was listed.
    }
  }
  return count;
}

describe.runIf(process.platform === 'linux')('RFC-0004:C-INDEX a build flushed ahead', () => {
  it('a build reading more than the early-flush step (16 MB) writes a whole index and keeps no handle on it', async () => {
    // Two files of ~9 MB each: the temp file is flushed ahead once the second one is read.
    const paragraph = 'The kernel schedules a worker thread for each queued request and retries with backoff.\n\n';
    const body = (word: string): string => `# Part ${word}\n\n${paragraph.repeat(100_000)}## The ${word} section\n\nOnly here: ${word}.\n`;
    const { dir, runtime, path } = setup({
      'SKILL.md': '---\nname: skill\ndescription: d\n---\n# Skill\n',
      'a.md': body('zanzibar'),
      'b.md': body('quixotic'),
    });
    expect(buildIndex(dir, runtime)).toMatchObject({ status: 'created', files: 3 });
    expect(query<{ ok: string }>(path, 'PRAGMA integrity_check(1)').map((row) => Object.values(row)[0])).toEqual(['ok']);
    expect(searchSkill(dir, runtime, 'quixotic').results.map((hit) => hit.section)).toContain('The quixotic section');
    // The temp file was renamed to the index: a handle left open on it would be listed under the index's name.
    await vi.waitFor(() => expect(handlesOn(path)).toBe(0));
  });
});

describe('RFC-0004:C-INDEX search steps (E002/E003)', () => {
  it('missing → E002 (missing): an index never built is "not built yet", not "unusable"', () => {
    const { dir, runtime } = setup();
    const error = thrownBy(() => searchSkill(dir, runtime, 'token', { skill: 'rfc-skill' }));
    expect(error.format()).toBe("error[E002]: search index not built yet; run 'skilltray build rfc-skill' to build it");
    expect(error.details).toEqual({ skill: 'rfc-skill', reason: 'missing' });
  });

  it('garbage bytes → E002 (corrupt)', () => {
    const { dir, runtime, path } = setup();
    mkdirSync(join(runtime, '.skillc-meta'), { recursive: true });
    writeFileSync(path, 'this is not a database at all, just text'.repeat(100));
    expect(thrownBy(() => searchSkill(dir, runtime, 'token')).details).toMatchObject({ reason: 'corrupt' });
  });

  it('readable meta but a broken sections table → E002 (corrupt) at query time', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    editMeta(path, 'DROP TABLE sections');
    expect(thrownBy(() => searchSkill(dir, runtime, 'token')).details).toMatchObject({ reason: 'corrupt' });
  });

  const staleMakers: [string, (dir: string, path: string) => void][] = [
    ['source hash', (dir) => appendFileSync(join(dir, 'SKILL.md'), '\nchange\n')],
    ['schema version', (_dir, path) => editMeta(path, "UPDATE index_meta SET value = '1' WHERE key = 'schema_version'")],
    ['tokenizer', (_dir, path) => editMeta(path, "UPDATE index_meta SET value = 'unicode61' WHERE key = 'tokenizer'")],
  ];
  it.each(staleMakers)('stale by %s → E002 (stale)', (_label, makeStale) => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    makeStale(dir, path);
    expect(thrownBy(() => searchSkill(dir, runtime, 'token')).details).toMatchObject({ reason: 'stale' });
  });

  it('collision is checked before staleness: a foreign, stale index is E003 and is kept', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    editMeta(path, "UPDATE index_meta SET value = '/other/skill' WHERE key = 'skill_path'; UPDATE index_meta SET value = '1' WHERE key = 'schema_version'");
    expect(thrownBy(() => searchSkill(dir, runtime, 'token')).code).toBe('E003');
    expect(existsSync(path)).toBe(true);
  });

  it('corruption is checked before collision: an unreadable meta is E002 even if the file came from elsewhere', () => {
    const { dir, runtime, path } = setup();
    buildIndex(dir, runtime);
    editMeta(path, "UPDATE index_meta SET value = '/other/skill' WHERE key = 'skill_path'; DELETE FROM index_meta WHERE key = 'source_hash'");
    expect(thrownBy(() => searchSkill(dir, runtime, 'token')).code).toBe('E002');
  });
});
