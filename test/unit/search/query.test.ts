import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openFile } from '../../../src-main/core/gateway/open.js';
import { outlineSkill } from '../../../src-main/core/gateway/outline.js';
import { showSection } from '../../support/index-reads.js';
import { buildIndex, locateIndex } from '../../../src-main/core/search/skill-index.js';
import { queryTokens, rankedRows, SMALL_INDEX_ROWS, textColumnsMatch, toFtsQuery } from '../../../src-main/core/search/query.js';
import { searchSkill } from '../../support/index-reads.js';
import { copyFixtureSkill, copyRfcSkill, makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';
import { formatSearch } from '../../../src-main/cli/format/search.js';

function indexed(files?: Record<string, string>): { dir: string; runtime: string } {
  const base = tempDir();
  const dir = files === undefined ? copyRfcSkill(base) : makeSkill(base, 'skill', files);
  const runtime = join(base, 'runtime', 'skill');
  buildIndex(dir, runtime);
  return { dir, runtime };
}

describe('RFC-0004:C-QUERY-SYNTAX', () => {
  it('quotes each token: configure authentication → "configure" "authentication"', () => {
    expect(toFtsQuery('configure authentication')).toBe('"configure" "authentication"');
  });

  it('doubles internal quotes: my "special" app → "my" """special""" "app"', () => {
    expect(toFtsQuery('my "special" app')).toBe('"my" """special""" "app"');
  });

  it('splits on ASCII space, tab, LF and CR only, dropping empty tokens', () => {
    expect(queryTokens(' a\tb\nc\rd  e ')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps U+00A0, U+3000 and form feed inside a token', () => {
    expect(queryTokens('a\u00A0b c\u3000d e\ff')).toEqual(['a\u00A0b', 'c\u3000d', 'e\ff']);
    expect(toFtsQuery('a\u00A0b')).toBe('"a\u00A0b"');
  });

  it('passes punctuation through inside the quotes', () => {
    expect(toFtsQuery('hello, (world)')).toBe('"hello," "(world)"');
  });

  it.each(['', '   ', ' \t\r\n '])('empty or ASCII-whitespace query %j → E004', (query) => {
    expect(thrownBy(() => toFtsQuery(query)).format()).toBe('error[E004]: empty query');
  });

  it('E004 comes before any index check', () => {
    const dir = copyRfcSkill(tempDir());
    expect(thrownBy(() => searchSkill(dir, join(tempDir(), 'no-runtime'), '  ')).code).toBe('E004');
  });

  it('property: any input becomes a query FTS5 accepts, whose terms are exactly the tokens', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE sections USING fts5(file, section, content, tokenize='porter unicode61')");
    db.prepare('INSERT INTO sections VALUES (?, ?, ?)').run('f', 's', 'some content "quoted" here');
    const search = db.prepare('SELECT count(*) AS n FROM sections WHERE sections MATCH ?');
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '"', '*', '(', ')', ':', '-', '^', '\u00A0', 'é', 'NEAR', 'OR', 'AND', 'NOT') }),
        (input) => {
          if (queryTokens(input).length === 0) {
            expect(() => toFtsQuery(input)).toThrow();
            return;
          }
          const fts = toFtsQuery(input);
          const parsed = [...fts.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => (m[1] as string).replace(/""/g, '"'));
          expect(parsed).toEqual(queryTokens(input));
          expect(() => search.get(textColumnsMatch(fts))).not.toThrow();
        },
      ),
    );
    db.close();
  });
});

