/**
 * What one client sees (`assistantView`, Settings › Assistants' live view): its entry, with a real
 * handshake when asked; the credential its entry holds and the assistant name that makes it; the
 * skills and tools offered to it, exactly as `list` answers that very assistant; and its latest runs,
 * recorded under that name and no other. A person's operation: an assistant's token is refused (E814).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callOperation } from '../../../src-main/core/operations.js';
import { newAssistantToken } from '../../../src-main/core/credentials/assistant-tokens.js';
import type { AssistantChange, AssistantView } from '../../../src-main/shared/connect.js';
import type { Envelope } from '../../../src-main/shared/contract.js';
import type { SkillBrief } from '../../../src-main/shared/model.js';
import type { RunReport } from '../../../src-main/shared/runs.js';
import { testHome, writeSkill } from '../../support/temp.js';
import { serverHome, toolSkill, type ServerHome } from '../server/helpers.js';

/** The view of `client` as the person's HTTP API answers it. */
async function view(h: ServerHome, client: string, test = false): Promise<AssistantView> {
  const { envelope } = await h.call('assistantView', { client, test });
  if (!envelope.ok) throw new Error(JSON.stringify(envelope.error));
  return envelope.value as AssistantView;
}

/** POST /api/<operation> with `token`. */
async function post<T>(h: ServerHome, token: string, operation: string, body: unknown): Promise<{ status: number; envelope: Envelope<T> }> {
  const res = await fetch(`${h.server.url}/api/${operation}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, envelope: (await res.json()) as Envelope<T> };
}

/** A client's JSON config with Skilltray's entry as given. */
function jsonEntry(file: string, entry: unknown): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ mcpServers: { skilltray: entry } }, null, 2));
}

describe('what an assistant sees', () => {
  it('a client with its own token: works, holds its token, is offered what its list shows, and sees its runs only', async () => {
    const t = testHome();
    // Not offered in the Global mode: listed to an assistant, but not offered to it.
    writeSkill(t.skills, 'dev-only', toolSkill('dev-only', 'echo <<a>>', { modes: ['Dev'] }));
    const h = await serverHome({}, t);
    mkdirSync(join(h.t.userHome, '.codex'), { recursive: true });
    const connected = await h.call('connectAssistant', { client: 'codex', transport: 'http' });
    expect(connected.envelope).toMatchObject({ ok: true, value: { works: true } });
    const token = /Bearer (sta_[\w-]+)/.exec(JSON.stringify((connected.envelope as { value: AssistantChange }).value.entry))?.[1] as string;

    const seen = await view(h, 'codex', true);
    expect(seen.status).toMatchObject({ id: 'codex', state: 'connected', transport: 'http', works: true, personToken: false });
    expect(seen.credential).toEqual({ kind: 'assistant_token', name: 'codex' });
    expect(seen.actsAs).toBe('codex');
    expect(seen.mcpTools).toEqual(expect.arrayContaining(['list', 'describe', 'discover', 'run']));

    // Offered: exactly what codex's own `list` answers when it asks for what is offered.
    const asked = await post<{ skills: SkillBrief[]; total: number }>(h, token, 'listBrief', { offered_only: true });
    if (!asked.envelope.ok) throw new Error(JSON.stringify(asked.envelope.error));
    expect(seen.skills).toEqual(asked.envelope.value.skills);
    expect(seen.offered).toEqual({ skills: asked.envelope.value.total, tools: asked.envelope.value.skills.reduce((n, s) => n + s.tools.length, 0) });
    expect(seen.skills.map((s) => s.name)).toEqual(expect.arrayContaining(['asks', 'echoes']));
    expect(seen.skills.map((s) => s.name)).not.toContain('dev-only');

    // A skill the person turns off is offered no more; the view says so at once.
    await h.call('setSkillEnabled', { skill: 'asks', enabled: false });
    const off = await view(h, 'codex');
    expect(off.skills.map((s) => s.name)).not.toContain('asks');
    expect(off.offered.skills).toBe(seen.offered.skills - 1);
    expect(off.status.works).toBeNull();
    expect(off.mcpTools).toBeNull();
    await h.call('setSkillEnabled', { skill: 'asks', enabled: true });

    // Its runs: the one it asked for, not the person's.
    const mine = await post<RunReport>(h, token, 'run', { skill: 'echoes', tool: 'go', args: { a: 'codex asked' } });
    expect(mine.status).toBe(200);
    const theirs = await h.call('run', { skill: 'echoes', tool: 'go', args: { a: 'the person asked' } });
    expect(theirs.status).toBe(200);
    const after = await view(h, 'codex');
    expect(after.runs.map((r) => r.id)).toEqual([(mine.envelope as { value: RunReport }).value.id]);
    expect(after.runs[0]).toMatchObject({ assistant: 'codex', skill: 'echoes' });

    // The person's operation: the assistant's own token is refused it.
    expect(await post(h, token, 'assistantView', { client: 'codex' })).toMatchObject({ status: 403, envelope: { ok: false, error: { code: 'E814' } } });
  });

  it('the stdio bridge acts as mcp and sees the runs of every stdio bridge', async () => {
    const h = await serverHome();
    mkdirSync(join(h.t.userHome, '.cursor'), { recursive: true });
    const dry = await h.call('connectAssistant', { client: 'cursor', dry_run: true });
    jsonEntry(join(h.t.userHome, '.cursor', 'mcp.json'), (dry.envelope as { value: AssistantChange }).value.entry);
    const seen = await view(h, 'cursor');
    expect(seen).toMatchObject({ status: { state: 'connected', transport: 'stdio' }, credential: { kind: 'bridge' }, actsAs: 'mcp', runs: [] });

    const ctx = { surface: 'mcp' as const, caller: { kind: 'assistant' as const, name: 'mcp' }, cwd: h.t.userHome, approval: { kind: 'none' as const } };
    const ran = await callOperation(h.core, 'run', { skill: 'echoes', tool: 'go', args: { a: 'over the bridge' } }, { ...ctx, owner: 'serve', version: '0' });
    expect(ran).toMatchObject({ ok: true });
    expect((await view(h, 'cursor')).runs.map((r) => r.assistant)).toEqual(['mcp']);
  });

  it('an entry with the person’s token acts as mcp and is flagged; a token this home never issued reaches nothing; no entry holds nothing', async () => {
    const h = await serverHome();
    const url = `${h.server.url}/mcp`;
    jsonEntry(join(h.t.userHome, '.cursor', 'mcp.json'), { url, headers: { Authorization: `Bearer ${h.server.token()}` } });
    jsonEntry(join(h.t.userHome, '.codeium', 'windsurf', 'mcp_config.json'), { serverUrl: url, headers: { Authorization: `Bearer ${newAssistantToken()}` } });
    mkdirSync(join(h.t.userHome, '.codex'), { recursive: true });

    expect(await view(h, 'cursor')).toMatchObject({
      status: { state: 'outdated', personToken: true },
      credential: { kind: 'person_token' },
      actsAs: 'mcp',
    });
    expect(await view(h, 'windsurf')).toMatchObject({ status: { state: 'outdated' }, credential: { kind: 'unknown_token' }, actsAs: null, runs: [] });
    expect(await view(h, 'codex')).toMatchObject({ status: { state: 'not_connected' }, credential: null, actsAs: null, runs: [] });
    // Offered is what Skilltray offers any assistant now, whoever holds what.
    expect((await view(h, 'codex')).offered.skills).toBeGreaterThan(0);
    const unknown = await h.call('assistantView', { client: 'notepad' });
    expect(unknown.envelope).toMatchObject({ ok: false, error: { code: 'E851' } });
  });
});
