/** A tool's `#### Policy`: read under its heading, held within what the frontmatter permits, and the policy every reader goes by. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { profileFor } from '../../../src-main/core/policy/profile.js';
import { decide } from '../../../src-main/core/policy/decide.js';
import { coverage, pinsFor } from '../../../src-main/core/policy/pins.js';
import { renderCommand } from '../../../src-main/core/template/render-command.js';
import { summarize } from '../../../src-main/core/skill-summary.js';
import { effectivePolicy } from '../../../src-main/shared/tool-policy.js';
import type { Skill, SkillRoot } from '../../../src-main/shared/model.js';
import type { SandboxView } from '../../../src-main/shared/runs.js';
import { tempDir, writeSkill } from '../../support/temp.js';

const userRoot = (path: string): SkillRoot => ({ path, kind: 'env', trust: 'user', syntax: 'angle' });

function load(frontmatter: string, readPolicy: string, writePolicy = '', root = tempDir()): Skill {
  const md = `---
name: files
description: Reads and writes files. Use when asked about files.
${frontmatter}
---

### list_files

Lists files.

#### Parameters

None.

#### Command

\`\`\`bash
ls -la
\`\`\`
${readPolicy === '' ? '' : `\n#### Policy\n\n${readPolicy}\n`}
### touch_file

Creates a file.

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
| path | string | yes | The file |

#### Command

\`\`\`bash
touch <<path>>
\`\`\`
${writePolicy === '' ? '' : `\n#### Policy\n\n${writePolicy}\n`}`;
  return parseSkill(writeSkill(root, 'files', md), userRoot(root));
}

const tool = (skill: Skill, name: string) => skill.tools.find((t) => t.name === name) as Skill['tools'][number];
const codes = (skill: Skill) => skill.diagnostics.map((d) => d.code);
const contained: SandboxView = { name: 'workspace', network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null };

describe('#### Policy under a tool', () => {
  it('makes one tool read-only in a skill that may write, and every reader goes by it', () => {
    const skill = load('version: 1.0.0', 'read_only: true\nalways_ask: true\ntimeout: 12');
    expect(codes(skill)).toEqual([]);
    const list = tool(skill, 'list_files');
    const touch = tool(skill, 'touch_file');
    expect(effectivePolicy(skill, list)).toEqual({ readOnly: true, alwaysAsk: true, timeoutSec: 12, network: false, hosts: [] });
    expect(effectivePolicy(skill, touch)).toEqual({ readOnly: false, alwaysAsk: false, timeoutSec: 30, network: false, hosts: [] });
    // The sandbox profile, the run's timeout and `list` read the tool's policy, not the skill's.
    expect(profileFor(skill, false, undefined, list).name).toBe('read-only');
    expect(profileFor(skill, false, undefined, touch).name).toBe('workspace');
    expect(renderCommand(skill, 'list_files', {}, { cwd: '/tmp' }).timeoutMs).toBe(12_000);
    expect(renderCommand(skill, 'touch_file', { path: 'a' }, { cwd: '/tmp' }).timeoutMs).toBe(30_000);
    const summary = summarize(skill, 'Global');
    expect(summary.tools.map((t) => [t.name, t.policy.readOnly, t.policy.alwaysAsk])).toEqual([
      ['list_files', true, true],
      ['touch_file', false, false],
    ]);
  });

  it("always_ask on a tool asks even over an allow rule and a remembered Always, while the skill's other tools do not", () => {
    const skill = load('version: 1.0.0', 'always_ask: true');
    const pin = { skill: 'files', rootKind: skill.identity.rootKind, path: skill.identity.path, trust: skill.identity.trust, profile: contained };
    const rule = { id: 1, pattern: 'skill:files', effect: 'allow' as const, createdAt: 0, pins: [pin] };
    const base = {
      skill,
      mode: 'Global' as const,
      paused: false,
      rules: [rule],
      remembered: null,
      cwd: '/tmp',
      programPath: '/usr/bin/ls',
      resolveBin: () => '/usr/bin/x',
      env: {},
      enabled: true,
      sandbox: contained,
    };
    const asked = decide({ ...base, tool: tool(skill, 'list_files') });
    expect(asked.outcome).toBe('ask');
    expect(asked.outcome === 'ask' && asked.reason).toContain("tool 'files/list_files' sets always_ask in its policy");
    expect(decide({ ...base, tool: tool(skill, 'touch_file') }).outcome).toBe('auto');
  });

  it('reads a policy written as a list or a fenced block, with a network within the skill’s', () => {
    const skill = load('network: [api.github.com, example.org]', '- network: [api.github.com]\n- timeout: 5', '```yaml\nnetwork: false\n```');
    expect(codes(skill)).toEqual([]);
    expect(effectivePolicy(skill, tool(skill, 'list_files'))).toMatchObject({ network: true, hosts: ['api.github.com'], timeoutSec: 5 });
    expect(effectivePolicy(skill, tool(skill, 'touch_file'))).toMatchObject({ network: false, hosts: [] });
    expect(profileFor(skill, false, undefined, tool(skill, 'touch_file')).network).toBe(false);
  });

  it('never widens what the frontmatter declares: each such line is W450 at its line, and the frontmatter holds', () => {
    const skill = load('read_only: true\nalways_ask: true\ntimeout: 20\nnetwork: [api.github.com]', 'read_only: false\nalways_ask: false\ntimeout: 60\nnetwork: true');
    const warned = skill.diagnostics.filter((d) => d.code === 'W450');
    expect(warned.map((d) => d.message.split(':')[1]?.trim())).toEqual(['read_only', 'always_ask', 'timeout', 'network']);
    expect(new Set(warned.map((d) => d.line)).size).toBe(4);
    expect(effectivePolicy(skill, tool(skill, 'list_files'))).toEqual(effectivePolicy(skill));
    expect(skill.state).toBe('warnings');
  });

  it('lets a tool take a longer timeout when the frontmatter writes none', () => {
    const skill = load('version: 1.0.0', 'timeout: 120');
    expect(codes(skill)).toEqual([]);
    expect(effectivePolicy(skill, tool(skill, 'list_files')).timeoutSec).toBe(120);
  });

  it('says a read-only tool does not get the writes its skill declares', () => {
    const skill = load('writes: [.git]', 'read_only: true');
    const w = skill.diagnostics.find((d) => d.code === 'W450');
    expect(w?.message).toContain('tool list_files is read-only');
    expect(profileFor(skill, false, undefined, tool(skill, 'list_files')).writes).toEqual([]);
  });

  it('refuses an unknown key, a bad value, a repeated key and a line that is no key: value (E450, with the line and did-you-mean)', () => {
    const skill = load('version: 1.0.0', 'readonly: true\ntimeout: 0\nalways_ask: maybe\nnetwork: nowhere\ntimeout: 5\ntimeout: 6\njust words');
    const e450 = skill.diagnostics.filter((d) => d.code === 'E450');
    expect(e450.map((d) => d.message)).toEqual([
      "tool list_files: unknown policy key 'readonly'; did you mean 'read_only'?",
      'tool list_files: timeout must be a whole number of seconds from 1 to 300, got "0"',
      'tool list_files: always_ask must be true or false, got "maybe"',
      'tool list_files: network must be true, false, host or a list such as [api.github.com]',
      "tool list_files: policy key 'timeout' is set twice",
      "tool list_files: policy key 'timeout' is set twice",
      'tool list_files: policy line "just words" is not `key: value`',
    ]);
    const first = e450[0]?.line as number;
    expect(e450.map((d) => d.line)).toEqual([first, first + 1, first + 2, first + 3, first + 4, first + 5, first + 6]);
    expect(skill.state).toBe('error');
  });

  it("pins an allow rule to each tool's own profile: a tool narrowed when the rule was made asks once it widens", () => {
    const root = tempDir();
    const narrowed = load('version: 1.0.0', 'read_only: true', '', root);
    const profileOf = (skill: Skill, t?: Skill['tools'][number]) => profileFor(skill, false, undefined, t);
    const pins = pinsFor('tool:files/list_files', [narrowed], profileOf);
    expect(pins[0]?.tools).toEqual({ list_files: expect.objectContaining({ name: 'read-only' }) });
    const rule = { id: 1, pattern: 'tool:files/list_files', effect: 'allow' as const, createdAt: 0, pins };
    expect(coverage(rule, narrowed, profileOf(narrowed, tool(narrowed, 'list_files')), 'list_files').kind).toBe('covers');
    const widened = load('version: 1.0.0', '', '', root);
    const now = coverage(rule, widened, profileOf(widened, tool(widened, 'list_files')), 'list_files');
    expect(now).toMatchObject({ kind: 'widened', why: expect.stringContaining('read-only') });
  });

  it('holds for any policy: a tool never reaches further than its skill, and narrowing always applies (property)', () => {
    const bool = fc.constantFrom('true', 'false');
    const seconds = fc.integer({ min: 1, max: 300 });
    fc.assert(
      fc.property(bool, bool, bool, bool, seconds, seconds, (skillRo, toolRo, skillAsk, toolAsk, skillT, toolT) => {
        const frontmatter = `read_only: ${skillRo}\nalways_ask: ${skillAsk}\ntimeout: ${skillT}`;
        const skill = load(frontmatter, `read_only: ${toolRo}\nalways_ask: ${toolAsk}\ntimeout: ${toolT}`);
        const mine = effectivePolicy(skill, tool(skill, 'list_files'));
        const theirs = effectivePolicy(skill);
        expect(mine.readOnly).toBe(skillRo === 'true' || toolRo === 'true');
        expect(mine.alwaysAsk).toBe(skillAsk === 'true' || toolAsk === 'true');
        expect(mine.timeoutSec).toBe(toolT <= skillT ? toolT : skillT);
        expect(mine.timeoutSec).toBeLessThanOrEqual(theirs.timeoutSec);
      }),
      { numRuns: 40 },
    );
  });

  it("gives a tool no network once its skill has none, whatever the tool's own policy holds (a served skill's until approved) (property)", () => {
    const hosts = fc.oneof(fc.constant<'host'>('host'), fc.array(fc.constantFrom('*', 'api.github.com', '*.example.com'), { maxLength: 3 }));
    const own = fc.record({ network: fc.option(fc.boolean(), { nil: undefined }), hosts: fc.option(hosts, { nil: undefined }) }, { requiredKeys: [] });
    fc.assert(
      fc.property(own, hosts, (policy, skillHosts) => {
        const skill = { readOnly: false, alwaysAsk: false, timeoutSec: 30, network: false, hosts: skillHosts };
        expect(effectivePolicy(skill, { policy })).toMatchObject({ network: false, hosts: [] });
      }),
      { numRuns: 200 },
    );
  });
});
