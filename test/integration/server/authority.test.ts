/**
 * Two kinds of caller, two credentials (docs/security.md#who-holds-what), attacked as a hostile
 * assistant holding only its own token: every person operation of the contract is refused to it over
 * HTTP (403 E814, generated from the AUTHORITY table) whatever headers it adds, and every assistant
 * operation answers it; over MCP it reaches assistant operations only. It cannot answer its own
 * waiting approval, add a rule, take a skill out of the sandbox or follow the person's events; it
 * sees its own runs and no other assistant's; and an MCP client that declares elicitation and would
 * answer "approve" is never asked, so its run is not approved by it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { issueAssistantToken, newAssistantToken } from '../../../src-main/core/credentials/assistant-tokens.js';
import { MCP_TOOLS } from '../../../src-main/server/mcp-tools.js';
import { AUTHORITY, OPERATIONS, type Envelope, type OperationName } from '../../../src-main/shared/contract.js';
import type { RunSummary } from '../../../src-main/shared/runs.js';
import { BROWSE_ASKS, fullHome, onCleanup, raw, serverHome, waitFor, type ServerHome } from './helpers.js';

/** A token issued to assistant `name` in the server's home. */
function assistantToken(h: ServerHome, name: string): string {
  const token = newAssistantToken();
  issueAssistantToken(h.core.config.home, name, token);
  return token;
}

/** POST /api/<operation> with `token` and any further headers: status and envelope. */
async function post(h: ServerHome, token: string, operation: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${h.server.url}/api/${operation}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, envelope: (await res.json()) as Envelope<unknown> };
}

const PERSON_OPERATIONS = OPERATIONS.filter((operation) => AUTHORITY[operation] === 'person');
const ASSISTANT_OPERATIONS = OPERATIONS.filter((operation) => AUTHORITY[operation] === 'assistant');

/** Every header an assistant could add to pass for one of the person's surfaces. */
const PRETENDING = (url: string): Record<string, string>[] => [
  {},
  { origin: url },
  { 'x-skilltray-surface': 'ui' },
  { 'x-skilltray-surface': 'cli' },
  { 'x-skilltray-surface': 'browser' },
  { 'x-skilltray-surface': 'tray' },
  { origin: url, 'x-skilltray-surface': 'cli' },
];

/** A run of `asks` (it needs approval) asked with `token`, and its pending entry once the owner holds it. */
async function waitingRun(h: ServerHome, token: string, a: string) {
  const answer = post(h, token, 'run', { skill: 'asks', tool: 'go', args: { a } });
  const entry = await waitFor(() => h.core.broker.list().find((p) => p.args.a === a));
  return { answer, entry };
}

describe('an assistant token over HTTP', () => {
  it('is refused every person operation (403 E814) before its input is read, whatever it pretends to be', async () => {
    const h = await serverHome();
    const token = assistantToken(h, 'codex');
    for (const operation of PERSON_OPERATIONS) {
      for (const headers of PRETENDING(h.server.url)) {
        // A body that is no valid input at all: the refusal comes first and says nothing about the schema.
        const { status, envelope } = await post(h, token, operation, { nonsense: true }, headers);
        expect([operation, status], JSON.stringify(headers)).toEqual([operation, 403]);
        expect(envelope).toMatchObject({ ok: false, error: { code: 'E814', kind: 'person_only', details: { operation, assistant: 'codex' } } });
      }
    }
    const events = await raw(h.server.port, { path: '/api/events', headers: { authorization: `Bearer ${token}` } });
    expect(events.status).toBe(403);
    expect(JSON.parse(events.body)).toMatchObject({ ok: false, error: { code: 'E814' } });
    // The same calls with the person's token are not refused for who calls.
    for (const operation of PERSON_OPERATIONS) expect((await h.call(operation, { nonsense: true })).envelope).not.toMatchObject({ error: { code: 'E814' } });
  });

  it('is answered every assistant operation, and its own runs are its to see and cancel', async () => {
    const h = await fullHome();
    const token = assistantToken(h, 'codex');
    const mine = await waitingRun(h, token, 'mine');
    const inputs: Record<string, unknown> = {
      list: {},
      listBrief: {},
      describe: { skill: 'asks' },
      check: { target: 'asks' },
      resolve: { skill: 'greet', args: ['world'] },
      run: { skill: 'echoes', tool: 'go', args: { a: 'over http' } },
      dryRun: { skill: 'asks', tool: 'go', args: { a: 'x' } },
      history: {},
      getRun: { id: mine.entry.id },
      ...BROWSE_ASKS,
      discover: { intent: 'watch a run' },
      attach: { skill_id: 'watcher', target_type: 'run', target_ref: 'run-42' },
      servedSkills: {},
      servedSkill: { skill: 'asks' },
      servedFile: { skill: 'asks', path: 'SKILL.md' },
      servedDirectory: { skill: 'asks', dir: '' },
      // Last: it ends the waiting run the calls above read.
      cancelRun: { id: mine.entry.id },
    };
    expect(Object.keys(inputs).sort()).toEqual([...ASSISTANT_OPERATIONS].sort());
    for (const [operation, input] of Object.entries(inputs)) {
      const { status, envelope } = await post(h, token, operation, input);
      expect([operation, status, envelope.ok ? null : envelope.error]).toEqual([operation, 200, null]);
    }
    expect((await mine.answer).envelope).toMatchObject({ ok: false, error: { code: 'E613' } });
    expect(h.core.runs.getRun(mine.entry.id)).toMatchObject({ assistant: 'codex', status: 'refused', decidedBy: 'caller' });
  });
});

