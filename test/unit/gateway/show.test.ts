import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseSectionQuery } from '../../../src-main/core/gateway/show.js';
import { showSection } from '../../support/index-reads.js';
import { buildIndex } from '../../../src-main/core/search/skill-index.js';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { copyFixtureSkill, copyRfcSkill, makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';
import { formatSectionNotFound } from '../../../src-main/shared/section-text.js';
import { formatShow } from '../../../src-main/cli/format/show.js';

/** The rich-skill fixture (RFC-0002/0004 examples, an em-dash heading) with a built index: [skill dir, runtime dir]. */
function richIndexed(): [string, string] {
  const base = tempDir();
  const dir = copyFixtureSkill(base, 'rich-skill');
  const runtime = join(base, 'runtime', 'rich-skill');
  buildIndex(dir, runtime);
  return [dir, runtime];
}

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
    expect(result).toMatchObject({
      file: 'SKILL.md',
      section: 'API Reference',
      level: 2,
      start_line: 14,
      end_line: 25,
      more_lines: 0,
      matches: 1,
      warning: null,
    });
    expect(formatShow(result)).toBe(
      [
        '## API Reference',
        '',
        'Every endpoint takes a token.',
        '',
        '### Authentication',
        '',
        'Send the token in the Authorization header.',
        '',
        '### Endpoints',
        '',
        'GET /items lists items.',
      ].join('\n'),
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

  it('E002 when the index is missing: not built yet', () => {
    const dir = copyRfcSkill(tempDir());
    const error = thrownBy(() => showSection(dir, join(tempDir(), 'runtime'), { section: 'Skill Name', skill: 'rfc-skill' }));
    expect(error.format()).toBe("error[E002]: search index not built yet; run 'skilltray build rfc-skill' to build it");
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

describe('RFC-0002:C-SHOW on headings that contain " — "', () => {
  it('an exact match wins: an em-dash heading is shown by its own text, in any case', () => {
    const [dir, runtime] = richIndexed();
    for (const section of ['Tokens — rotation and expiry', '  tokens — ROTATION AND EXPIRY ']) {
      const result = showSection(dir, runtime, { section });
      expect(result).toMatchObject({ section: 'Tokens — rotation and expiry', start_line: 26, end_line: 30, matches: 1, warning: null });
      expect(result.content).toBe('## Tokens — rotation and expiry\n\nTokens expire after a day; rotate them before they do.');
    }
  });

  it('then the RFC\'s normalisation: a stub line "<heading> — <description>" shows <heading>', () => {
    const [dir, runtime] = richIndexed();
    expect(showSection(dir, runtime, { section: 'Tokens — How tokens are issued' })).toMatchObject({ section: 'Tokens', start_line: 30, matches: 1 });
    expect(showSection(dir, runtime, { section: 'Getting Started — install and set up' }).section).toBe('Getting Started');
  });

  it('then both sides normalised: a stub line of an em-dash heading finds it', () => {
    const [dir, runtime] = indexed({ 'SKILL.md': '# Install — macOS\n\nbrew install it\n' });
    expect(showSection(dir, runtime, { section: 'Install — macOS' }).section).toBe('Install — macOS');
    expect(showSection(dir, runtime, { section: 'Install — how to get it' }).section).toBe('Install — macOS');
  });

  it('"did you mean" offers em-dash headings by their full text, and each suggestion shows', () => {
    const [dir, runtime] = richIndexed();
    const error = thrownBy(() => showSection(dir, runtime, { section: 'toke' }));
    expect(error.details?.suggestions).toEqual([
      { text: 'Tokens — rotation and expiry', file: 'SKILL.md' },
      { text: 'Tokens', file: 'SKILL.md' },
    ]);
    for (const suggestion of error.details?.suggestions as { text: string; file: string }[]) {
      expect(showSection(dir, runtime, { section: suggestion.text, file: suggestion.file }).section).toBe(suggestion.text);
    }
  });

  it('every suggestion reaches a heading of its own text, whatever the headings and the query (property)', () => {
    const word = fc.constantFrom('Setup', 'setup', 'Tokens', 'API', 'Install', 'mac', 'Linux', 'a', '—', '-', 'Ü');
    const headingText = fc
      .array(word, { minLength: 1, maxLength: 3 })
      .chain((words) => fc.constantFrom(' ', ' — ', '—', ' - ').map((joiner) => words.join(joiner)));
    fc.assert(
      fc.property(fc.uniqueArray(headingText, { minLength: 1, maxLength: 6 }), headingText, (texts, query) => {
        const [dir, runtime] = indexed({ 'SKILL.md': texts.map((text) => `## ${text}\n\nbody\n`).join('\n') });
        for (const text of texts) expect(showSection(dir, runtime, { section: text }).section.toLowerCase()).toBe(text.toLowerCase());
        try {
          showSection(dir, runtime, { section: query });
        } catch (error) {
          if (!(error instanceof SkilltrayError) || error.code !== 'E020') throw error;
          for (const suggestion of (error.details?.suggestions ?? []) as { text: string; file: string }[]) {
            expect(showSection(dir, runtime, { section: suggestion.text, file: suggestion.file }).section.toLowerCase()).toBe(suggestion.text.toLowerCase());
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('RFC-0002:C-SHOW --max-lines counts the indexed range', () => {
  it('"... (N more lines)" includes the blank line before the next heading, as skillc\'s golden does', () => {
    const [dir, runtime] = richIndexed();
    // Getting Started runs from line 9 to line 14 (exclusive): five lines, the last one blank.
    const cut = showSection(dir, runtime, { section: 'Getting Started', maxLines: 1 });
    expect(cut).toMatchObject({ start_line: 9, end_line: 14, more_lines: 4 });
    expect(formatShow(cut)).toBe('## Getting Started\n... (4 more lines)');
    expect(showSection(dir, runtime, { section: 'Getting Started', maxLines: 4 }).more_lines).toBe(1);
    const whole = showSection(dir, runtime, { section: 'Getting Started', maxLines: 5 });
    expect(whole.more_lines).toBe(0);
    expect(formatShow(whole)).toBe('## Getting Started\n\nInstall the client, then run the setup wizard.\nConfiguring the client takes a minute.');
  });

  it('shown lines plus "more" always add up to end_line - start_line (property)', () => {
    const [dir, runtime] = richIndexed();
    const sections = [
      'Skill Name',
      'Getting Started',
      'API Reference',
      'Authentication',
      'Endpoints',
      'Tokens — rotation and expiry',
      'Tokens',
      'Advanced Topics',
      'Performance',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...sections), fc.integer({ min: 1, max: 30 }), (section, maxLines) => {
        const result = showSection(dir, runtime, { section, maxLines });
        const range = result.end_line - result.start_line;
        if (result.more_lines > 0) expect(result.content.split('\n').length + result.more_lines).toBe(range);
        else expect(maxLines).toBeGreaterThanOrEqual(range);
      }),
    );
  });

  it('finds a heading by the text a reader sees: inline code, emphasis, an escape, a link, a character reference', () => {
    const [dir, runtime] = indexed({
      'SKILL.md': [
        '# Guide',
        '',
        '## Using `git log`',
        '',
        'Log.',
        '',
        '## **Bold** and *quiet* moves',
        '',
        'Moves.',
        '',
        '## snake\\_case names',
        '',
        'Names.',
        '',
        '## See [the docs](https://example.com/docs)',
        '',
        'Docs.',
        '',
        '## Tom &amp; Jerry',
        '',
        'Cartoon.',
        '',
      ].join('\n'),
    });
    const shown = (section: string) => showSection(dir, runtime, { section }).section;
    expect(shown('Using git log')).toBe('Using `git log`');
    expect(shown('bold and quiet moves')).toBe('**Bold** and *quiet* moves');
    expect(shown('snake_case names')).toBe('snake\\_case names');
    expect(shown('See the docs')).toBe('See [the docs](https://example.com/docs)');
    expect(shown('Tom & Jerry')).toBe('Tom &amp; Jerry');
    // As written still works, and a part of what a reader sees is suggested.
    expect(shown('Using `git log`')).toBe('Using `git log`');
    const error = thrownBy(() => showSection(dir, runtime, { section: 'Using git' }));
    expect(error.details?.suggestions).toEqual([{ text: 'Using `git log`', file: 'SKILL.md' }]);
  });
});