describe('RFC-0004:C-SEARCH', () => {
  it('porter stemming: "configuring" matches "configure"', () => {
    const { dir, runtime } = indexed({ 'SKILL.md': '# Setup\n\nHow to configure the proxy.\n' });
    expect(searchSkill(dir, runtime, 'configuring').results.map((r) => r.section)).toEqual(['Setup']);
  });

  it('bag of words with implicit AND: every word must appear, in any order', () => {
    const { dir, runtime } = indexed({ 'SKILL.md': '# One\n\nalpha beta\n\n# Two\n\nalpha only\n' });
    expect(searchSkill(dir, runtime, 'beta alpha').results.map((r) => r.section)).toEqual(['One']);
    expect(searchSkill(dir, runtime, 'alpha').results).toHaveLength(2);
  });

  it('snippets mark matches with [MATCH]…[/MATCH] from the content column', () => {
    const { dir, runtime } = indexed();
    const [hit] = searchSkill(dir, runtime, 'authorization').results;
    expect(hit).toMatchObject({ file: 'SKILL.md', section: 'Authentication' });
    expect(hit?.snippet).toContain('[MATCH]Authorization[/MATCH]');
  });

  it('ranks by BM25 with the score negated (higher is better), best first', () => {
    const { dir, runtime } = indexed({ 'SKILL.md': '# Rare\n\ntoken\n\n# Dense\n\ntoken token token token\n' });
    const { results } = searchSkill(dir, runtime, 'token');
    expect(results.map((r) => r.section)).toEqual(['Dense', 'Rare']);
    const db = new Database(locateIndex(dir, runtime).path, { readonly: true });
    const raw = db
      .prepare('SELECT section, bm25(sections) AS rank FROM sections WHERE sections MATCH \'{section content} : ("token")\' ORDER BY rank')
      .all() as { section: string; rank: number }[];
    db.close();
    expect(results.map((r) => r.score)).toEqual(raw.map((r) => -r.rank));
    expect((results[0] as { score: number }).score).toBeGreaterThan((results[1] as { score: number }).score);
  });

  it('--limit defaults to 10 and can be set', () => {
    const body = Array.from({ length: 15 }, (_, i) => `## Part ${i}\n\nshared word\n`).join('\n');
    const { dir, runtime } = indexed({ 'SKILL.md': body });
    expect(searchSkill(dir, runtime, 'shared').results).toHaveLength(10);
    expect(searchSkill(dir, runtime, 'shared', { limit: 3 }).results).toHaveLength(3);
    expect(thrownBy(() => searchSkill(dir, runtime, 'shared', { limit: 0 })).code).toBe('E100');
  });

  it('small and large indexes are ranked two ways that give the same rows, snippets and order (ties by row)', () => {
    for (const parts of [5, SMALL_INDEX_ROWS + 30]) {
      // Identical sections tie on score; the others differ in how often the words appear.
      const body = Array.from(
        { length: parts },
        (_, i) => `## Part ${i}\n\n${i % 3 === 0 ? 'shared word' : `shared ${'word '.repeat(1 + (i % 5))}and filler`}\n`,
      ).join('\n');
      const { dir, runtime } = indexed({ 'SKILL.md': body });
      const db = new Database(locateIndex(dir, runtime).path, { readonly: true });
      const match = textColumnsMatch(toFtsQuery('shared word'));
      const everyMatch = rankedRows(db, match, 40, 'every-match');
      const rankFirst = rankedRows(db, match, 40, 'rank-then-snippet');
      db.close();
      expect(everyMatch.length).toBeGreaterThan(2);
      expect(everyMatch).toEqual(rankFirst);
      expect(searchSkill(dir, runtime, 'shared word', { limit: 40 }).results.map((r) => [r.section, r.snippet, -r.score])).toEqual(
        everyMatch.map((r) => [r.section, r.snippet, r.rank]),
      );
    }
  });

  it('searches .txt files, section ""', () => {
    const { dir, runtime } = indexed({ 'SKILL.md': '# S\n', 'notes.txt': 'the kettle whistles\n' });
    expect(searchSkill(dir, runtime, 'kettle').results).toEqual([
      { file: 'notes.txt', section: '', snippet: 'the [MATCH]kettle[/MATCH] whistles\n', score: expect.any(Number) },
    ]);
  });

  it('does not match on the file path column', () => {
    const { dir, runtime } = indexed({ 'SKILL.md': '# S\n\nnothing here\n' });
    expect(searchSkill(dir, runtime, 'skill').results).toEqual([]);
  });

  it('no results is an empty result set with the original query', () => {
    const { dir, runtime } = indexed();
    expect(JSON.stringify(searchSkill(dir, runtime, '  zebra  '))).toBe('{"query":"  zebra  ","results":[]}');
  });

  it('text form: <file>#<section> (score: <score>) then the snippet indented', () => {
    const text = formatSearch({
      results: [
        { file: 'SKILL.md', section: 'Getting Started', snippet: 'Install the [MATCH]client[/MATCH]...', score: 1.23456 },
        { file: 'notes.txt', section: '', snippet: 'a\nb', score: 0.5 },
      ],
    });
    expect(text).toBe('SKILL.md#Getting Started (score: 1.23)\n  Install the [MATCH]client[/MATCH]...\nnotes.txt# (score: 0.50)\n  a b');
  });
});

describe("every search hit can be fetched (skillc's rich skill)", () => {
  function rich(): { dir: string; runtime: string } {
    const base = tempDir();
    const dir = copyFixtureSkill(base, 'rich-skill');
    const runtime = join(base, 'runtime', 'rich-skill');
    buildIndex(dir, runtime);
    return { dir, runtime };
  }

  it('"configure authentication" finds only real sections, as skillc does: the frontmatter that says it too is no hit', () => {
    const { dir, runtime } = rich();
    const { results } = searchSkill(dir, runtime, 'configure authentication');
    // A parent's row holds its subsections, so the H1 and the H2 around Authentication match too.
    expect(results.map((hit) => [hit.file, hit.section])).toEqual([
      ['SKILL.md', 'Authentication'],
      ['SKILL.md', 'API Reference'],
      ['SKILL.md', 'Skill Name'],
    ]);
  });

  it('a hit with a section is shown by show; a hit without one is a whole file without headings, opened by open', () => {
    const { dir, runtime } = rich();
    const headed = new Set(outlineSkill(dir, {}).headings.map((heading) => heading.file));
    for (const query of [
      'configure authentication',
      'token',
      'tokens',
      'authentication',
      'performance',
      'rotation',
      'client',
      'skill',
      'name',
      'description',
    ]) {
      for (const hit of searchSkill(dir, runtime, query, { limit: 50 }).results) {
        if (hit.section === '') {
          expect(headed.has(hit.file), `${query} → ${hit.file} has headings to show instead`).toBe(false);
          expect(openFile(dir, hit.file).content).not.toBe('');
        } else {
          expect(showSection(dir, runtime, { section: hit.section, file: hit.file }).section, `${query} → ${hit.section}`).toBe(hit.section);
        }
      }
    }
    expect(searchSkill(dir, runtime, 'authentication').results.map((hit) => hit.file)).toContain('notes.txt');
  });
});
