/**
 * What the docs say about the bundled packs, rules and modes, checked against what the code does:
 * each claim is exercised on the real packs and core, and the doc must state it that way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { callOperation, type CallContext } from '../../../src-main/core/operations.js';
import { governingRule } from '../../../src-main/core/policy/rules.js';
import { createClient } from '../../../src-main/shared/contract.js';
import type { Rule } from '../../../src-main/shared/runs.js';
import { testHome } from '../../support/temp.js';
import { SKILLS_DIR, loadPacks } from './bundled-packs.js';

const REPO = join(SKILLS_DIR, '..');
const read = (...path: string[]): string => readFileSync(join(REPO, ...path), 'utf8');
/** A doc's text with line breaks folded into spaces, so a sentence can be found whatever its wrapping. */
const prose = (...path: string[]): string => read(...path).replace(/\s*\n\s*/g, ' ');

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

describe('docs/bundled-skills.md', () => {
  /** The overview table's rows: name → read_only, tool count and modes as written. */
  function overview(): Map<string, { readOnly: string; tools: string; modes: string }> {
    const rows = new Map<string, { readOnly: string; tools: string; modes: string }>();
    for (const line of read('docs', 'bundled-skills.md').split('\n')) {
      const cells = /^\| `([a-z0-9-]+)` \|(.*)\|$/.exec(line);
      if (cells === null || line.includes(' runs ')) continue;
      const [, tools = '', readOnly = '', modes = ''] = (cells[2] ?? '').split('|').map((cell) => cell.trim());
      rows.set(cells[1] ?? '', { tools, readOnly, modes });
    }
    return rows;
  }

  it('lists every bundled pack with the read_only, tool count and modes it really has', () => {
    const packs = loadPacks().list();
    const rows = overview();
    expect([...rows.keys()].sort()).toEqual(packs.map((skill) => skill.name));
    for (const skill of packs) {
      const readOnly = skill.tools.length === 0 ? '(no tools)' : skill.readOnly ? 'yes' : '**no**';
      expect(rows.get(skill.name), skill.name).toEqual({
        tools: skill.tools.length === 0 ? 'none' : String(skill.tools.length),
        readOnly,
        modes: skill.modes.join(', '),
      });
    }
    expect(prose('docs', 'bundled-skills.md')).toContain(`Skilltray ships seven skills`);
    expect(packs).toHaveLength(7);
  });

  it('shows each git command as the pack runs it, and no longer says an external diff never runs', () => {
    const doc = read('docs', 'bundled-skills.md');
    const git = loadPacks().get('git');
    const prefix = 'git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c log.showSignature=false -C <<repo:.>>';
    expect(prose('docs', 'bundled-skills.md')).toContain(`Every command starts with \`${prefix}\``);
    for (const tool of git?.tools ?? []) {
      expect(tool.command.startsWith(prefix), tool.name).toBe(true);
      expect(doc, tool.name).toContain(`| \`${tool.name}\` | \`git … -C <<repo:.>>${tool.command.slice(prefix.length)}\` |`);
    }
    for (const text of [doc, read('skills', 'git', 'SKILL.md')]) expect(text).not.toMatch(/external diff program (configured in Git )?never runs/);
  });
});

describe('docs/bundled-skills.md: the files pack', () => {
  it('describes the sensitive-path rule as the core applies it (files.test.ts runs it): over allow rules and Always, through symlinks', () => {
    const doc = prose('docs', 'bundled-skills.md');
    expect(doc).not.toContain('reads any file the user running Skilltray can read, without asking');
    expect(doc).toContain('A path is checked as written and again resolved against the working directory after following symlinks');
    expect(doc).toContain(
      'The rule overrides everything that would let a call run unasked: bundled read-only policy, an allow rule and a remembered *Always* alike',
    );
    expect(doc).toContain('Where nobody can be asked, it fails with E601, whose details give the reason, naming the argument');
  });
});

describe('README.md: rules', () => {
  const deny: Rule = { id: 1, pattern: 'skill:*', effect: 'deny', createdAt: 0, pins: [] };
  const allow: Rule = { id: 2, pattern: 'tool:git/git_status', effect: 'allow', createdAt: 0, pins: [] };

  it('says the most specific rule wins, as governingRule decides, not that deny wins over everything', () => {
    expect(governingRule([deny, allow], 'git', 'git_status')).toBe(allow);
    expect(governingRule([deny, allow], 'git', 'git_log')).toBe(deny);
    const readme = prose('README.md');
    expect(readme).not.toContain('win over everything');
    expect(readme).toContain('when several match, the most specific wins, so a narrow allow (`tool:git/git_status`) beats a broad deny (`skill:*`)');
  });
});

describe('docs/policy.md: modes', () => {
  it('says a tool outside the mode is listed as not offered, left out of discover and refused, as the core does', async () => {
    const home = testHome({ bundled: SKILLS_DIR });
    const core = new SkilltrayCore(home.config());
    cores.push(core);
    const ctx: CallContext = {
      surface: 'cli',
      caller: { kind: 'person' },
      cwd: home.userHome,
      approval: { kind: 'none' },
      owner: 'serve',
      version: '0.0.0-test',
    };
    const client = createClient((operation, input) => callOperation(core, operation, input, ctx));
    const intent = 'show the recent commits and the diff of my git repository';
    const discovered = async () => (await client.discover({ intent })).results.map((result) => result.skill_id);
    const listed = async (offeredOnly: boolean) => (await client.list(offeredOnly ? { offered_only: true } : {})).skills;

    core.preferences.setMode('Dev');
    expect(await discovered()).toContain('git');

    core.preferences.setMode('Meeting');
    expect((await listed(false)).find((skill) => skill.name === 'git')).toMatchObject({ offered: false });
    expect((await listed(true)).map((skill) => skill.name)).not.toContain('git');
    expect(await discovered()).not.toContain('git');
    await expect(client.run({ skill: 'git', tool: 'git_status', args: {}, cwd: home.work })).rejects.toMatchObject({ code: 'E605' });

    const policy = prose('docs', 'policy.md');
    expect(policy).not.toContain('not listed to assistants');
    expect(policy).toContain(
      'cannot run (E605). It is still listed: `list` shows every skill with `offered: false` for those outside the mode (`offered_only` leaves them out), while `discover` never suggests them.',
    );
  });
});
