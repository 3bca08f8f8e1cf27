import { describe, expect, it } from 'vitest';
import { outlineFiles, outlineSkill, type OutlineOptions } from '../../../src-main/core/gateway/outline.js';
import { copyRfcSkill, makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';
import { formatOutlineFile } from '../../../src-main/cli/format/outline.js';

/** The text form as the CLI prints it: each file's block as it is read. */
function textOutline(dir: string, options: OutlineOptions = {}): string {
  return [...outlineFiles(dir, options)].map(formatOutlineFile).join('\n');
}

describe('RFC-0002:C-OUTLINE', () => {
  it('prints the RFC example exactly', () => {
    const dir = copyRfcSkill(tempDir());
    expect(textOutline(dir)).toBe(
      [
        'SKILL.md',
        '  # Skill Name',
        '  ## Getting Started',
        '  ## API Reference',
        '    ### Authentication',
        '    ### Endpoints',
        'references/advanced.md',
        '  # Advanced Topics',
        '  ## Performance',
      ].join('\n'),
    );
  });

  it('--level 2 prints the RFC example exactly', () => {
    const dir = copyRfcSkill(tempDir());
    expect(textOutline(dir, { level: 2 })).toBe(
      ['SKILL.md', '  # Skill Name', '  ## Getting Started', '  ## API Reference', 'references/advanced.md', '  # Advanced Topics', '  ## Performance'].join(
        '\n',
      ),
    );
  });

  it('returns level, text, file and the 1-based file line of each heading (frontmatter counted)', () => {
    const dir = copyRfcSkill(tempDir());
    const { headings } = outlineSkill(dir, { level: 1 });
    expect(headings).toEqual([
      { file: 'SKILL.md', level: 1, text: 'Skill Name', line: 5 },
      { file: 'references/advanced.md', level: 1, text: 'Advanced Topics', line: 1 },
    ]);
  });

  it('orders files bytewise by relative path with no special case for SKILL.md', () => {
    const dir = makeSkill(tempDir(), 's', {
      'SKILL.md': '# Main\n',
      'A.md': '# Upper A\n',
      'a.md': '# Lower a\n',
      'B/x.md': '# In B\n',
      'b.md': '# Lower b\n',
    });
    expect(outlineSkill(dir).headings.map((h) => h.file)).toEqual(['A.md', 'B/x.md', 'SKILL.md', 'a.md', 'b.md']);
  });

  it('setext headings and closing hashes count; # in a fenced block or in frontmatter does not', () => {
    const dir = makeSkill(tempDir(), 's', {
      'SKILL.md': ['---', 'name: s', '# not a heading', '---', 'Title', '=====', '', '```sh', '# a comment', '```', '', '## Closed ##', 'Sub', '---', ''].join(
        '\n',
      ),
    });
    expect(outlineSkill(dir).headings).toEqual([
      { file: 'SKILL.md', level: 1, text: 'Title', line: 5 },
      { file: 'SKILL.md', level: 2, text: 'Closed', line: 12 },
      { file: 'SKILL.md', level: 2, text: 'Sub', line: 13 },
    ]);
  });

  it('indents each level below H2 by two more spaces', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# One\n## Two\n### Three\n#### Four\n##### Five\n###### Six\n' });
    expect(textOutline(dir)).toBe(
      ['SKILL.md', '  # One', '  ## Two', '    ### Three', '      #### Four', '        ##### Five', '          ###### Six'].join('\n'),
    );
  });

  it('reads only .md files and never hidden ones', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# Main\n', 'notes.txt': '# Not markdown\n', '.hidden/x.md': '# Hidden\n', '.draft.md': '# Draft\n' });
    expect(outlineSkill(dir).headings.map((h) => h.text)).toEqual(['Main']);
  });

  it.each([0, 7, 2.5, -1])('--level %s is E100', (level) => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '# Main\n' });
    expect(thrownBy(() => outlineSkill(dir, { level })).code).toBe('E100');
  });
});
