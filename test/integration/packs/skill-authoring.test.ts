/** The skill-authoring guide: content only, its references present and linked, its teaching true to the loader. */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import type { Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { lexBlocks } from '../../../src-main/core/markdown/blocks.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { renderCommand } from '../../../src-main/core/template/render-command.js';
import { tempDir, writeSkill } from '../../support/temp.js';
import { SKILLS_DIR, pack } from './bundled-packs.js';

const skill = pack('skill-authoring');
const REPO = join(SKILLS_DIR, '..');

const read = (path: string) => readFileSync(path, 'utf8');

/** Codes in the first column of a Markdown table (`| E401 | …`). */
function tableCodes(markdown: string, prefix: RegExp): string[] {
  return [...markdown.matchAll(/^\| ([EW]\d{3}) \|/gm)].map((m) => m[1] as string).filter((code) => prefix.test(code));
}

/** Every fenced code block of `markdown` with its info string. */
function fences(markdown: string): { lang: string; text: string }[] {
  return lexBlocks(markdown)
    .filter((block) => block.token.type === 'code')
    .map((block) => ({ lang: (block.token as Tokens.Code).lang ?? '', text: (block.token as Tokens.Code).text }));
}

describe('skill-authoring guide', () => {
  it('is content only, with its references: Markdown documents and one text file', () => {
    expect(skill.tools).toEqual([]);
    const references = readdirSync(join(skill.dir, 'references')).sort();
    expect(references).toEqual(['command-templates.md', 'diagnostics.txt', 'frontmatter.md', 'read-only-and-trust.md']);
    expect(references.filter((file) => extname(file) === '.txt')).toHaveLength(1);
  });

  it('links only to files that exist in the skill', () => {
    const documents = ['SKILL.md', ...readdirSync(join(skill.dir, 'references')).map((file) => join('references', file))];
    const links = documents.flatMap((document) =>
      [...read(join(skill.dir, document)).matchAll(/\]\(([^)#]+)\)/g)].map((m) => join(dirname(join(skill.dir, document)), m[1] as string)),
    );
    expect(links.length).toBeGreaterThanOrEqual(8);
    for (const target of links) {
      expect(relative(skill.dir, target)).not.toMatch(/^\.\./);
      expect(() => read(target), target).not.toThrow();
    }
  });

  it('explains exactly the diagnostic codes the loader documents', () => {
    const documented = tableCodes(read(join(REPO, 'docs', 'skill-format.md')), /^[EW]4/);
    expect(documented.length).toBeGreaterThan(30);
    const explained = [...read(join(skill.dir, 'references', 'diagnostics.txt')).matchAll(/^([EW]4\d{2}) {2}\S/gm)].map((m) => m[1]);
    expect(explained).toEqual(documented);
  });

  it('lists exactly the argument errors the template documents', () => {
    const documented = tableCodes(read(join(REPO, 'docs', 'templates.md')), /^E5/);
    expect(tableCodes(read(join(skill.dir, 'references', 'command-templates.md')), /^E5/)).toEqual(documented);
  });

  it('teaches a frontmatter and a tool that load cleanly and render as it says', () => {
    const blocks = fences(skill.body);
    const frontmatter = blocks.find((block) => block.lang === 'yaml' && block.text.includes('name: pdf-tools'));
    const tool = blocks.find((block) => block.lang === 'markdown' && block.text.startsWith('### pdf_text'));
    const dir = writeSkill(tempDir(), 'pdf-tools', `${frontmatter?.text ?? ''}\n\n${tool?.text ?? ''}\n`);
    const example = parseSkill(dir, { path: dirname(dir), kind: 'home', trust: 'user', syntax: 'angle' });
    expect(example.diagnostics).toEqual([]);
    expect(example.tools.map((t) => t.name)).toEqual(['pdf_text']);
    const call = (args: unknown) => {
      const rendered = renderCommand(example, 'pdf_text', args, { cwd: '/' });
      return [rendered.program, ...rendered.args];
    };
    expect(call({ path: 'invoice.pdf' })).toEqual(['pdftotext', '-f', '1', 'invoice.pdf', '-']);
    expect(call({ path: 'report.pdf', first: 3, layout: true })).toEqual(['pdftotext', '-layout', '-f', '3', 'report.pdf', '-']);
  });
});
