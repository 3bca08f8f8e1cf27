import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MCP_TOOLS } from '../../../src-main/server/mcp-tools.js';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import type { RunReport } from '../../../src-main/shared/runs.js';
import { errorOf, onCleanup, raw, readEvents, serverHome } from './helpers.js';

type Added = Extract<ServerEvent, { type: 'approval.added' }>;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** An SDK client over Streamable HTTP to the server's /mcp, with the token (or the headers given). */
async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  onCleanup(() => client.close());
  return client;
}

describe('MCP over Streamable HTTP at /mcp on the owner of runs', () => {
  it('serves the same tools as stdio; list answers, and a run waits for the approval given through the API', async () => {
    const h = await serverHome();
    const client = await connect(h.server.url, { authorization: `Bearer ${h.server.token()}` });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    const listed = (await client.callTool({ name: 'list', arguments: {} })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { skills: { name: string }[] }).skills.map((s) => s.name)).toEqual(expect.arrayContaining(['asks', 'echoes']));
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('skilltray://skills/asks');

    const events = await readEvents(h.server);
    const running = client.callTool({ name: 'run', arguments: { skill: 'asks', tool: 'go', args: { a: 'over /mcp' } } });
    const added = await events.next((e): e is Added => e.type === 'approval.added');
    expect(added.entry).toMatchObject({ skill: 'asks', tool: 'go', surface: 'mcp' });
    // The event names the run; what it asks to run is fetched from approvals.
    const { envelope: queue } = await h.call('approvals', {});
    expect(queue).toMatchObject({ ok: true, value: [{ id: added.entry.id, args: { a: 'over /mcp' } }] });
    expect((await h.call('answerApproval', { id: added.entry.id, verdict: 'once' })).status).toBe(200);
    const ran = (await running) as CallToolResult;
    expect(ran.isError).toBeFalsy();
    const report = ran.structuredContent as unknown as RunReport;
    expect(report.id).toBe(added.entry.id);
    expect(JSON.parse(report.result.stdout)).toEqual(['over /mcp']);
    expect(h.core.runs.getRun(added.entry.id)).toMatchObject({ surface: 'mcp', status: 'succeeded' });
  });

  it('refuses a request without the token, with a wrong one, or from a foreign Origin or Host, before any session exists', async () => {
    const h = await serverHome();
    const post = (headers: Record<string, string>) =>
      raw(h.server.port, {
        method: 'POST',
        path: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: INITIALIZE,
      });
    const token = `Bearer ${h.server.token()}`;
    const none = await post({});
    expect([none.status, errorOf(none).code]).toEqual([401, 'E802']);
    const wrong = await post({ authorization: 'Bearer nope' });
    expect([wrong.status, errorOf(wrong).code]).toEqual([401, 'E802']);
    const foreign = await post({ authorization: token, origin: 'http://evil.example' });
    expect([foreign.status, errorOf(foreign).code]).toEqual([403, 'E803']);
    const rebound = await post({ authorization: token, host: 'evil.example' });
    expect([rebound.status, errorOf(rebound).code]).toEqual([403, 'E803']);
    await expect(connect(h.server.url, {})).rejects.toThrow();
    // The same request with the token opens a session: the refusals above were about the token and the origin alone.
    const ok = await post({ authorization: token });
    expect(ok.status).toBe(200);
    expect(ok.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('wants initialize first, and forgets a session id it never gave', async () => {
    const h = await serverHome();
    const headers = { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await raw(h.server.port, { method: 'POST', path: '/mcp', headers, body: list })).status).toBe(400);
    expect((await raw(h.server.port, { method: 'POST', path: '/mcp', headers: { ...headers, 'mcp-session-id': 'made-up' }, body: list })).status).toBe(404);
    expect((await raw(h.server.port, { method: 'PUT', path: '/mcp', headers, body: list })).status).toBe(405);
  });
});
