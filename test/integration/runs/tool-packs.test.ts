/**
 * gibb.eri.sh tool packs in a test HOME's `~/.config/gibb.eri.sh/tools` and `tools.d/<group>/`:
 * listed as skills, run with the argv gibb renders, their policy enforced (confirm_before_run asks
 * even over a remembered Always and an allow rule), and a broken or hostile pack reported while the
 * others load.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SkilltrayCore } from '../../../src-main/core/api.js';
import type { Diagnostic } from '../../../src-main/shared/model.js';
import type { Verdict } from '../../../src-main/shared/runs.js';
import { PROCESS_FIXTURES, testHome, writeSkill, skillMd, type TestHome } from '../../support/temp.js';
import { rejectionOf } from '../../support/errors.js';
import { coresClosedAfterEach } from '../../support/cores.js';
import { cli } from '../../support/cli.js';

const NODE = process.execPath;
const open = coresClosedAfterEach();

/** gibb's folders in the test HOME, with print-argv.mjs beside the packs (a pack's folder is what its run's box shows). */
function gibbFolders(t: TestHome): { tools: string; group: string } {
  const base = join(t.userHome, '.config', 'gibb.eri.sh');
  const tools = join(base, 'tools');
  const group = join(base, 'tools.d', 'productivity');
  for (const dir of [tools, group]) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(PROCESS_FIXTURES, 'print-argv.mjs'), join(dir, 'print-argv.mjs'));
  }
  return { tools, group };
}

function pack(dir: string, file: string, body: Record<string, unknown>): void {
  writeFileSync(join(dir, file), JSON.stringify(body, null, 2));
}

/** A pack whose program prints its argv: `{{…}}` as gibb.eri.sh's summarize pack writes them, and the flag form. */
function echoPack(dir: string, name: string, policy: Record<string, unknown> = {}, output?: Record<string, unknown>): void {
  pack(dir, `${name}.tool.json`, {
    name,
    description: `Prints its arguments (${name}).`,
    modes: ['Global', 'Coding'],
    examples: [`User: condense this rambling webpage\n<start_function_call>call:${name}{url:<escape>https://example.com<escape>}<end_function_call>`],
    parameters: {
      url: { type: 'string', required: true, source: 'context.url' },
      length: { type: 'string', enum: ['short', 'medium', 'long'], default: 'medium' },
      loud: { type: 'boolean' },
    },
    command: { program: NODE, args: [join(dir, 'print-argv.mjs'), '{{url}}', '--length', '{{length:medium}}', '--tag=x{{url}}', '{{loud:--loud}}'] },
    policy: { read_only: true, timeout_secs: 20, ...policy },
    ...(output === undefined ? {} : { output }),
  });
}

const onceBy = (verdict: Verdict['verdict'] = 'once') => ({ kind: 'prompt' as const, ask: async (): Promise<Verdict> => ({ verdict, actor: 'ada' }) });

function listed(core: SkilltrayCore, name: string) {
  return core.library.registry.get(name);
}

