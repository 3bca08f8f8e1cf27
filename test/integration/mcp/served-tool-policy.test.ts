/**
 * A tool's own `#### Policy` in a skill an MCP source serves: until the person approves what the
 * skill declares, the network its frontmatter writes is taken out (W460), and so is any network a
 * tool's Policy narrowed from it; no tool of the skill reaches further than the skill itself.
 * The served skill is laid out in the client's home as the source client leaves an approved one.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillMd, testHome, type TestHome } from '../../support/temp.js';
import { coresClosedAfterEach } from '../../support/cores.js';

const open = coresClosedAfterEach();

const tool = (name: string, policy: string): string[] => [
  '',
  `### ${name}`,
  '',
  'Prints a greeting.',
  '',
  '#### Command',
  '',
  '```',
  'echo hello',
  '```',
  '',
  ...(policy === '' ? [] : ['#### Policy', '', policy, '']),
];

/** `src.greet` in the client's mcp root, approved as it is; `grants`: whether what it declares was approved too. */
function servedSkill(t: TestHome, network: unknown, policy: string, grants: boolean): void {
  const text = skillMd({ name: 'greet', description: 'Greets. Use when greeting.', network }, [...tool('fetch', policy), ...tool('plain', '')].join('\n'));
  const dir = join(t.home, 'mcp', 'skills', 'src.greet');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), text);
  const file = { path: 'SKILL.md', uri: 'skill://greet/SKILL.md', digest: createHash('sha256').update(text).digest('hex'), size: Buffer.byteLength(text) };
  const state = { checkedAt: 1, error: null, skills: {}, approved: { greet: { uri: file.uri, files: [file], digest: 'd', grants, approvedAt: 1 } } };
  mkdirSync(join(t.home, 'mcp', 'sources', 'src'), { recursive: true });
  writeFileSync(join(t.home, 'mcp', 'sources', 'src', 'state.json'), JSON.stringify(state));
}

const sandboxOf = (t: TestHome, toolName: string) =>
  open(t).runs.dryRun({ skill: 'src.greet', tool: toolName, surface: 'cli', cwd: t.work }).sandbox as { network: boolean; hosts?: unknown };

describe("a served skill's tool policy", () => {
  it.each([
    ['any host', true, 'network: true'],
    ['a host list', ['api.github.com', 'example.com'], 'network: [api.github.com]'],
  ])('reaches no network through a tool Policy (%s) until the person approves what the skill declares', (_, network, policy) => {
    const t = testHome();
    servedSkill(t, network, policy, false);
    const skill = open(t).library.registry.get('src.greet');
    expect(skill?.diagnostics.map((d) => d.code)).toContain('W460');
    expect(sandboxOf(t, 'fetch').network).toBe(false);
    expect(sandboxOf(t, 'plain').network).toBe(false);
  });

  it('reaches what its tool Policy says once the person approved what the skill declares', () => {
    const t = testHome();
    servedSkill(t, ['api.github.com', 'example.com'], 'network: [api.github.com]', true);
    expect(sandboxOf(t, 'fetch')).toMatchObject({ network: true, hosts: ['api.github.com'] });
    expect(sandboxOf(t, 'plain')).toMatchObject({ network: true, hosts: ['api.github.com', 'example.com'] });
  });
});
