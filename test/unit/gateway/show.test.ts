import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSectionNotFound, formatShow, normaliseSectionQuery, showSection } from '../../../src-main/core/gateway/show.js';
import { buildIndex } from '../../../src-main/core/search/index.js';
import { copyRfcSkill, makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';

/** A skill with a built index: [skill dir, runtime dir]. */
function indexed(files?: Record<string, string>): [string, string] {
  const base = tempDir();
  const dir = files === undefined ? copyRfcSkill(base) : makeSkill(base, 'skill', files);
  const runtime = join(base, 'runtime', 'skill');
  buildIndex(dir, runtime);
  return [dir, runtime];
}

describe('RFC-0002:C-SHOW', () => {
  it('returns the section from its heading to the next heading of the same or higher level', () => {
    const [dir, runtime] = indexed();
    const result = showSection(dir, runtime, { section: 'API Reference' });
    expect(result).toMatchObject({ file: 'SKILL.md', section: 'API Reference', level: 2, start_line: 14, end_line: 25, more_lines: 0, matches: 1, warning: null });
    expect(formatShow(result)).toBe(
      ['## API Reference', '', 'Every endpoint takes a token.', '', '### Authentication', '', 'Send the token in the Authorization header.', '', '### Endpoints', '', 'GET /items lists items.'].join('\n'),
    );
  });

  it('a subsection ends at the next heading of its own level', () => {
    const [dir, runtime] = indexed();
    expect(formatShow(showSection(dir, runtime, { section: 'Authentication' }))).toBe('### Authentication\n\nSend the token in the Authorization header.');
  });

  it('matches case-insensitively', () => {
    const [dir, runtime] = indexed();
    expect(showSection(dir, runtime, { section: 'getting STARTED' }).section).toBe('Getting Started');
  });

  it('matches non-ASCII headings case-insensitively', () => {
    const [dir, runtime] = indexed({ 'SKILL.md': '# Überblick\n\nText.\n' });
    expect(showSection(dir, runtime, { section: 'ÜBERBLICK' }).section).toBe('Überblick');
  });

  it('normalises the query: trims, then keeps only the part before " — "', () => {
    expect(normaliseSectionQuery('  Getting Started  ')).toBe('Getting Started');
    expect(normaliseSectionQuery('Clap Patterns — Advanced argument parsing examples')).toBe('Clap Patterns');
    expect(normaliseSectionQuery('A—B')).toBe('A—B');
    const [dir, runtime] = indexed();
    expect(showSection(dir, runtime, { section: '  Advanced Topics — Tuning for large deployments ' }).file).toBe('references/advanced.md');
  });

  it('--file limits the search to that file', () => {
    const [dir, runtime] = indexed({ 'SKILL.md': '# Usage\n\nmain\n', 'docs/more.md': '# Usage\n\nmore\n' });
    const result = showSection(dir, runtime, { section: 'usage', file: 'docs/more.md' });
    expect(result).toMatchObject({ file: 'docs/more.md', matches: 1, warning: null });
    expect(result.content).toBe('# Usage\n\nmore');
    expect(showSection(dir, runtime, { section: 'usage', file: './docs//more.md' }).file).toBe('docs/more.md');
  });

  it('multiple matches → first + warning, exit 0', () => {
    const [dir, runtime] = indexed({ 'SKILL.md': '# Usage\n\nmain\n', 'docs/more.md': '# usage\n\nmore\n' });
    const result = showSection(dir, runtime, { section: 'USAGE' });
    expect(result.file).toBe('SKILL.md');
    expect(result.matches).toBe(2);
    expect(result.warning).toBe('warning: multiple matches for "USAGE"; showing first');
    expect(formatShow(result)).toBe('# Usage\n\nmain');
  });

  it('--max-lines N cuts the content and appends "... (N more lines)"', () => {
    const [dir, runtime] = indexed();
    const result = showSection(dir, runtime, { section: 'API Reference', maxLines: 3 });
    expect(result.more_lines).toBe(8);
    expect(formatShow(result)).toBe('## API Reference\n\nEvery endpoint takes a token.\n... (8 more lines)');
    expect(showSection(dir, runtime, { section: 'API Reference', maxLines: 11 }).more_lines).toBe(0);
  });

  it('E020 carries up to 5 suggestions (prefix matches first, then substrings) and prints them as the RFC shows', () => {
    const headings = ['Config', 'Configure Auth', 'Auth Config', 'Configuration', 'Reconfig', 'Config Files', 'Config Cache', 'Unrelated'];
    const [dir, runtime] = indexed({ 'SKILL.md': headings.map((h) => `## ${h}\n\ntext\n`).join('\n') });
    const error = thrownBy(() => showSection(dir, runtime, { section: 'confi' }));
    expect(error.code).toBe('E020');
    expect(error.details?.suggestions).toEqual([
      { text: 'Config', file: 'SKILL.md' },
      { text: 'Configure Auth', file: 'SKILL.md' },
      { text: 'Configuration', file: 'SKILL.md' },
      { text: 'Config Files', file: 'SKILL.md' },
      { text: 'Config Cache', file: 'SKILL.md' },
    ]);
    expect(formatSectionNotFound(error)).toBe(
      [
        "error[E020]: section not found: 'confi'",
        '',
        'Did you mean one of these?',
        '  - Config (SKILL.md)',
        '  - Configure Auth (SKILL.md)',
        '  - Configuration (SKILL.md)',
        '  - Config Files (SKILL.md)',
        '  - Config Cache (SKILL.md)',
      ].join('\n'),
    );
  });

  it('E020 without suggestions is the single RFC-0005 line', () => {
    const [dir, runtime] = indexed();
    const error = thrownBy(() => showSection(dir, runtime, { section: 'Zebra — stripes' }));
    expect(error.details?.suggestions).toEqual([]);
    expect(formatSectionNotFound(error)).toBe("error[E020]: section not found: 'Zebra'");
  });

  it('suggestions come from substring matches when nothing starts with the query', () => {
    const [dir, runtime] = indexed();
    const error = thrownBy(() => showSection(dir, runtime, { section: 'started' }));
    expect(error.details?.suggestions).toEqual([{ text: 'Getting Started', file: 'SKILL.md' }]);
  });

  it('E002 when the index is missing', () => {
    const dir = copyRfcSkill(tempDir());
    const error = thrownBy(() => showSection(dir, join(tempDir(), 'runtime'), { section: 'Skill Name', skill: 'rfc-skill' }));
    expect(error.format()).toBe("error[E002]: search index unusable; run 'skilltray build rfc-skill' to rebuild");
    expect(error.details).toEqual({ skill: 'rfc-skill', reason: 'missing' });
  });

  it('E002 when the index is stale (a source changed since the build)', () => {
    const [dir, runtime] = indexed();
    appendFileSync(join(dir, 'SKILL.md'), '\n## Added\n');
    expect(thrownBy(() => showSection(dir, runtime, { section: 'Added' })).details).toMatchObject({ reason: 'stale' });
  });

  it('E002 when a file was removed since the build', () => {
    const [dir, runtime] = indexed();
    rmSync(join(dir, 'references', 'advanced.md'));
    expect(thrownBy(() => showSection(dir, runtime, { section: 'Performance' })).code).toBe('E002');
  });

  it('shows a setext section by its indexed lines, underline included', () => {
    const [dir, runtime] = indexed({ 'SKILL.md': 'Title\n=====\n\nBody.\n\nNext\n----\n\nMore.\n' });
    expect(formatShow(showSection(dir, runtime, { section: 'title' }))).toBe('Title\n=====\n\nBody.\n\nNext\n----\n\nMore.');
    expect(formatShow(showSection(dir, runtime, { section: 'next' }))).toBe('Next\n----\n\nMore.');
  });

  it('an empty --section and --max-lines below 1 are E100', () => {
    const [dir, runtime] = indexed();
    expect(thrownBy(() => showSection(dir, runtime, { section: '   ' })).code).toBe('E100');
    expect(thrownBy(() => showSection(dir, runtime, { section: 'Skill Name', maxLines: 0 })).code).toBe('E100');
  });
});
