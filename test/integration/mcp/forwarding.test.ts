/**
 * `skilltray mcp` with an owner of runs: `node bin/skilltray.js serve --port 0` as a real process on
 * the same home. Calls are forwarded so approvals reach the owner; the owner is looked for at every
 * call, so starting or stopping it mid-session changes where calls go; a client's cancellation
 * withdraws the forwarded approval.
 */
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { findOwner, ownerClient } from '../../../src-main/server/app-link.js';
import type { SkilltrayClient } from '../../../src-main/shared/contract.js';
import type { PendingEntry } from '../../../src-main/shared/runs.js';
import { BIN, contractHome, type ContractHome } from '../contract/fixture.js';
import { callTool, startMcp, structured, toolError } from './mcp-session.js';
import { waitFor } from '../server/helpers.js';

interface Owner {
  child: ResultPromise<{ env: NodeJS.ProcessEnv; extendEnv: false; stdin: 'ignore'; reject: false }>;
  url: string;
  client: SkilltrayClient;
  /** SIGTERM, then wait for it to exit. */
  stop(): Promise<void>;
}

const owners: Owner[] = [];
afterEach(async () => {
  for (const owner of owners.splice(0)) await owner.stop();
});

/** `skilltray serve --port 0` on the home, once it answers as the owner; stopped after the test. */
async function startServe(t: ContractHome): Promise<Owner> {
  const child = execa(process.execPath, [BIN, 'serve', '--port', '0'], { env: t.env, extendEnv: false, stdin: 'ignore', reject: false });
  const link = await waitFor(async () => (await findOwner(t.home)) ?? undefined, 20_000);
  let stopped: Promise<void> | undefined;
  const owner: Owner = {
    child,
    url: link.url,
    client: ownerClient(link),
    stop: () => {
      stopped ??= (async () => {
        if (child.exitCode === null) child.kill('SIGTERM');
        await child;
      })();
      return stopped;
    },
  };
  owners.push(owner);
  return owner;
}

/** The owner's pending approval for field-notes, once it is there. */
function pendingSighting(owner: Owner): Promise<PendingEntry> {
  return waitFor(async () => (await owner.client.approvals({})).find((entry) => entry.skill === 'field-notes'));
}

const SIGHTING = { skill: 'field-notes', tool: 'record_sighting', args: { species: 'robin' } };

