/**
 * `skilltray mcp` through a real MCP client from the SDK, over stdio, against a temp home: the
 * handshake, every tool with good and bad input, a bundled tool running for real, E601 when nobody
 * can be asked, resources, access logging, and a clean exit when the client goes away.
 */
import { readFileSync } from 'node:fs';
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { execa } from 'execa';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { inputs } from '../../../src-main/shared/contract.js';
import { MCP_TOOLS } from '../../../src-main/server/mcp-tools.js';
import { BIN, FIELD_NOTES_MD, LOGO_BYTES, REPO_SKILLS, SPECIES_MD, contractHome } from '../contract/fixture.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';
import { callTool, startMcp, structured, toolError } from './mcp-session.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Removes every `description` key, to compare a tool's schema with the contract's. */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'description')
      .map(([k, v]) => [k, withoutDescriptions(v)]),
  );
}

/** A schema without zod's safe-integer bounds. */
function withoutSafeBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeBounds);
  if (typeof value !== 'object' || value === null) return value;
  const safe = (k: string, v: unknown) => (k === 'minimum' && v === Number.MIN_SAFE_INTEGER) || (k === 'maximum' && v === Number.MAX_SAFE_INTEGER);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k, v]) => !safe(k, v))
      .map(([k, v]) => [k, withoutSafeBounds(v)]),
  );
}

describe('skilltray mcp: handshake and tools/list', () => {
  it('initializes as skilltray with the package version, tools and resources', async () => {
    const t = contractHome();
    const { client } = await startMcp(t.env);
    expect(client.getServerVersion()).toMatchObject({ name: 'skilltray', version: VERSION });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: { listChanged: true }, prompts: { listChanged: true } });
    expect(client.getInstructions()).toContain('discover');
  });

  it('lists every tool with the contract schema of its operation, every property described', async () => {
    const t = contractHome();
    const { client } = await startMcp(t.env);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'list',
      'describe',
      'discover',
      'run',
      'attach',
      'outline',
      'show',
      'open',
      'sources',
      'search',
      'search_all',
    ]);
    for (const tool of tools) {
      const spec = MCP_TOOLS.find((s) => s.name === tool.name);
      if (!spec) throw new Error(`unexpected tool ${tool.name}`);
      const { $schema: _dialect, ...contract } = z.toJSONSchema(inputs[spec.operation], { io: 'input' }) as Record<string, unknown>;
      // The contract's schema, less the ±9007199254740991 zod gives every integer: bounds that tell an assistant nothing.
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain(String(Number.MAX_SAFE_INTEGER));
      expect(withoutDescriptions(tool.inputSchema), tool.name).toEqual(withoutDescriptions(withoutSafeBounds(contract)));
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, property] of Object.entries(properties)) expect(property.description, `${tool.name}.${name}`).toMatch(/\S/);
      // Descriptions name only properties that exist, so they cannot drift from the contract.
      expect(Object.keys(spec.properties).sort(), tool.name).toEqual(Object.keys(properties).sort());
      expect(tool.description?.length, tool.name).toBeGreaterThan(60);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(spec.operation !== 'run' && spec.operation !== 'attach');
    }
    expect(tools.find((tool) => tool.name === 'run')?.description).toMatch(/WAITS until they approve/);
    expect(tools.find((tool) => tool.name === 'discover')?.description).toMatch(/ranked candidates.*your own policy/s);
  });
});

describe("skilltray mcp: an assistant's first look is light", () => {
  it('list answers in brief (name, one line, tool names, trust, sandbox, role), under 8 KB for the bundled packs; describe has the rest', async () => {
    const t = testHome({ bundled: REPO_SKILLS });
    const session = await startMcp(t.env);
    const result = await callTool(session, 'list', {});
    // The whole answer as it crosses the wire: the JSON text and the structured copy.
    const bytes = Buffer.byteLength(JSON.stringify(result));
    console.log(`MCP list of the bundled packs: ${bytes} bytes (goal ≤ 8192)`);
    expect(bytes).toBeLessThanOrEqual(8192);
    const { skills, total } = structured(result) as { skills: Record<string, unknown>[]; total: number };
    expect(total).toBe(7);
    for (const skill of skills) expect(Object.keys(skill).sort()).toEqual(['name', 'offered', 'prompt', 'role', 'sandbox', 'summary', 'tools', 'trust']);
    expect(skills.find((s) => s.name === 'git')).toEqual({
      name: 'git',
      summary: "Read a Git repository's state and history (status, recent commits, diffs, branches, one commit).",
      tools: ['git_status', 'git_log', 'git_diff', 'git_branch', 'git_show'],
      trust: 'bundled',
      sandbox: 'read-only, no network',
      role: 'utility',
      offered: true,
      prompt: false,
    });
    expect(skills.find((s) => s.name === 'network')).toMatchObject({ sandbox: "read-only, this computer's own network" });
    expect(skills.find((s) => s.name === 'commit-message')).toMatchObject({ tools: [], prompt: true });
    const described = structured(await callTool(session, 'describe', { skill: 'git' })) as {
      tools: { name: string; params: { name: string }[]; examples: string | null }[];
    };
    expect(described.tools[0]).toMatchObject({ name: 'git_status', params: [{ name: 'repo' }], examples: expect.stringContaining('Call: git_status') });
  });
});