describe('a hostile assistant holding only its own token', () => {
  it('cannot answer its own waiting approval, add allow skill:*, unsandbox a skill, resume runs or issue itself a token', async () => {
    const h = await serverHome();
    const token = assistantToken(h, 'codex');
    const { answer, entry } = await waitingRun(h, token, 'let me in');
    expect(entry).toMatchObject({ assistant: 'codex', surface: 'http' });
    const attempts: [OperationName, unknown][] = [
      ['answerApproval', { id: entry.id, verdict: 'once' }],
      ['answerApproval', { id: entry.id, verdict: 'always', scope: 'anywhere' }],
      ['addRule', { pattern: 'skill:*', effect: 'allow' }],
      ['addRule', { pattern: 'tool:asks/go', effect: 'allow' }],
      ['setSkillSandbox', { skill: 'asks', sandboxed: false }],
      ['setPaused', { paused: false }],
      ['setMode', { mode: 'Dev' }],
      ['setLimitCeiling', { memory_mb: 65536 }],
      ['setSkillEnabled', { skill: 'asks', enabled: true }],
      ['connectAssistant', { client: 'cursor' }],
      ['trustProject', { path: h.t.userHome, confirm: '0'.repeat(64) }],
      ['approvals', {}],
      ['rules', {}],
    ];
    for (const [operation, input] of attempts) {
      for (const headers of PRETENDING(h.server.url)) {
        expect((await post(h, token, operation, input, headers)).status, `${operation} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    // Nothing moved: the approval still waits, no rule, nothing unsandboxed.
    expect(h.core.broker.list().map((p) => p.id)).toEqual([entry.id]);
    expect(h.core.policy.rules()).toEqual([]);
    expect(h.core.policy.sandboxStatus().unsandboxed).toEqual([]);
    // Only the person answers it, and history says who asked and who answered.
    expect((await h.call('answerApproval', { id: entry.id, verdict: 'deny' })).status).toBe(200);
    expect((await answer).envelope).toMatchObject({ ok: false, error: { code: 'E603' } });
    expect(h.core.runs.getRun(entry.id)).toMatchObject({ assistant: 'codex', outcome: 'denied', decidedBy: 'user', actor: 'http' });
  });

  it("sees its own runs only: another assistant's are not there to read, list or cancel", async () => {
    const h = await serverHome();
    const codex = assistantToken(h, 'codex');
    const cursor = assistantToken(h, 'cursor');
    const ran = await post(h, codex, 'run', { skill: 'echoes', tool: 'go', args: { a: 'codex ran this' } });
    const codexRun = (ran.envelope as { value: { id: string } }).value.id;
    const waiting = await waitingRun(h, codex, 'codex waits');
    expect((await h.call('run', { skill: 'echoes', tool: 'go', args: { a: 'the person ran this' } })).status).toBe(200);

    const ids = async (token: string, query: unknown = {}) =>
      ((await post(h, token, 'history', query)).envelope as { value: RunSummary[] }).value.map((r) => r.args.a);
    expect(await ids(codex)).toEqual(['codex waits', 'codex ran this']);
    expect(await ids(cursor)).toEqual([]);
    // Asking for another's by filter gives its own, nothing more.
    expect(await ids(cursor, { assistant: 'codex' })).toEqual([]);
    for (const [operation, input] of [
      ['getRun', { id: codexRun }],
      ['cancelRun', { id: waiting.entry.id }],
    ] as const) {
      const { status, envelope } = await post(h, cursor, operation, input);
      expect([status, envelope]).toMatchObject([404, { ok: false, error: { code: 'E702' } }]);
    }
    expect(h.core.broker.list().map((p) => p.id)).toEqual([waiting.entry.id]);
    // The person sees every run, and who asked for it.
    const all = (await h.call('history', {})).envelope as { value: RunSummary[] };
    expect(all.value.map((r) => [r.args.a, r.assistant])).toEqual([
      ['the person ran this', null],
      ['codex waits', 'codex'],
      ['codex ran this', 'codex'],
    ]);
    expect(((await h.call('history', { assistant: 'codex' })).envelope as { value: RunSummary[] }).value).toHaveLength(2);
    await post(h, codex, 'cancelRun', { id: waiting.entry.id });
    await waiting.answer;
  });

  it('cannot replay another credential’s idempotent answer with its key', async () => {
    const h = await serverHome();
    const codex = assistantToken(h, 'codex');
    const cursor = assistantToken(h, 'cursor');
    const body = { skill: 'echoes', tool: 'go', args: { a: 'once' } };
    const key = { 'idempotency-key': 'shared-key-1' };
    expect((await post(h, codex, 'run', body, key)).status).toBe(200);
    const replay = await post(h, cursor, 'run', body, key);
    expect([replay.status, replay.envelope]).toMatchObject([422, { ok: false, error: { code: 'E813' } }]);
  });
});

/** An SDK client over /mcp with `token`; `onElicit` answers any elicitation the server sends. */
async function mcpClient(h: ServerHome, token: string, onElicit?: () => unknown): Promise<Client> {
  const client = new Client({ name: 'hostile', version: '1' }, { capabilities: onElicit === undefined ? {} : { elicitation: {} } });
  if (onElicit !== undefined) client.setRequestHandler(ElicitRequestSchema, async () => onElicit() as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  onCleanup(() => client.close());
  return client;
}

describe('an assistant over MCP', () => {
  it('reaches assistant operations only: every tool is one, a person operation is no tool', async () => {
    expect(MCP_TOOLS.filter((tool) => AUTHORITY[tool.operation] !== 'assistant').map((tool) => tool.name)).toEqual([]);
    const h = await serverHome();
    const client = await mcpClient(h, assistantToken(h, 'claude-code'));
    for (const operation of PERSON_OPERATIONS) {
      await expect(client.callTool({ name: operation, arguments: {} })).rejects.toThrow(/E806/);
    }
    const ran = (await client.callTool({ name: 'run', arguments: { skill: 'echoes', tool: 'go', args: { a: 'via mcp' } } })) as CallToolResult;
    expect(ran.isError).toBeFalsy();
    const id = (ran.structuredContent as { id: string }).id;
    expect(h.core.runs.getRun(id)).toMatchObject({ surface: 'mcp', assistant: 'claude-code' });
  });

  it('with the person’s token is still an assistant: /mcp is an assistant’s door', async () => {
    const h = await serverHome();
    const client = await mcpClient(h, h.server.token());
    const ran = (await client.callTool({ name: 'run', arguments: { skill: 'echoes', tool: 'go', args: { a: 'old config' } } })) as CallToolResult;
    expect(h.core.runs.getRun((ran.structuredContent as { id: string }).id)).toMatchObject({ surface: 'mcp', assistant: 'mcp' });
  });

  it('never reaches a session another credential opened', async () => {
    const h = await serverHome();
    const mine = await mcpClient(h, assistantToken(h, 'codex'));
    await mine.listTools();
    const sessionId = (mine.transport as StreamableHTTPClientTransport).sessionId as string;
    const other = assistantToken(h, 'cursor');
    const listed = await raw(h.server.port, {
      method: 'POST',
      path: '/mcp',
      headers: {
        authorization: `Bearer ${other}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list', arguments: {} } }),
    });
    expect(listed.status).toBe(404);
  });

  it('declaring elicitation and answering "approve" itself approves nothing: it is never asked, and the run waits for the person', async () => {
    const h = await serverHome({ approvalTimeoutMs: 1500 });
    let asked = 0;
    const client = await mcpClient(h, assistantToken(h, 'claude-code'), () => {
      asked++;
      return { action: 'accept', content: { approve: true, verdict: 'once', decision: 'approve' } };
    });
    const result = (await client.callTool({ name: 'run', arguments: { skill: 'asks', tool: 'go', args: { a: 'self-approved?' } } })) as CallToolResult;
    expect(asked).toBe(0);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'E604' } });
    const [run] = h.core.runs.history({ assistant: 'claude-code' });
    expect(run).toMatchObject({ args: { a: 'self-approved?' }, outcome: 'refused', decidedBy: 'timeout', actor: null, status: 'refused' });
  });
});