describe('skilltray mcp forwarding to the owner of runs', () => {
  it('a run that needs approval waits in the owner, is approved over HTTP, and the MCP call returns its result', async () => {
    const t = contractHome();
    const owner = await startServe(t);
    const session = await startMcp(t.env);
    const call = callTool(session, 'run', SIGHTING);
    const entry = await pendingSighting(owner);
    // The bridge reads the person's token to reach the owner, yet asks as an assistant: the stdio bridge's name.
    expect(entry).toMatchObject({ tool: 'record_sighting', surface: 'mcp', assistant: 'mcp', programPath: process.execPath, args: { species: 'robin' } });
    expect(entry.argv.at(-1)).toBe('robin');
    expect(entry.traceId).toMatch(/^mcp-/);
    await owner.client.answerApproval({ id: entry.id, verdict: 'once' });
    const report = structured(await call) as { id: string; decision: { outcome: string; by: string }; result: { exitCode: number; stdout: string } };
    expect(report).toMatchObject({ id: entry.id, decision: { outcome: 'approved', by: 'user' }, result: { exitCode: 0, stdout: '["robin"]' } });
    expect(await owner.client.getRun({ id: entry.id })).toMatchObject({ status: 'succeeded', surface: 'mcp', assistant: 'mcp' });
    expect(session.stderr()).toContain(`forwarding calls to skilltray serve at ${owner.url}`);
  });

  it('a denial in the owner returns E603 to the assistant', async () => {
    const t = contractHome();
    const owner = await startServe(t);
    const session = await startMcp(t.env);
    const call = callTool(session, 'run', { ...SIGHTING, trace_id: 'assistant-trace-7' });
    const entry = await pendingSighting(owner);
    expect(entry.traceId).toBe('assistant-trace-7');
    await owner.client.answerApproval({ id: entry.id, verdict: 'deny' });
    const error = toolError(await call);
    expect(error).toMatchObject({ code: 'E603', kind: 'denied_by_user', details: { skill: 'field-notes', tool: 'record_sighting', runId: entry.id } });
  });

  it('reading calls, resources and prompts are answered by the owner (its records, not this process)', async () => {
    const t = contractHome();
    const owner = await startServe(t);
    // The client names the folder that holds the artifact: the forwarded run works there, in the owner.
    const session = await startMcp(t.env, { cwd: t.userHome });
    const report = structured(await callTool(session, 'run', { skill: 'files', tool: 'word_count', args: { path: t.artifact }, cwd: t.work })) as {
      id: string;
    };
    expect(await owner.client.getRun({ id: report.id })).toMatchObject({ surface: 'mcp', status: 'succeeded' });
    expect(structured(await callTool(session, 'describe', { skill: 'field-notes' }))).toMatchObject({ name: 'field-notes' });
    expect((await session.client.readResource({ uri: 'skilltray://skills/field-notes/references/species.md' })).contents[0]).toMatchObject({
      mimeType: 'text/markdown',
    });
    expect((await session.client.listPrompts()).prompts.map((p) => p.name)).toContain('commit-message');
    const prompt = await session.client.getPrompt({ name: 'commit-message', arguments: { arguments: 'the parser change' } });
    expect(prompt.messages[0]?.content).toMatchObject({ text: expect.stringContaining('Notes from the person, if any: the parser change\n') });
  });

  it('looks for the owner at every call: one started mid-session gets the next call, one stopped gives it back', async () => {
    const t = contractHome();
    const session = await startMcp(t.env);
    expect(toolError(await callTool(session, 'run', SIGHTING))).toMatchObject({ code: 'E601' });

    const owner = await startServe(t);
    const call = callTool(session, 'run', SIGHTING);
    await owner.client.answerApproval({ id: (await pendingSighting(owner)).id, verdict: 'deny' });
    expect(toolError(await call)).toMatchObject({ code: 'E603' });

    await owner.stop();
    expect(structured(await callTool(session, 'list', {}))).toMatchObject({
      skills: expect.arrayContaining([expect.objectContaining({ name: 'field-notes' })]),
    });
    expect(toolError(await callTool(session, 'run', SIGHTING))).toMatchObject({ code: 'E601' });
    expect(session.stderr()).toContain('no Skilltray app or serve is running: calls run here');
  });

  it("a client's cancellation withdraws the forwarded approval from the owner", async () => {
    const t = contractHome();
    const owner = await startServe(t);
    const session = await startMcp(t.env);
    const abort = new AbortController();
    const call = session.client.callTool({ name: 'run', arguments: SIGHTING }, undefined, { signal: abort.signal });
    const entry = await pendingSighting(owner);
    abort.abort('the assistant gave up');
    await expect(call).rejects.toThrow();
    await waitFor(async () => ((await owner.client.approvals({})).length === 0 ? true : undefined));
    expect(await owner.client.getRun({ id: entry.id })).toMatchObject({ status: 'refused', errorCode: 'E613', decidedBy: 'caller', startedAt: null });
  });

  it('when the assistant goes away mid-approval, the approval is withdrawn and the bridge exits on its own', async () => {
    const t = contractHome();
    const owner = await startServe(t);
    const session = await startMcp(t.env, { keep: true });
    void callTool(session, 'run', SIGHTING).catch(() => undefined);
    const entry = await pendingSighting(owner);
    // Nothing but the closed stdin tells the bridge to go: it exits on its own, with no signal.
    expect(await session.hangUp()).toEqual({ code: 0, signal: null });
    expect(await owner.client.getRun({ id: entry.id })).toMatchObject({ status: 'refused', errorCode: 'E613' });
    expect(await owner.client.approvals({})).toEqual([]);
  });
});
