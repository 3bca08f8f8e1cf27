import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { resolvePrompt } from '../../../src-main/core/template/render-command.js';
import type { Skill, SkillRoot } from '../../../src-main/shared/model.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

const userRoot = (path: string): SkillRoot => ({ path, kind: 'env', trust: 'user', syntax: 'angle' });

function load(content: string, name = 'demo', files: Record<string, string> = {}): Skill {
  const root = tempDir();
  return parseSkill(writeSkill(root, name, content, files), userRoot(root));
}

const codes = (skill: Skill) => skill.diagnostics.map((d) => d.code);
const diag = (skill: Skill, code: string) => skill.diagnostics.find((d) => d.code === code);

const GOOD = { name: 'demo', description: 'Does a demo. Use when asked for a demo.', version: '1.0.0' };

const TOOL = `
### say_hello

Says hello to someone.

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
| who | string | yes | Who to greet |
| loud | boolean | no | Shout |

#### Command

\`\`\`bash
echo hello <<who>> <<loud:--loud>>
\`\`\`

#### Examples

\`\`\`
User: say hello to Ada
\`\`\`
`;

describe('Kode test contract (skill-format T1–T5)', () => {
  it('T1: an empty SKILL.md is rejected with a clear validation error', () => {
    const skill = load('');
    expect(skill.state).toBe('error');
    expect(diag(skill, 'E401')?.message).toBe('missing frontmatter: file does not start with ---');
  });

  it('T2: a missing name is rejected', () => {
    const skill = load(skillMd({ description: 'x', version: '1.0.0' }));
    expect(skill.state).toBe('error');
    expect(codes(skill)).toContain('E403');
  });

  it('T3: a missing description is rejected', () => {
    const skill = load(skillMd({ name: 'demo', version: '1.0.0' }));
    expect(skill.state).toBe('error');
    expect(codes(skill)).toContain('E404');
  });

  it('T4: a Kode skill without a version is flagged as breaking Kode (Agent Skills do not need one)', () => {
    const skill = load(skillMd('name: demo\ndescription: A demo.\nmetadata:\n  kode:\n    primary_env: bash'));
    const d = diag(skill, 'W402');
    expect(d?.severity).toBe('warning');
    expect(d?.breaks).toEqual(['kode']);
    expect(skill.state).toBe('warnings');
    expect(codes(load(skillMd({ name: 'demo', description: 'A demo.' })))).toEqual([]);
  });

  it('T6: round trip — file → load → resolve substitutes $ARGUMENTS', () => {
    const skill = load(skillMd(GOOD, '\nReview the files $ARGUMENTS and list problems.\nScope: $ARGUMENTS\n'));
    expect(skill.state).toBe('ok');
    expect(resolvePrompt(skill, ['src/a.ts', 'src/b.ts'])).toBe('\nReview the files src/a.ts src/b.ts and list problems.\nScope: src/a.ts src/b.ts\n');
  });

  it('T5: a name that differs from the directory is rejected, on the line of the name', () => {
    const skill = load(`---\ndescription: A demo.\nname: other\nversion: 1.0.0\n---\n`);
    expect(diag(skill, 'E407')).toMatchObject({ severity: 'error', line: 3, message: "name 'other' does not match directory 'demo'" });
  });
});

describe('Agent Skills name and description rules', () => {
  it.each([
    ['pdf-processing', []],
    ['a', []],
    ['skill123', []],
    ['PDF-Processing', ['E405', 'E407']],
    ['-pdf', ['E405', 'E407']],
    ['pdf-', ['E405']],
    ['pdf--processing', ['E405']],
    ['skill_name', ['E405', 'E407']],
    ['x'.repeat(65), ['E406', 'E407']],
  ])('name %j → %j', (name, expected) => {
    const dir = /^[a-z0-9-]+$/.test(name) && name.length <= 64 && !name.startsWith('-') ? name : 'demo';
    const skill = load(skillMd({ ...GOOD, name }), dir);
    expect(codes(skill).filter((c) => c.startsWith('E'))).toEqual(expected);
  });

  it('says which formats a bad name breaks: a trailing hyphen is legal in Kode, an uppercase letter is not', () => {
    expect(diag(load(skillMd({ ...GOOD, name: 'pdf-' }), 'pdf-'), 'E405')?.breaks).toEqual(['agentskills']);
    expect(diag(load(skillMd({ ...GOOD, name: 'Pdf' }), 'Pdf'), 'E405')?.breaks).toEqual(['kode', 'agentskills']);
  });

  it.each([
    ['', 'E404'],
    ['   ', 'E404'],
    ['x'.repeat(1025), 'E408'],
  ])('description of length %#', (description, code) => {
    expect(codes(load(skillMd({ ...GOOD, description })))).toContain(code);
  });

  it('accepts a 1024-character description, tools or not (gibb.eri.sh\'s 256 bind only its own folder)', () => {
    expect(codes(load(skillMd({ ...GOOD, description: 'x'.repeat(1024) })))).toEqual([]);
    expect(codes(load(skillMd({ ...GOOD, description: 'x'.repeat(1024) }, TOOL)))).toEqual([]);
  });

  it('loads a content-only skill (no tools) without diagnostics', () => {
    const skill = load(skillMd(GOOD, '# Demo\n\n## Usage\n\n### Details\n\nPlain prose, not a tool.\n'));
    expect(skill.state).toBe('ok');
    expect(skill.tools).toEqual([]);
  });
});

