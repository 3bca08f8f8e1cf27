/**
 * Diagnostics as real skills meet them: lengths in characters (CJK beyond the BMP included), each
 * format's rules only where that format applies, `metadata.version` as the version, and Agent
 * Skills' own limits on compatibility and metadata values. A plain Agent Skill that follows its
 * spec gets no diagnostic at all.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { characterCount, formatsOf } from '../../../src-main/core/skills/format-rules.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { summarize } from '../../../src-main/core/skill-summary.js';
import type { RootKind, Skill, SkillRoot } from '../../../src-main/shared/model.js';
import { copyFixtureSkill } from '../../fixtures/gateway/skill-fixture.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

const rootAt = (path: string, kind: RootKind = 'env'): SkillRoot => ({ path, kind, trust: 'user', syntax: kind === 'gibberish' ? 'braces' : 'angle' });

function load(content: string, kind: RootKind = 'env'): Skill {
  const root = tempDir();
  return parseSkill(writeSkill(root, 'demo', content), rootAt(root, kind));
}

function fixture(name: 'agent-skill' | 'cjk-skill'): Skill {
  const root = tempDir();
  return parseSkill(copyFixtureSkill(root, name), rootAt(root));
}

const codes = (skill: Skill) => skill.diagnostics.map((d) => d.code);
const LONG = 'Summarises meeting notes into decisions, owners and dates. '.repeat(6).trim();
const tool = (placeholder = '<<who>>') =>
  `\n### greet\n\nSays hello.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| who | string | yes | whom |\n\n#### Command\n\n\`\`\`bash\necho ${placeholder}\n\`\`\`\n`;

describe('lengths are characters (code points), as the Agent Skills spec counts them', () => {
  it('600 CJK characters beyond the BMP (1,200 UTF-16 units) are a valid description', () => {
    const skill = fixture('cjk-skill');
    expect(characterCount(skill.description)).toBe(600);
    expect(skill.description.length).toBe(1200);
    expect(skill.diagnostics).toEqual([]);
  });

  it('1,025 of them are too many, and the message counts characters', () => {
    const skill = load(skillMd({ name: 'demo', description: '𨋢'.repeat(1025) }));
    expect(skill.diagnostics).toEqual([expect.objectContaining({ code: 'E408', message: 'description is 1025 characters; the limit is 1024' })]);
  });

  it('gibb.eri.sh\'s 256 and compatibility\'s 500 count characters too', () => {
    expect(codes(load(skillMd({ name: 'demo', description: '𠮶'.repeat(256), version: '1.0.0' }, tool('{{who}}')), 'gibberish'))).toEqual([]);
    expect(load(skillMd({ name: 'demo', description: '𠮶'.repeat(257), version: '1.0.0' }, tool('{{who}}')), 'gibberish').diagnostics[0]?.message).toBe(
      'description is 257 characters; gibb.eri.sh allows 256',
    );
    expect(codes(load(skillMd({ name: 'demo', description: 'd', compatibility: '𡃁'.repeat(500) })))).toEqual([]);
    expect(codes(load(skillMd({ name: 'demo', description: 'd', compatibility: '𡃁'.repeat(501) })))).toEqual(['W406']);
  });
});

describe('a rule of another format applies only where that format applies', () => {
  it('a plain Agent Skill without tools: no gibb.eri.sh limit, no Kode version', () => {
    expect(codes(load(skillMd({ name: 'demo', description: LONG })))).toEqual([]);
  });

  it('a Skilltray skill with tools, in Skilltray\'s own roots, owes gibb.eri.sh nothing: no 256 characters, no version', () => {
    for (const kind of ['env', 'home', 'packs', 'bundled'] as const) expect(codes(load(skillMd({ name: 'demo', description: LONG }, tool()), kind))).toEqual([]);
  });

  it('a skill in gibb.eri.sh\'s folder is one, tools or not: its 256 characters and a version', () => {
    expect(codes(load(skillMd({ name: 'demo', description: LONG }), 'gibberish'))).toEqual(['W401', 'W402']);
    const skill = load(skillMd({ name: 'demo', description: LONG }, tool('{{who}}')), 'gibberish');
    expect(skill.diagnostics.map((d) => [d.code, d.breaks])).toEqual([
      ['W401', ['gibberish']],
      ['W402', ['gibberish']],
    ]);
    expect(skill.diagnostics[1]?.message).toBe('version is missing; gibb.eri.sh requires a semver version such as 1.0.0');
  });

  it('a Kode skill (metadata.kode, or in ~/.kode/skills) needs a version, not gibb.eri.sh\'s 256 characters', () => {
    const kode = load(skillMd(`name: demo\ndescription: ${LONG}\nmetadata:\n  kode:\n    primary_env: bash`));
    expect(kode.diagnostics.map((d) => [d.code, d.breaks, d.message])).toEqual([['W402', ['kode'], 'version is missing; Kode requires a semver version such as 1.0.0']]);
    expect(codes(load(skillMd({ name: 'demo', description: LONG }), 'kode'))).toEqual(['W402']);
    expect(codes(load(skillMd({ name: 'demo', description: 'd', version: '1.0' }), 'kode'))).toEqual(['W403']);
  });

  it('a Kode skill in gibb.eri.sh\'s folder breaks both', () => {
    const skill = load(skillMd(`name: demo\ndescription: d\nmetadata:\n  kode:\n    primary_env: bash`, tool('{{who}}')), 'gibberish');
    expect(skill.diagnostics.map((d) => [d.code, d.breaks])).toEqual([['W402', ['gibberish', 'kode']]]);
  });

  it('says which formats apply', () => {
    const root = rootAt('/x');
    expect(formatsOf(root, {})).toEqual([]);
    expect(formatsOf(root, { metadata: { kode: {} } })).toEqual(['kode']);
    expect(formatsOf(rootAt('/x', 'gibberish'), {})).toEqual(['gibberish']);
    expect(formatsOf(rootAt('/x', 'gibberish'), { metadata: { kode: {} } })).toEqual(['gibberish', 'kode']);
    expect(formatsOf(rootAt('/x', 'claude'), {})).toEqual([]);
  });
});

describe('metadata.version is the version', () => {
  it('an Agent Skill with metadata.version and no tools: no warning, and the version is listed', () => {
    const skill = fixture('agent-skill');
    expect(skill.diagnostics).toEqual([]);
    expect(skill.version).toBe('1.0');
    expect(summarize(skill, 'Global').version).toBe('1.0');
  });

  it('a top-level version wins over metadata.version', () => {
    expect(load(skillMd('name: demo\ndescription: d\nversion: 2.0.0\nmetadata:\n  version: "1.0"')).version).toBe('2.0.0');
  });

  it('a gibb.eri.sh skill is told that gibb.eri.sh reads the top-level version', () => {
    const skill = load(skillMd('name: demo\ndescription: d\nmetadata:\n  version: "1.0"', tool('{{who}}')), 'gibberish');
    expect(skill.version).toBe('1.0');
    expect(skill.diagnostics.map((d) => d.message)).toEqual(["version is only in metadata.version ('1.0'); gibb.eri.sh reads the top-level version: add version: 1.0.0"]);
  });
});

describe("Agent Skills' own limits are reported", () => {
  it.each([
    ['compatibility: ""', 'compatibility is empty; Agent Skills wants 1 to 500 characters, or no compatibility at all'],
    ['compatibility: [git, docker]', 'compatibility is a list; Agent Skills wants a string of 1 to 500 characters'],
    ['compatibility:', 'compatibility is empty; Agent Skills wants a string of 1 to 500 characters'],
    ['compatibility: 3', 'compatibility is a number (3); Agent Skills wants a string of 1 to 500 characters'],
  ])('%s → W406', (line, message) => {
    const skill = load(skillMd(`name: demo\ndescription: d\n${line}`));
    expect(skill.diagnostics).toEqual([expect.objectContaining({ code: 'W406', line: 4, message, breaks: ['agentskills'] })]);
    expect(skill.state).toBe('warnings');
  });

  it('non-string metadata values are W415, at their line; Kode\'s and ADR-001\'s mappings are their formats\' own', () => {
    const skill = load(
      skillMd(
        'name: demo\ndescription: d\nmetadata:\n  author: me\n  version: 1.0\n  beta: true\n  tags: [a, b]\n  extra:\n    k: v\n  empty:\n  kode:\n    primary_env: bash\n  classification:\n    role: utility',
      ),
    );
    expect(skill.diagnostics.filter((d) => d.code !== 'W402').map((d) => [d.code, d.line, d.message])).toEqual([
      ['W415', 6, 'metadata.version is a number (1); Agent Skills metadata maps keys to strings: quote it as written'],
      ['W415', 7, 'metadata.beta is a boolean (true); Agent Skills metadata maps keys to strings: quote it as written'],
      ['W415', 8, 'metadata.tags is a list; Agent Skills metadata maps keys to strings: write it as one string, e.g. "a, b"'],
      ['W415', 9, 'metadata.extra is a mapping; Agent Skills metadata maps keys to strings'],
      ['W415', 11, 'metadata.empty is empty; Agent Skills metadata maps keys to strings'],
    ]);
  });
});

describe('values other hosts read otherwise (the second corpus)', () => {
  const CORPUS = join(import.meta.dirname, '..', '..', 'fixtures', 'corpus');
  const corpus = (name: string): Skill => parseSkill(join(CORPUS, name), rootAt(CORPUS));

  it('an unquoted date or timestamp in metadata is W415 with the quoted fix; a quoted one, or a string that only starts like a date, is not', () => {
    expect(corpus('dated-metadata').diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ['W415', 6, 'metadata.updated is a date, not a string, to the YAML loaders most hosts use (js-yaml, PyYAML); Agent Skills metadata maps keys to strings: quote it as written, updated: "2026-03-05"'],
      ['W415', 7, 'metadata.stamp is a date, not a string, to the YAML loaders most hosts use (js-yaml, PyYAML); Agent Skills metadata maps keys to strings: quote it as written, stamp: "2026-03-05T10:00:00Z"'],
    ]);
  });

  it('a date in a flow mapping too', () => {
    expect(codes(load(skillMd('name: demo\ndescription: d\nmetadata: { updated: 2026-03-05, by: me }')))).toEqual(['W415']);
  });

  it('allowed-tools with commas is W408 naming what hosts read and the spec\'s form; a comma inside parentheses separates nothing', () => {
    expect(corpus('comma-tools').diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      [
        'W408',
        4,
        "allowed-tools separates tools with commas, so hosts read the tools 'Read,' 'Grep,' 'Glob,' 'Bash(git diff, git log)'; Agent Skills wants one string of tools separated by spaces: allowed-tools: Read Grep Glob Bash(git diff, git log)",
      ],
    ]);
    expect(codes(load(skillMd({ name: 'demo', description: 'd', 'allowed-tools': 'Bash(git add, git commit) Read' })))).toEqual([]);
  });

  it.each([
    ['allowed-tools: [Read, Grep]', 'allowed-tools is a YAML list; Agent Skills wants one string of tools separated by spaces: allowed-tools: Read Grep'],
    ['allowed-tools:\n  - Read\n  - Bash(git:*)', 'allowed-tools is a YAML list; Agent Skills wants one string of tools separated by spaces: allowed-tools: Read Bash(git:*)'],
    ['allowed-tools: 3', 'allowed-tools is a number (3); Agent Skills wants one string of tools separated by spaces, e.g. allowed-tools: Bash(git:*) Read'],
  ])('%s → W408', (line, message) => {
    expect(load(skillMd(`name: demo\ndescription: d\n${line}`)).diagnostics).toEqual([expect.objectContaining({ code: 'W408', line: 4, message })]);
  });
});

describe('issue 40: defects met on real skills', () => {
  it('version: 2.0 is listed as written, and W422 says YAML reads it as a number (it was null, without a word)', () => {
    const skill = load(skillMd('name: demo\ndescription: d\nversion: 2.0'));
    expect(skill.version).toBe('2.0');
    expect(skill.diagnostics.map((d) => [d.code, d.line, d.breaks, d.message])).toEqual([
      ['W422', 4, [], 'version 2.0 is a number to YAML (read as 2); quote it as written: version: "2.0"'],
    ]);
    expect(summarize(skill, 'Global').version).toBe('2.0');
    // Read by the YAML library (a comment after the value) as by the plain reader, and for a Kode skill, as breaking Kode.
    expect(load(skillMd('name: demo\ndescription: d\nversion: 1.10 # minor ten')).version).toBe('1.10');
    const kode = load(skillMd('name: demo\ndescription: d\nversion: 3\nmetadata:\n  kode:\n    primary_env: bash'));
    expect(kode.version).toBe('3');
    expect(kode.diagnostics.map((d) => [d.code, d.breaks])).toEqual([['W422', ['kode']]]);
    expect(codes(load(skillMd({ name: 'demo', description: 'd', version: '2.0' })))).toEqual([]);
  });

  it("W408's fix never splits a tool whose name holds a space: it names the tool instead", () => {
    const list = "allowed-tools: ['Azure MCP/documentation', 'Azure MCP/bicepschema', Read]";
    expect(load(skillMd(`name: demo\ndescription: d\n${list}`)).diagnostics.map((d) => d.message)).toEqual([
      "allowed-tools is a YAML list; Agent Skills wants one string of tools separated by spaces, where 'Azure MCP/documentation' would read as 'Azure' and 'MCP/documentation', 'Azure MCP/bicepschema' would read as 'Azure' and 'MCP/bicepschema': name those tools without spaces",
    ]);
    const commas = 'allowed-tools: Azure MCP/documentation, Read';
    expect(load(skillMd(`name: demo\ndescription: d\n${commas}`)).diagnostics.map((d) => d.message)).toEqual([
      "allowed-tools separates tools with commas, so hosts read the tools 'Azure' 'MCP/documentation,' 'Read'; Agent Skills wants one string of tools separated by spaces, where 'Azure MCP/documentation' would read as 'Azure' and 'MCP/documentation': name that tool without spaces",
    ]);
    // A space inside parentheses is part of one tool: the fix joins as before.
    expect(load(skillMd('name: demo\ndescription: d\nallowed-tools: [Bash(oo *)]')).diagnostics.map((d) => d.message)).toEqual([
      'allowed-tools is a YAML list; Agent Skills wants one string of tools separated by spaces: allowed-tools: Bash(oo *)',
    ]);
  });

  it('metadata that is not a mapping is E417 for Skilltray, breaking no format: Agent Skills\' validator takes it', () => {
    const skill = load(skillMd('name: demo\ndescription: d\nmetadata: just text'));
    expect(skill.diagnostics.map((d) => [d.code, d.breaks])).toEqual([['E417', []]]);
  });
});

describe('a plain Agent Skill that follows its spec gets no diagnostic (property)', () => {
  const text = (max: number) =>
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: max }).filter((s) => s.trim() !== '' && characterCount(s) <= max);
  const slug = fc.stringMatching(/^[a-z0-9]{1,10}(?:-[a-z0-9]{1,10}){0,3}$/);
  const frontmatter = fc.record(
    {
      description: text(1024),
      license: text(40),
      compatibility: text(500),
      'allowed-tools': fc.constantFrom('Read', 'Bash(git:*) Read'),
      metadata: fc.dictionary(fc.stringMatching(/^[a-z][a-z-]{0,11}$/).filter((k) => k !== 'kode' && k !== 'classification'), text(30), { maxKeys: 4 }),
    },
    { requiredKeys: ['description'] },
  );

  it('whatever its name, description, license, compatibility and metadata', () => {
    fc.assert(
      fc.property(slug, frontmatter, (name, fields) => {
        const root = tempDir();
        const yaml = [`name: ${JSON.stringify(name)}`, ...Object.entries(fields).map(([key, value]) => `${key}: ${JSON.stringify(value)}`)].join('\n');
        const skill = parseSkill(writeSkill(root, name, `---\n${yaml}\n---\n# Usage\n\nProse only.\n`), rootAt(root, 'claude'));
        expect(skill.diagnostics).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