describe('gibb.eri.sh tool packs as skills', () => {
  it('lists the packs of ~/.config/gibb.eri.sh/tools and tools.d/<group> as skills of user trust, a tool per pack', async () => {
    const t = testHome();
    const { tools, group } = gibbFolders(t);
    echoPack(tools, 'echo_page');
    echoPack(group, 'calendar', { requires_network: true, read_only: false });
    const out = await cli(['list', '--json'], t);
    expect(out.code).toBe(0);
    const skills = (
      JSON.parse(out.stdout) as {
        skills: { name: string; trust: string; root: { kind: string }; tools: { name: string; policy: { readOnly: boolean; network: boolean } }[] }[];
      }
    ).skills;
    const byName = new Map(skills.map((s) => [s.name, s]));
    expect(byName.get('tools')).toMatchObject({
      trust: 'user',
      root: { kind: 'gibbtools' },
      tools: [{ name: 'echo_page', policy: { readOnly: true, network: false } }],
    });
    expect(byName.get('productivity')).toMatchObject({
      root: { kind: 'gibbtools' },
      tools: [{ name: 'calendar', policy: { readOnly: false, network: true } }],
    });
    // requires_network is the network to any public host through the proxy; read_only false may write in its folder.
    const dry = open(t).runs.dryRun({ skill: 'productivity', tool: 'calendar', args: { url: 'u' }, surface: 'cli', cwd: t.work });
    expect(dry.sandbox).toMatchObject({ name: 'workspace', network: true, hosts: ['*'] });
  });

  it("runs a pack with the argv gibb's interpolation gives, under the pack's own policy and timeout", async () => {
    const t = testHome();
    const { tools } = gibbFolders(t);
    echoPack(tools, 'echo_page');
    const core = open(t);
    const report = await core.runs.run(
      { skill: 'tools', tool: 'echo_page', args: { url: 'https://example.com/a b', loud: true }, surface: 'cli', cwd: t.work },
      { approval: onceBy() },
    );
    expect(JSON.parse(report.result.stdout)).toEqual(['https://example.com/a b', '--length', 'medium', '--tag=xhttps://example.com/a b', '--loud']);
    expect(report.command.timeoutMs).toBe(20_000);
    expect(report.sandbox).toMatchObject({ name: 'read-only', network: false });
    // gibb's modes: Coding is Skilltray's Dev.
    expect(listed(core, 'tools')?.tools[0]?.modes).toEqual(['Global', 'Dev']);
  });

  it("gives discover a pack's examples to search, without FunctionGemma's markup", async () => {
    const t = testHome();
    echoPack(gibbFolders(t).tools, 'echo_page');
    const core = open(t);
    expect(listed(core, 'tools')?.tools[0]?.examples).toBe('User: condense this rambling webpage\ncall:echo_page{url:https://example.com}');
    // Words only its example holds.
    expect(core.agent.discover('condense a rambling webpage').results.map((r) => [r.name, r.tools])).toContainEqual(['tools', ['echo_page']]);
  });

  it("refuses a pack outside its own modes (E605), while its folder's other packs run", async () => {
    const t = testHome();
    const { tools } = gibbFolders(t);
    echoPack(tools, 'echo_page');
    pack(tools, 'meeting_only.tool.json', { name: 'meeting_only', description: 'Only in meetings.', modes: ['Call'], command: { program: NODE, args: [] } });
    const core = open(t);
    expect(listed(core, 'tools')?.modes).toEqual(['Global', 'Dev', 'Meeting']);
    const refused = await rejectionOf(core.runs.run({ skill: 'tools', tool: 'meeting_only', surface: 'cli', cwd: t.work }, { approval: onceBy() }));
    expect(refused.code).toBe('E605');
    expect(core.runs.dryRun({ skill: 'tools', tool: 'echo_page', args: { url: 'u' }, surface: 'cli', cwd: t.work }).decision).toBe('ask');
  });

  it('refuses a value that would become an option (E504), where gibb passes it', async () => {
    const t = testHome();
    echoPack(gibbFolders(t).tools, 'echo_page');
    const core = open(t);
    const refused = await rejectionOf(
      core.runs.run({ skill: 'tools', tool: 'echo_page', args: { url: '--upload-pack=evil' }, surface: 'cli', cwd: t.work }, { approval: onceBy() }),
    );
    expect(refused.code).toBe('E504');
  });

  it('asks every time for confirm_before_run: true, over a remembered Always and an allow rule, while a pack beside it runs on its Always', async () => {
    const t = testHome();
    const { tools } = gibbFolders(t);
    echoPack(tools, 'careful', { confirm_before_run: true });
    echoPack(tools, 'easy');
    const core = open(t);
    let asked = 0;
    const always = { kind: 'prompt' as const, ask: async (): Promise<Verdict> => (asked++, { verdict: 'always', actor: 'ada' }) };
    const args = { url: 'https://example.com' };
    for (const tool of ['careful', 'easy']) await core.runs.run({ skill: 'tools', tool, args, surface: 'cli', cwd: t.work }, { approval: always });
    expect(asked).toBe(2);
    // Its Always is taken as once: an Always for a tool that asks every time would never be used.
    expect(core.policy.remembered().map((r) => r.tool)).toEqual(['easy']);
    const easy = await core.runs.run({ skill: 'tools', tool: 'easy', args, surface: 'cli', cwd: t.work }, { approval: { kind: 'none' } });
    expect(easy.decision).toMatchObject({ outcome: 'auto', by: 'remembered' });
    const dry = core.runs.dryRun({ skill: 'tools', tool: 'careful', args, surface: 'cli', cwd: t.work });
    expect(dry).toMatchObject({ decision: 'ask', reason: expect.stringContaining('confirm_before_run') });
    expect(
      (await rejectionOf(core.runs.run({ skill: 'tools', tool: 'careful', args, surface: 'cli', cwd: t.work }, { approval: { kind: 'none' } }))).code,
    ).toBe('E601');
    core.policy.addRule('tool:tools/careful', 'allow');
    expect(core.runs.dryRun({ skill: 'tools', tool: 'careful', args, surface: 'cli', cwd: t.work }).decision).toBe('ask');
  });

  it('caps what a run returns at output.max_chars and adds a sentence to say for output.speak', async () => {
    const t = testHome();
    echoPack(gibbFolders(t).tools, 'echo_page', {}, { speak: true, max_chars: 10 });
    const core = open(t);
    const report = await core.runs.run(
      { skill: 'tools', tool: 'echo_page', args: { url: 'https://example.com/long' }, surface: 'cli', cwd: t.work },
      { approval: onceBy() },
    );
    expect(report.result.stdout).toBe('["https://...');
    // Said as plain text: the JSON's bracket is no word.
    expect(report.result.speech).toBe('"https://...');
  });

  it('reports a broken or hostile pack with its file and JSON pointer (or line and column), and loads every other pack', async () => {
    const t = testHome();
    const { tools } = gibbFolders(t);
    echoPack(tools, 'echo_page');
    writeFileSync(join(tools, 'broken.tool.json'), '{\n  "name": "broken",\n  "description": }\n');
    writeFileSync(join(tools, 'huge.tool.json'), `{"name": "huge", "description": "${'x'.repeat(300 * 1024)}"}`);
    writeFileSync(join(tools, 'deep.tool.json'), `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    pack(tools, 'proto.tool.json', {
      name: 'proto',
      description: 'Prototype keys.',
      parameters: JSON.parse('{"__proto__": {"type": "string"}, "constructor": {"type": "string"}}') as unknown,
      command: { program: NODE, args: [join(tools, 'print-argv.mjs'), '{{__proto__}}', '{{constructor}}'] },
    });
    pack(tools, 'program.tool.json', {
      name: 'program',
      description: 'A placeholder for a program.',
      parameters: { p: { type: 'string' } },
      command: { program: '{{p}}', args: [] },
    });
    pack(tools, 'badenum.tool.json', {
      name: 'badenum',
      description: 'An enum of numbers.',
      parameters: { a: { type: 'string' }, b: { type: 'string', enum: ['x', 3] } },
      command: { program: 'true' },
    });
    const out = await cli(['check', 'tools', '--json'], t);
    expect(out.code).not.toBe(0);
    const diagnostics = (JSON.parse(out.stdout) as { skills: { diagnostics: Diagnostic[] }[] }).skills[0]?.diagnostics ?? [];
    const about = (file: string) => diagnostics.filter((d) => d.file === join(tools, file));
    expect(about('broken.tool.json')).toEqual([expect.objectContaining({ code: 'E451', line: 3, column: 18 })]);
    expect(about('huge.tool.json')).toEqual([expect.objectContaining({ code: 'E451', message: expect.stringContaining('256 KiB') })]);
    expect(about('deep.tool.json')).toEqual([expect.objectContaining({ code: 'E451', message: expect.stringContaining('32 levels') })]);
    expect(about('program.tool.json')).toEqual([expect.objectContaining({ code: 'E452', pointer: '/command/program' })]);
    expect(about('badenum.tool.json')).toEqual([expect.objectContaining({ code: 'E452', pointer: '/parameters/b/enum/1' })]);
    const core = open(t);
    const skill = listed(core, 'tools');
    expect(skill?.tools.map((tool) => tool.name).sort()).toEqual(['echo_page', 'proto']);
    expect(skill?.state).toBe('warnings');
    // Prototype keys are parameter names like any other, and nothing leaks into objects.
    const proto = await core.runs.run(
      { skill: 'tools', tool: 'proto', args: JSON.parse('{"__proto__": "p", "constructor": "c"}') as Record<string, unknown>, surface: 'cli', cwd: t.work },
      { approval: onceBy() },
    );
    expect(JSON.parse(proto.result.stdout)).toEqual(['p', 'c']);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    const ran = await core.runs.run({ skill: 'tools', tool: 'echo_page', args: { url: 'u' }, surface: 'cli', cwd: t.work }, { approval: onceBy() });
    expect(ran.result.exitCode).toBe(0);
  });

  it('says which wins when a SKILL.md and a folder of tool packs share a name', async () => {
    const t = testHome();
    echoPack(gibbFolders(t).tools, 'echo_page');
    writeSkill(t.skills, 'tools', skillMd({ name: 'tools', description: 'My own tools skill.' }));
    const out = await cli(['check', 'tools', '--json'], t);
    const diagnostics = (JSON.parse(out.stdout) as { skills: { path: string; diagnostics: Diagnostic[] }[] }).skills[0]?.diagnostics ?? [];
    expect(diagnostics).toContainEqual(
      expect.objectContaining({ code: 'W421', message: expect.stringContaining('this SKILL.md wins over the tool packs there') }),
    );
  });

  it('reads a folder of packs in Skilltray’s own roots too, and warns of packs beside a SKILL.md (W452)', async () => {
    const t = testHome();
    const dir = join(t.skills, 'media');
    mkdirSync(dir);
    copyFileSync(join(PROCESS_FIXTURES, 'print-argv.mjs'), join(dir, 'print-argv.mjs'));
    echoPack(dir, 'echo_page');
    const mixed = writeSkill(t.skills, 'mixed', skillMd({ name: 'mixed', description: 'Mixed.' }));
    echoPack(mixed, 'ignored');
    const core = open(t);
    expect(listed(core, 'media')?.tools.map((tool) => tool.name)).toEqual(['echo_page']);
    expect(listed(core, 'mixed')?.diagnostics).toContainEqual(expect.objectContaining({ code: 'W452' }));
    expect(listed(core, 'mixed')?.tools).toEqual([]);
    // The Skills extension serves SKILL.md skills: a folder of packs has none to serve, the SKILL.md beside its packs is served.
    expect(core.serving.list().skills.map((entry) => entry.uri)).toEqual(['skill://mixed/SKILL.md']);
  });
});