describe('gibb.eri.sh tools', () => {
  it('reads a tool: description, typed parameters, the command and its examples', () => {
    const skill = load(skillMd(GOOD, TOOL));
    expect(skill.state).toBe('ok');
    const [tool] = skill.tools;
    expect(tool).toMatchObject({ name: 'say_hello', description: 'Says hello to someone.', command: 'echo hello <<who>> <<loud:--loud>>' });
    expect(tool?.params.map((p) => [p.name, p.type, p.required])).toEqual([
      ['who', 'string', true],
      ['loud', 'boolean', false],
    ]);
    expect(tool?.examples).toContain('User: say hello to Ada');
    expect(tool?.line).toBe(7);
    expect(tool?.commandLine).toBe(21);
  });

  it("reads each parameter's default from its placeholder: <<key:value>> is one, a boolean's <<key:--flag>> and a bare <<key>> are not", () => {
    const body = TOOL.replace('| loud | boolean | no | Shout |', '| loud | boolean | no | Shout |\n| count | integer | no | How many |\n| dir | string | no | Where |').replace(
      'echo hello <<who>> <<loud:--loud>>',
      'echo hello <<who>> <<loud:--loud>> -n <<count:10>> <<dir:.>> again=<<count:3>>',
    );
    const skill = load(skillMd(GOOD, body));
    expect(skill.state).toBe('ok');
    expect(skill.tools[0]?.params.map((p) => [p.name, p.default])).toEqual([
      ['who', null],
      ['loud', null],
      ['count', '10'],
      ['dir', '.'],
    ]);
  });

  it('reads frontmatter extensions and keeps unknown keys', () => {
    const skill = load(
      skillMd(`name: demo\ndescription: Demo.\nversion: 1.0.0\nmodes: [Dev, Meeting]\nread_only: true\nalways_ask: true\ntimeout: 120\nauthor: someone\nnetwork: true`),
    );
    expect(skill).toMatchObject({ modes: ['Dev', 'Meeting'], readOnly: true, alwaysAsk: true, timeoutSec: 120 });
    expect(skill.frontmatter).toMatchObject({ author: 'someone', network: true });
  });

  it('defaults: modes [Global], timeout 30, not read-only', () => {
    expect(load(skillMd(GOOD))).toMatchObject({ modes: ['Global'], timeoutSec: 30, readOnly: false, alwaysAsk: false });
  });

  it('accepts "None." and "(None)" for a tool without parameters', () => {
    for (const none of ['None.', '(None)']) {
      const skill = load(skillMd(GOOD, `### status\n\nShows status.\n\n#### Parameters\n\n${none}\n\n#### Command\n\n\`\`\`\ngit status\n\`\`\`\n`));
      expect(skill.state).toBe('ok');
      expect(skill.tools[0]?.params).toEqual([]);
    }
  });
});