describe('skilltray mcp: tools with good and bad input', () => {
  it('list, describe and discover; E805 for schema errors, E001 for an unknown skill', async () => {
    const t = contractHome();
    const session = await startMcp(t.env);
    const list = structured(await callTool(session, 'list', {})) as { skills: { name: string; trust: string }[]; total: number };
    expect(list.skills.map((s) => s.name)).toEqual(expect.arrayContaining(['field-notes', 'system', 'files', 'artifact-checksum']));
    expect(list.skills.find((s) => s.name === 'field-notes')?.trust).toBe('user');
    expect(structured(await callTool(session, 'list', { role: 'sidecar' }))).toMatchObject({ skills: [{ name: 'artifact-checksum' }], total: 1 });

    const bad = toolError(await callTool(session, 'list', { limit: 'ten' }));
    expect(bad).toMatchObject({ code: 'E805', kind: 'invalid_request', details: { operation: 'listBrief', issues: [{ path: 'limit' }] } });
    expect(toolError(await callTool(session, 'list', { colour: 'red' }))).toMatchObject({ code: 'E805' });

    const skill = structured(await callTool(session, 'describe', { skill: 'field-notes' }));
    expect(skill).toMatchObject({ name: 'field-notes', trust: 'user', tools: [{ name: 'record_sighting', params: [{ name: 'species', required: true }] }] });
    const missing = await callTool(session, 'describe', { skill: 'no-such-skill' });
    expect(toolError(missing)).toEqual({
      code: 'E001',
      kind: 'skill_not_found',
      message: "skill 'no-such-skill' not found",
      details: { skill: 'no-such-skill', did_you_mean: [] },
    });
    expect((missing.content[0] as { text: string }).text).toMatch(/^error\[E001\]: skill 'no-such-skill' not found\n/);
    const typo = await callTool(session, 'describe', { skill: 'field-note' });
    expect(toolError(typo).details).toMatchObject({ did_you_mean: [{ name: 'field-notes' }] });
    expect((typo.content[0] as { text: string }).text).toMatch(/^error\[E001\]: skill 'field-note' not found; did you mean 'field-notes'\?\n/);

    const ranked = structured(await callTool(session, 'discover', { intent: 'log a bird sighting' })) as { results: { skill_id: string; reason: string }[] };
    expect(ranked.results[0]).toMatchObject({ skill_id: 'field-notes' });
    expect(ranked.results[0]?.reason).toMatch(/\S/);
    expect(toolError(await callTool(session, 'discover', {}))).toMatchObject({ code: 'E805', details: { issues: [{ path: 'intent' }] } });
  });

  it('runs a bundled read-only tool for real; a user tool with nobody to ask is E601 and never runs', async () => {
    const t = contractHome();
    // A client without roots names the folder it works in, which holds the artifact.
    const session = await startMcp(t.env, { cwd: t.userHome });
    const report = structured(await callTool(session, 'run', { skill: 'files', tool: 'word_count', args: { path: t.artifact }, cwd: t.work })) as {
      id: string;
      decision: { outcome: string };
      result: { exitCode: number; stdout: string };
    };
    expect(report.decision.outcome).toBe('auto');
    expect(report.result.exitCode).toBe(0);
    expect(report.result.stdout).toMatch(/^\s*2\s+5\s+24\s/);

    const refused = toolError(await callTool(session, 'run', { skill: 'field-notes', tool: 'record_sighting', args: { species: 'robin' } }));
    expect(refused).toMatchObject({ code: 'E601', kind: 'approval_required', details: { skill: 'field-notes', tool: 'record_sighting' } });
    expect(refused.message).toContain('needs approval from the person at the desktop');

    expect(toolError(await callTool(session, 'run', { skill: 'field-notes', tool: 'nope' }))).toMatchObject({ code: 'E506', details: { did_you_mean: [] } });
    expect(toolError(await callTool(session, 'run', { skill: 'field-notes', tool: 'record_sightings' }))).toMatchObject({
      code: 'E506',
      details: { did_you_mean: [{ name: 'record_sighting' }] },
    });
    expect(toolError(await callTool(session, 'run', { skill: 'field-notes' }))).toMatchObject({ code: 'E805', details: { issues: [{ path: 'tool' }] } });
    expect(toolError(await callTool(session, 'run', { skill: 'files', tool: 'word_count', args: { path: '--help' } }))).toMatchObject({ code: 'E504' });
    // A number sent as text is taken as the number; a word says what it should have been, in plain words.
    const numeral = structured(await callTool(session, 'run', { skill: 'files', tool: 'file_head', args: { path: t.artifact, lines: '1' }, cwd: t.work })) as {
      result: { stdout: string };
    };
    expect(numeral.result.stdout.split('\n').filter((line) => line !== '')).toHaveLength(1);
    expect(toolError(await callTool(session, 'run', { skill: 'files', tool: 'file_head', args: { path: t.artifact, lines: 'three' } }))).toMatchObject({
      code: 'E503',
      message: "argument 'lines' of tool 'file_head' must be a whole number, got \"three\"",
    });

    const core = new SkilltrayCore(t.config());
    try {
      const history = core.runs.history();
      expect(history.find((r) => r.id === report.id)).toMatchObject({ surface: 'mcp', status: 'succeeded', outcome: 'auto' });
      // The calls refused before anything was decided (E506, E504, E503) left no row; the decided E601 did.
      expect(history.filter((r) => r.errorCode !== null).map((r) => r.errorCode)).toEqual(['E601']);
      expect(history.find((r) => r.skill === 'field-notes' && r.tool === 'record_sighting')).toMatchObject({
        surface: 'mcp',
        status: 'refused',
        errorCode: 'E601',
        startedAt: null,
        exitCode: null,
      });
    } finally {
      await core.close();
    }
  });

  it('attach: E801 with the reason before anything runs; a sidecar attached to an artifact runs', async () => {
    const t = contractHome();
    const session = await startMcp(t.env, { cwd: t.userHome });
    expect(toolError(await callTool(session, 'attach', { skill_id: 'system', target_type: 'run', target_ref: 'r-1' }))).toMatchObject({
      code: 'E801',
      kind: 'attach_validation',
      details: { reason: 'not_attachable', skill_id: 'system', invocation: 'direct' },
    });
    expect(toolError(await callTool(session, 'attach', { skill_id: 'artifact-checksum', target_type: 'task', target_ref: 't-1' }))).toMatchObject({
      code: 'E801',
      details: { reason: 'target_not_allowed', attach_targets: ['artifact', 'output'] },
    });
    expect(toolError(await callTool(session, 'attach', { skill_id: 'nobody', target_type: 'artifact', target_ref: 'x' }))).toMatchObject({
      code: 'E801',
      details: { reason: 'skill_not_found' },
    });
    expect(toolError(await callTool(session, 'attach', { skill_id: 'artifact-checksum', target_type: 'file', target_ref: 'x' }))).toMatchObject({
      code: 'E805',
    });

    const attached = structured(
      await callTool(session, 'attach', { skill_id: 'artifact-checksum', target_type: 'artifact', target_ref: t.artifact, cwd: t.work }),
    ) as {
      target_ref: string;
      execution: { result: { exitCode: number; stdout: string } };
    };
    expect(attached.target_ref).toBe(t.artifact);
    expect(attached.execution.result.exitCode).toBe(0);
    expect(attached.execution.result.stdout).toContain(t.artifact);
  });

  it('outline, show, open, sources, search, search_all; E020 with suggestions, E012, E021, E022, E004, E001', async () => {
    const t = contractHome();
    writeSkill(
      t.skills,
      'zh-notes',
      skillMd({ name: 'zh-notes', description: '整理会议记录。' }, '# 会议记录\n\n## 适用场景\n\n当用户需要整理会议纪要时使用。\n'),
    );
    const session = await startMcp(t.env);
    const outline = structured(await callTool(session, 'outline', { skill: 'field-notes' })) as { headings: { text: string; file: string }[] };
    expect(outline.headings.map((h) => h.text)).toEqual(expect.arrayContaining(['Field notes', 'Installation', 'Logging a sighting', 'Species', 'Robin']));
    expect(toolError(await callTool(session, 'outline', { skill: 'no-such-skill' }))).toMatchObject({ code: 'E001' });

    expect(structured(await callTool(session, 'show', { skill: 'field-notes', section: 'logging a sighting' }))).toMatchObject({
      file: 'SKILL.md',
      section: 'Logging a sighting',
      content: '## Logging a sighting\n\nWrite down the species, the place and the time.',
    });
    const notFound = await callTool(session, 'show', { skill: 'field-notes', section: 'Install' });
    const error = toolError(notFound);
    expect(error).toMatchObject({ code: 'E020', kind: 'section_not_found', message: "section not found: 'Install'" });
    expect(error.details?.suggestions).toEqual(expect.arrayContaining([{ text: 'Installation', file: 'SKILL.md' }]));
    expect((notFound.content[0] as { text: string }).text).toMatch(
      /^error\[E020\]: section not found: 'Install'\n\nDid you mean one of these\?\n {2}- Installation \(SKILL\.md\)/,
    );

    expect(structured(await callTool(session, 'open', { skill: 'field-notes', path: 'references/species.md' }))).toMatchObject({
      encoding: 'utf-8',
      content: SPECIES_MD,
    });
    expect(structured(await callTool(session, 'open', { skill: 'field-notes', path: 'assets/logo.bin' }))).toMatchObject({
      encoding: 'base64',
      content: LOGO_BYTES.toString('base64'),
    });
    expect(toolError(await callTool(session, 'open', { skill: 'field-notes', path: '../../home/state.db' }))).toMatchObject({
      code: 'E012',
      kind: 'path_escapes_root',
    });
    expect(toolError(await callTool(session, 'open', { skill: 'field-notes', path: 'references/missing.md' }))).toMatchObject({ code: 'E021' });

    const sources = structured(await callTool(session, 'sources', { skill: 'field-notes', depth: 2 })) as { entries: { path: string }[] };
    expect(sources.entries.map((e) => e.path)).toEqual(expect.arrayContaining(['references', 'references/species.md', 'assets/logo.bin', 'SKILL.md']));
    expect(toolError(await callTool(session, 'sources', { skill: 'field-notes', dir: 'nowhere' }))).toMatchObject({ code: 'E022' });

    // Indexes are built on demand by the bridge: no E002 for an assistant that cannot run `skilltray build`.
    const search = structured(await callTool(session, 'search', { skill: 'field-notes', query: 'binoculars' })) as { results: { section: string }[] };
    expect(search.results[0]).toMatchObject({ section: 'Installation' });
    expect(toolError(await callTool(session, 'search', { skill: 'field-notes', query: '' }))).toMatchObject({ code: 'E004' });
    const all = structured(await callTool(session, 'search_all', { query: 'robin dawn' })) as { results: { skill: string; section: string }[] };
    expect(all.results[0]).toMatchObject({ skill: 'field-notes', section: 'Robin' });
    const part = structured(await callTool(session, 'search_all', { query: '适用' })) as { results: { skill: string; section: string; title: string }[] };
    expect(part.results[0]).toMatchObject({ skill: 'zh-notes', section: '适用场景' });
  });

  it('search and search_all say when nothing matched (did-you-mean, the one skill searched) and mark a broken skill, last (issue 39.4)', async () => {
    const t = testHome();
    const tool = '## Tools\n\n### greet\n\nGreet someone.\n\n#### Command\n\n```\necho hello\n```\n';
    // Its name differs from its folder (E407): it loads, and will not run.
    writeSkill(t.skills, 'hello', skillMd({ name: 'not-hello', description: 'Greets.' }, `# Hello\n\n${tool}`));
    writeSkill(t.skills, 'welcome', skillMd({ name: 'welcome', description: 'Welcomes guests.' }, '# Welcome\n\nGreet a guest at the door.\n'));
    const session = await startMcp(t.env);
    expect(structured(await callTool(session, 'search_all', { query: 'xyzzy' }))).toMatchObject({
      results: [],
      skill: null,
      message: 'no results for "xyzzy"',
      did_you_mean: null,
    });
    expect(structured(await callTool(session, 'search_all', { query: 'welcme' }))).toMatchObject({
      results: [],
      message: 'no results for "welcme"; did you mean "welcome"?',
      did_you_mean: 'welcome',
    });
    expect(structured(await callTool(session, 'search', { skill: 'welcome', query: 'zebras' }))).toMatchObject({
      results: [],
      skill: 'welcome',
      message: 'no results for "zebras" in skill \'welcome\'',
    });
    expect(structured(await callTool(session, 'search_all', { query: 'greet' }))).toMatchObject({
      message: null,
      results: [
        { skill: 'welcome', errors: [] },
        { skill: 'hello', errors: ['E407'] },
      ],
    });
  });

  it('an unknown tool is a protocol error naming the tools', async () => {
    const t = contractHome();
    const session = await startMcp(t.env);
    await expect(callTool(session, 'delete_everything', {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("error[E806]: no tool 'delete_everything'; tools: list, describe"),
    });
    await expect(callTool(session, 'descrbe', {})).rejects.toMatchObject({
      message: expect.stringMatching(/no tool 'descrbe'; tools: .*; did you mean 'describe'\?/),
    });
  });

  it('logs gateway calls to the primary location through the core, from where the assistant started it', async () => {
    const t = contractHome();
    const session = await startMcp(t.env, { cwd: t.userHome });
    toolError(await callTool(session, 'show', { skill: 'field-notes', section: 'Nowhere' }));
    structured(await callTool(session, 'outline', { skill: 'field-notes' }));
    // The bridge logs after it answers (in batches); once it has exited, every access is written.
    await session.hangUp();
    const core = new SkilltrayCore(t.config());
    try {
      const stats = core.gateway.stats('field-notes', { groupBy: 'commands' }, t.home);
      expect(stats.data).toMatchObject({ show: 1, outline: 1 });
      expect(core.gateway.stats('field-notes', { groupBy: 'projects' }, t.home).data).toEqual(expect.arrayContaining([{ project: t.userHome, count: 2 }]));
    } finally {
      await core.close();
    }
  });
});

describe('skilltray mcp: resources', () => {
  it('lists every loaded skill and reads its SKILL.md and its files', async () => {
    const t = contractHome();
    const { client } = await startMcp(t.env);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['skilltray://skills/field-notes', 'skilltray://skills/system']));
    expect(resources.find((r) => r.uri === 'skilltray://skills/field-notes')).toMatchObject({
      name: 'field-notes',
      mimeType: 'text/markdown',
      description: 'Keep field notes about birds seen outdoors. Use when logging a bird sighting.',
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    // The third is the Skills extension's (skills-extension.test.ts).
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(['skilltray://skills/{name}', 'skilltray://skills/{name}/{+path}', 'skill://{name}/{+path}']);

    expect((await client.readResource({ uri: 'skilltray://skills/field-notes' })).contents).toEqual([
      { uri: 'skilltray://skills/field-notes', mimeType: 'text/markdown', text: FIELD_NOTES_MD },
    ]);
    expect((await client.readResource({ uri: 'skilltray://skills/field-notes/references/species.md' })).contents).toEqual([
      { uri: 'skilltray://skills/field-notes/references/species.md', mimeType: 'text/markdown', text: SPECIES_MD },
    ]);
    expect((await client.readResource({ uri: 'skilltray://skills/field-notes/assets/logo.bin' })).contents).toEqual([
      { uri: 'skilltray://skills/field-notes/assets/logo.bin', mimeType: 'application/octet-stream', blob: LOGO_BYTES.toString('base64') },
    ]);
  });

  it('refuses paths out of the skill (E012) and says what is missing (E001, E021) as errors with the structured error', async () => {
    const t = contractHome();
    const { client } = await startMcp(t.env);
    // URL parsing removes literal dot segments, so an escape arrives percent-encoded.
    await expect(client.readResource({ uri: 'skilltray://skills/field-notes/..%2F..%2Fhome%2Fstate.db' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("error[E012]: path escapes skill root: '../../home/state.db'"),
      data: { error: { code: 'E012', kind: 'path_escapes_root' } },
    });
    await expect(client.readResource({ uri: 'skilltray://skills/field-notes/%2Fetc%2Fpasswd' })).rejects.toMatchObject({ data: { error: { code: 'E012' } } });
    await expect(client.readResource({ uri: 'skilltray://skills/no-such-skill' })).rejects.toMatchObject({ code: -32002, data: { error: { code: 'E001' } } });
    await expect(client.readResource({ uri: 'skilltray://skills/field-notes/nothing.md' })).rejects.toMatchObject({
      code: -32002,
      data: { error: { code: 'E021' } },
    });
  });
});

describe('skilltray mcp: prompt skills as prompts', () => {
  it('prompts/list offers each Kode prompt skill ($ARGUMENTS) with its argument, and no other skill', async () => {
    const t = contractHome();
    writeSkill(t.skills, 'review', skillMd({ name: 'review', description: 'Review a change carefully.', version: '1.0.0' }, 'Review $ARGUMENTS for bugs.\n'));
    const { client } = await startMcp(t.env);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['commit-message', 'review']);
    expect(prompts.find((p) => p.name === 'commit-message')).toMatchObject({
      description: expect.stringMatching(/^Write a clear Git commit message/),
      arguments: [{ name: 'arguments', required: false, description: expect.stringContaining('$ARGUMENTS') }],
    });
  });

  it('prompts/get renders the body with $ARGUMENTS filled in; an unknown or non-prompt skill is E805', async () => {
    const t = contractHome();
    const { client } = await startMcp(t.env);
    const got = await client.getPrompt({ name: 'commit-message', arguments: { arguments: 'fixes #12; the parser change' } });
    expect(got.messages).toHaveLength(1);
    expect(got.messages[0]).toMatchObject({
      role: 'user',
      content: { type: 'text', text: expect.stringContaining('Notes from the person, if any: fixes #12; the parser change\n') },
    });
    const bare = await client.getPrompt({ name: 'commit-message' });
    expect(bare.messages[0]?.content).toMatchObject({ text: expect.stringContaining('Notes from the person, if any: \n') });
    for (const name of ['nothing-here', 'git']) {
      await expect(client.getPrompt({ name })).rejects.toMatchObject({ code: -32602, data: { error: { code: 'E805', details: { prompt: name } } } });
    }
  });

  it('offers only the prompt skills of the current mode, and follows a mode change made elsewhere', async () => {
    const t = contractHome();
    writeSkill(
      t.skills,
      'standup',
      skillMd({ name: 'standup', description: 'Draft a stand-up note.', version: '1.0.0', modes: ['Dev'] }, 'Draft my stand-up from $ARGUMENTS.\n'),
    );
    const { client } = await startMcp(t.env);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain('standup');
    await expect(client.getPrompt({ name: 'standup' })).rejects.toMatchObject({ code: -32602, data: { error: { code: 'E805' } } });
    const core = new SkilltrayCore(t.config());
    try {
      core.preferences.setMode('Dev');
    } finally {
      await core.close();
    }
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('standup');
    const got = await client.getPrompt({ name: 'standup', arguments: { arguments: "yesterday's merges" } });
    expect(got.messages[0]?.content).toMatchObject({ type: 'text', text: "Draft my stand-up from yesterday's merges.\n" });
  });

  it('says the prompts changed when a prompt skill is added while it runs', async () => {
    const t = contractHome();
    const { client } = await startMcp(t.env);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve()));
    writeSkill(t.skills, 'review', skillMd({ name: 'review', description: 'Review a change carefully.', version: '1.0.0' }, 'Review $ARGUMENTS for bugs.\n'));
    await changed;
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('review');
  });
});

