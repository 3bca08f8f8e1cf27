/**
 * Text from outside (a word, a pack's program, an author's key, a caller's option, a heading) is never
 * taken for a key every object inherits: each lookup answers for "constructor" or "__proto__" exactly as
 * for a word its table does not hold. CI found the first of these when fast-check's strings said
 * "constructor" to wordForms; this holds every table looked up by outside text to the same.
 */
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src-main/cli/args.js';
import { readerText } from '../../../src-main/core/gateway/show.js';
import { gitWhy } from '../../../src-main/core/packs/git-shapes.js';
import type { Arg } from '../../../src-main/core/packs/tool-argv.js';
import { judgeArgv } from '../../../src-main/core/packs/tool-verdict.js';
import { shapeOf } from '../../../src-main/core/packs/vetted-shapes.js';
import { DiagnosticList } from '../../../src-main/core/skills/diagnostics.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { readToolPack } from '../../../src-main/core/skills/tool-pack.js';
import { wordForms } from '../../../src-main/core/text/word-forms.js';
import { SkilltrayClientError } from '../../../src-main/shared/contract.js';
import type { ErrorCode } from '../../../src-main/shared/errors.js';
import type { SkillRoot } from '../../../src-main/shared/model.js';
import { normaliseShortcut } from '../../../src-main/shared/shortcut.js';
import { answeredBy, decisionShort } from '../../../src-renderer/runs/run-status.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

/** Every key an object inherits, as written and as a lower-casing lookup sees it. */
const INHERITED = [...new Set(Object.getOwnPropertyNames(Object.prototype).flatMap((name) => [name, name.toLowerCase()]))];
/** A word no table holds: what an inherited key must be answered like. */
const UNKNOWN = 'zqxj';

/** `probe(word)` for each inherited key equals `probe(UNKNOWN)` with the unknown word replaced by it (in any case: some lookups lower-case). */
function answersLikeAnUnknownWord(probe: (word: string) => unknown, names: readonly string[] = INHERITED): void {
  const told = (word: string): string => {
    try {
      return JSON.stringify(probe(word)) ?? 'undefined';
    } catch (error) {
      return `threw ${String(error)}`;
    }
  };
  const unknown = told(UNKNOWN);
  for (const name of names) expect(told(name).toLowerCase(), name).toBe(unknown.replaceAll(UNKNOWN, name).toLowerCase());
}

const arg = (text: string): Arg => ({ text, dash: false, slot: false }) as Arg;
const root = (path: string): SkillRoot => ({ path, kind: 'env', trust: 'user', syntax: 'angle' });
const FRONT = { name: 'demo', description: 'Does a demo. Use when asked for a demo.' };

describe('a key every object inherits is no entry of a table looked up by outside text', () => {
  it('search: a word has no other forms, a heading no such character reference', () => {
    answersLikeAnUnknownWord((word) => wordForms(word.toLowerCase()));
    answersLikeAnUnknownWord(
      (word) => readerText(`Using &${word}; here`),
      INHERITED.filter((name) => /^[a-z]+$/i.test(name)),
    );
  });

  it('a pack: its program is no wrapper or vetted shape, its git subcommand and -c setting are not vetted, its mode is no mode', () => {
    answersLikeAnUnknownWord((word) => shapeOf(word) === undefined);
    answersLikeAnUnknownWord((word) => judgeArgv([arg(word), arg('echo'), arg('hi')]));
    answersLikeAnUnknownWord((word) => gitWhy([arg('-c'), arg('core.fsmonitor=false'), arg(word)]));
    answersLikeAnUnknownWord((word) => gitWhy([arg('-c'), arg(`${word}=false`), arg('status')]));
    answersLikeAnUnknownWord((word) => {
      const diags = new DiagnosticList();
      const pack = JSON.stringify({ name: 'p', description: 'A pack.', command: { program: 'echo', args: [] }, modes: ['global', word] });
      const { tool } = readToolPack(Buffer.from(pack), '/packs/p.tool.json', diags);
      return { modes: tool?.modes, said: diags.items.map((d) => d.message) };
    });
  });

  it('a skill: a Required cell is no answer, a limits key no limit', () => {
    const said = (content: string) => parseSkill(writeSkill(tempDir(), 'demo', content), root('/skills')).diagnostics.map((d) => `${d.code} ${d.message}`);
    const table = (required: string) => `| Name | Type | Required | Description |\n|---|---|---|---|\n| count | integer | ${required} | how many |`;
    answersLikeAnUnknownWord((word) =>
      said(
        skillMd(FRONT, `\n## Tools\n\n### log\n\nShows log.\n\n#### Parameters\n\n${table(word)}\n\n#### Command\n\n\`\`\`\ngit log -n <<count:10>>\n\`\`\`\n`),
      ),
    );
    answersLikeAnUnknownWord((word) => said(skillMd(`name: demo\ndescription: Does a demo.\nlimits:\n  "${word}": 5`)));
  });

  it('a caller: an option is unknown, an error code is no code, an actor is no surface', () => {
    answersLikeAnUnknownWord((word) =>
      parseArgs([`--${word}`], { name: 'list', options: { json: { type: 'boolean', description: 'as JSON' } }, positionals: [] }),
    );
    answersLikeAnUnknownWord((word) => {
      const error = new SkilltrayClientError({ code: word as ErrorCode, kind: 'internal', message: 'm' } as never);
      return [error.code, error.kind];
    });
    answersLikeAnUnknownWord((word) => [answeredBy(word), answeredBy(`${word} (voice)`)]);
    answersLikeAnUnknownWord((word) => decisionShort({ outcome: 'allowed', decidedBy: 'person', actor: word, ruleId: null } as never));
  });

  it('holds the unknown word itself to an answer (the comparison is not empty)', () => {
    expect(wordForms('k8s')).toContain('kubernetes');
    expect(readerText('a &amp; b')).toBe('a & b');
    expect(shapeOf('git')).toBeTypeOf('function');
    expect(normaliseShortcut(`Ctrl+${UNKNOWN}`)).toBeNull();
    expect(answeredBy('mcp')).toBe('an MCP client');
  });

  it('a shortcut: a key name is no key', () => {
    answersLikeAnUnknownWord((word) => normaliseShortcut(`Ctrl+${word}`));
  });
});