/** Malformed skills, each with the diagnostic (code and line) it must get. */
const MALFORMED: { case: string; content: string; code: string; line: number }[] = [
  { case: 'no frontmatter', content: '# Just markdown\n', code: 'E401', line: 1 },
  { case: 'no closing delimiter', content: '---\nname: demo\ndescription: x\n', code: 'E401', line: 1 },
  { case: 'YAML syntax error', content: '---\nname: demo\ndescription: [unclosed\n---\n', code: 'E402', line: 3 },
  { case: 'duplicate key', content: '---\nname: demo\nname: demo\ndescription: x\n---\n', code: 'E402', line: 3 },
  { case: 'frontmatter is a list', content: '---\n- a\n- b\n---\n', code: 'E402', line: 2 },
  { case: 'a YAML line starting with ---', content: '---\nname: demo\n---x: 1\ndescription: lost otherwise\n---\n', code: 'E402', line: 3 },
  { case: 'timeout out of range', content: skillMd({ ...GOOD, timeout: 301 }), code: 'E417', line: 5 },
  { case: 'timeout not a number', content: skillMd({ ...GOOD, timeout: 'soon' }), code: 'E417', line: 5 },
  { case: 'read_only not boolean', content: skillMd({ ...GOOD, read_only: 'yes' }), code: 'E417', line: 5 },
  { case: 'modes not a list', content: skillMd({ ...GOOD, modes: 5 }), code: 'E417', line: 5 },
  { case: 'unknown mode', content: skillMd({ ...GOOD, modes: ['Work'] }), code: 'W411', line: 5 },
  { case: 'version not semver (a Kode skill)', content: skillMd('name: demo\ndescription: x\nversion: "1.0"\nmetadata:\n  kode:\n    primary_env: bash'), code: 'W403', line: 4 },
  { case: 'unknown placeholders value', content: skillMd({ ...GOOD, placeholders: 'curly' }), code: 'E417', line: 5 },
  {
    case: 'requires.bins not a list',
    content: skillMd(`name: demo\ndescription: x\nversion: 1.0.0\nmetadata:\n  kode:\n    requires:\n      bins: git`),
    code: 'E417',
    line: 8,
  },
  {
    case: 'classification role unknown',
    content: skillMd(`name: demo\ndescription: x\nversion: 1.0.0\nmetadata:\n  classification:\n    role: helper`),
    code: 'E413',
    line: 7,
  },
  {
    case: 'sidecar invoked directly',
    content: skillMd(`name: demo\ndescription: x\nversion: 1.0.0\nmetadata:\n  classification:\n    role: sidecar\n    invocation: direct`),
    code: 'E414',
    line: 8,
  },
  {
    case: 'attach without targets',
    content: skillMd(`name: demo\ndescription: x\nversion: 1.0.0\nmetadata:\n  classification:\n    role: utility\n    invocation: attach`),
    code: 'E414',
    line: 8,
  },
  {
    case: 'direct with targets',
    content: skillMd(`name: demo\ndescription: x\nversion: 1.0.0\nmetadata:\n  classification:\n    invocation: direct\n    attach_targets: [run]`),
    code: 'E414',
    line: 8,
  },
  {
    case: 'unknown attach target',
    content: skillMd(`name: demo\ndescription: x\nversion: 1.0.0\nmetadata:\n  classification:\n    invocation: both\n    attach_targets: [email]`),
    code: 'E413',
    line: 8,
  },
  {
    case: 'tool without Command block',
    content: skillMd(GOOD, '\n### status\n\nShows status.\n\n#### Parameters\n\nNone.\n'),
    code: 'E409',
    line: 7,
  },
  {
    case: 'tool with two Command blocks',
    content: skillMd(GOOD, '\n### status\n\nShows status.\n\n#### Command\n\n```\ngit status\n```\n\n```\ngit log\n```\n'),
    code: 'E410',
    line: 17,
  },
  {
    case: 'placeholder names no parameter',
    content: skillMd(GOOD, '\n### log\n\nShows log.\n\n#### Parameters\n\nNone.\n\n#### Command\n\n```\ngit log -n <<count>>\n```\n'),
    code: 'E411',
    line: 18,
  },
  {
    case: 'unknown parameter type',
    content: skillMd(
      GOOD,
      '\n### log\n\nShows log.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| count | float32 | no | how many |\n\n#### Command\n\n```\ngit log -n <<count:10>>\n```\n',
    ),
    code: 'E412',
    line: 15,
  },
  {
    case: 'Required neither yes nor no',
    content: skillMd(
      GOOD,
      '\n### log\n\nShows log.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| count | integer | maybe | how many |\n\n#### Command\n\n```\ngit log -n <<count:10>>\n```\n',
    ),
    code: 'E416',
    line: 15,
  },
  {
    case: 'table without Type column',
    content: skillMd(GOOD, '\n### log\n\nShows log.\n\n#### Parameters\n\n| Name | Required |\n|---|---|\n| count | no |\n\n#### Command\n\n```\ngit log\n```\n'),
    code: 'E416',
    line: 13,
  },
  {
    case: 'tool name with capitals',
    content: skillMd(GOOD, '\n### GitLog\n\nShows log.\n\n#### Command\n\n```\ngit log\n```\n'),
    code: 'E415',
    line: 7,
  },
  {
    case: 'the same tool twice',
    content: skillMd(GOOD, '\n### log\n\nA.\n\n#### Command\n\n```\ngit log\n```\n\n### log\n\nB.\n\n#### Command\n\n```\ngit log\n```\n'),
    code: 'E419',
    line: 17,
  },
  {
    case: 'unterminated quote in a Command',
    content: skillMd(GOOD, '\n### say\n\nSays.\n\n#### Command\n\n```\necho "hello\n```\n'),
    code: 'E420',
    line: 14,
  },
  {
    case: 'program written as a placeholder',
    content: skillMd(
      GOOD,
      '\n### run\n\nRuns.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| prog | string | yes | x |\n\n#### Command\n\n```\n<<prog>> --help\n```\n',
    ),
    code: 'E421',
    line: 20,
  },
  {
    case: 'declared parameter never used',
    content: skillMd(
      GOOD,
      '\n### log\n\nShows log.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| count | integer | no | how many |\n\n#### Command\n\n```\ngit log\n```\n',
    ),
    code: 'W404',
    line: 15,
  },
  {
    case: 'shell syntax in a Command',
    content: skillMd(GOOD, '\n### count\n\nCounts.\n\n#### Command\n\n```\nls | wc -l\n```\n'),
    code: 'W405',
    line: 14,
  },
  {
    case: 'compatibility over 500 characters',
    content: skillMd({ ...GOOD, compatibility: 'x'.repeat(501) }),
    code: 'W406',
    line: 5,
  },
  {
    case: 'tool without a description paragraph',
    content: skillMd(GOOD, '\n### status\n\n#### Command\n\n```\ngit status\n```\n'),
    code: 'W414',
    line: 7,
  },
];