describe('skilltray mcp: the process', () => {
  it('writes only JSON-RPC on stdout, diagnostics on stderr, and exits 0 when the client closes stdin', async () => {
    const t = contractHome();
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'show', arguments: { skill: 'field-notes', section: 'Installation' } } },
    ];
    const child = execa(process.execPath, [BIN, 'mcp'], { env: t.env, extendEnv: false, reject: false, stdin: 'pipe' });
    for (const line of lines) child.stdin?.write(`${JSON.stringify(line)}\n`);
    const seen: { id?: number }[] = [];
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) {
        seen.push(JSON.parse(text) as { id?: number });
        if (seen.some((m) => m.id === 2)) child.stdin?.end();
      }
    });
    const result = await child;
    expect(result.exitCode).toBe(0);
    const messages = String(result.stdout)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(messages.map((m) => m.id)).toEqual([1, 2]);
    expect(messages[1]).toMatchObject({ result: { structuredContent: { section: 'Installation' } } });
    expect(String(result.stderr)).toContain(`skilltray mcp ${VERSION}: serving ${t.home} on stdio`);
  });

  it('says skill resources changed when a skill is added while it runs', async () => {
    const t = contractHome();
    const { client } = await startMcp(t.env);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
    writeSkill(t.skills, 'late-arrival', skillMd({ name: 'late-arrival', description: 'Arrives after the bridge started. Use when testing.' }));
    await changed;
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('skilltray://skills/late-arrival');
  });
});