describe('malformed skills get the diagnostic they deserve, at the right line', () => {
  it.each(MALFORMED)('$case → $code at line $line', ({ content, code, line }) => {
    const skill = load(content);
    const d = diag(skill, code);
    expect(d, `diagnostics were ${JSON.stringify(skill.diagnostics)}`).toBeDefined();
    expect(d?.line).toBe(line);
    expect(d?.file).toBe(skill.file);
    expect(d?.message.length).toBeGreaterThan(10);
    expect(skill.state).toBe(code.startsWith('E') ? 'error' : 'warnings');
  });
});

describe('Kode and Agent Skills metadata', () => {
  it('reads metadata.kode and merges requires from Kode and Skilltray forms', () => {
    const skill = load(
      skillMd(
        `name: demo\ndescription: x\nversion: 1.0.0\nrequires:\n  bins: [jq]\nmetadata:\n  kode:\n    primary_env: bash\n    permission_mode: plan\n    requires:\n      bins: [git]\n      env: [GH_TOKEN]\n    tools: [read_file, shell]`,
      ),
    );
    expect(skill.kode).toEqual({ primaryEnv: 'bash', permissionMode: 'plan', tools: ['read_file', 'shell'] });
    expect(skill.requires).toEqual({ bins: ['git', 'jq'], env: ['GH_TOKEN'] });
    expect(skill.state).toBe('ok');
  });

  it('warns (Kode only) on an unknown primary_env', () => {
    const skill = load(skillMd(`name: demo\ndescription: x\nversion: 1.0.0\nmetadata:\n  kode:\n    primary_env: ruby`));
    expect(diag(skill, 'W407')).toMatchObject({ line: 7, breaks: ['kode'] });
  });

  it('reads Agent Skills fields and ADR-001 classification with discovery fields', () => {
    const skill = load(
      skillMd(
        `name: demo\ndescription: x\nlicense: Apache-2.0\ncompatibility: Requires git\nallowed-tools: Bash(git:*) Read\nmetadata:\n  author: me\n  version: "2.1"\n  tags: git, vcs\n  classification:\n    role: sidecar\n    invocation: attach\n    attach_targets: [run, transcript]\n    effect_mode: enrich\n    domain: [dev]\n    status: stable`,
      ),
    );
    expect(skill).toMatchObject({
      version: '2.1',
      license: 'Apache-2.0',
      compatibility: 'Requires git',
      allowedTools: 'Bash(git:*) Read',
      classification: { role: 'sidecar', invocation: 'attach', attachTargets: ['run', 'transcript'], effectMode: 'enrich' },
      domain: ['dev'],
      tags: ['git', 'vcs'],
      status: 'stable',
    });
    expect(codes(skill)).toEqual([]);
  });

  it('reads tags and domains written as a list or a comma-separated string: each trimmed, the empty ones left out', () => {
    const skill = load(skillMd(`name: demo\ndescription: x\nmetadata:\n  tags: " git , ,vcs,"\n  classification:\n    domain: [dev, " ", " ops "]`));
    expect(skill).toMatchObject({ tags: ['git', 'vcs'], domain: ['dev', 'ops'] });
  });
});

describe('content hash', () => {
  it('covers every file of the skill, not only SKILL.md', () => {
    const root = tempDir();
    const dir = writeSkill(root, 'demo', skillMd(GOOD), { 'references/a.md': '# A\n' });
    const before = parseSkill(dir, userRoot(root)).hash;
    writeSkill(root, 'demo', skillMd(GOOD), { 'references/a.md': '# A changed\n' });
    const after = parseSkill(dir, userRoot(root)).hash;
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
    expect(parseSkill(dir, userRoot(root)).hash).toBe(after);
  });
});
