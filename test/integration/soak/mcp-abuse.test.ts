/**
 * `skilltray mcp` fed what a broken or hostile client sends: a 12 MB line while a run is in flight
 * (answered with an error, the run untouched, a ping answered after it), junk lines, args nested
 * 6,000 deep, and 10,000 requests pipelined at once (its memory stays within 250 MiB).
 */
import { execa, type ResultPromise } from 'execa';
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.js';
import { figure, peakResidentMb } from '../../support/process-memory.js';
import { testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { BEHAVE, BIN, NODE, toolSkill } from '../server/helpers.js';

type Message = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: { error?: { code: string } } } };

/** A raw session: lines out, answers in by id. */
class RawSession {
  private readonly waiting = new Map<string, (message: Message) => void>();
  private readonly unmatched: Message[] = [];
  private buffer = '';
  readonly child: ResultPromise<{ stdin: 'pipe'; stdout: 'pipe'; stderr: 'pipe'; reject: false; extendEnv: false; buffer: false }>;

  constructor(t: TestHome) {
    this.child = execa(NODE, [BIN, 'mcp'], { env: t.env, extendEnv: false, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe', reject: false, buffer: false });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf('\n'); end !== -1; end = this.buffer.indexOf('\n')) {
        const message = JSON.parse(this.buffer.slice(0, end)) as Message;
        this.buffer = this.buffer.slice(end + 1);
        const waiter = this.waiting.get(JSON.stringify(message.id ?? null));
        if (waiter) {
          this.waiting.delete(JSON.stringify(message.id ?? null));
          waiter(message);
        } else this.unmatched.push(message);
      }
    });
    this.child.stderr.resume();
  }

  /** Writes one line, waiting for the pipe to take it. */
  async write(line: string): Promise<void> {
    if (!this.child.stdin.write(`${line}\n`)) await new Promise((resolve) => this.child.stdin.once('drain', resolve));
  }

  /** The answer with `id` (null: the next answer that has no id), already received or still to come. */
  answer(id: unknown): Promise<Message> {
    const key = JSON.stringify(id);
    const at = this.unmatched.findIndex((m) => JSON.stringify(m.id ?? null) === key);
    if (at !== -1) return Promise.resolve(this.unmatched.splice(at, 1)[0] as Message);
    return new Promise((resolve) => this.waiting.set(key, resolve));
  }

  async request(id: number | string, method: string, params: unknown = {}): Promise<Message> {
    const answered = this.answer(id);
    await this.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answered;
  }

  async start(): Promise<void> {
    await this.request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
    await this.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  async end(): Promise<number | undefined> {
    this.child.stdin.end();
    return (await this.child).exitCode;
  }
}

/** A home with `slow`, a user tool allowed by a rule (so it runs in the bridge with nobody to ask). */
async function home(): Promise<TestHome> {
  const t = testHome();
  writeSkill(t.skills, 'slow', toolSkill('slow', `${NODE} ${BEHAVE} sleep:<<a>> out:done`, { timeout: 60 }));
  expect((await cli(['rules', 'add', 'allow', 'tool:slow/go'], t)).code).toBe(0);
  return t;
}

describe('soak: MCP abuse', () => {
  it('answers a 12 MB line with an error, keeps the session and the run in flight, and answers the ping after it', { timeout: 120_000 }, async () => {
    const t = await home();
    const session = new RawSession(t);
    await session.start();
    const running = session.request(1, 'tools/call', { name: 'run', arguments: { skill: 'slow', tool: 'go', args: { a: '3000' } } });
    const refused = session.answer(2);
    const sent = performance.now();
    await session.write(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list","arguments":{}},"pad":"${'x'.repeat(12 * 1024 * 1024)}"}`);
    const tooBig = await refused;
    const pong = await session.request(3, 'ping');
    figure(
      'MCP oversized line',
      `a 12 MB line answered ${tooBig.error?.data?.error?.code} in ${(performance.now() - sent).toFixed(0)} ms; ping answered after it; the run in flight went on`,
    );
    expect(tooBig.error).toMatchObject({ code: -32600, data: { error: { code: 'E804' } } });
    expect(pong).toMatchObject({ result: {} });
    const ran = await running;
    expect(ran.result?.isError).toBeFalsy();
    expect(ran.result).toMatchObject({ structuredContent: { result: { stdout: 'done', exitCode: 0 } } });
    expect(await session.end()).toBe(0);
    const history = JSON.parse((await cli(['history', '--json'], t)).stdout) as { status: string; reason: string }[];
    expect(history.map((r) => r.status)).toEqual(['succeeded']);
  });

  it('answers junk lines, batches, null params and object ids, and refuses args nested 6,000 deep with a history row', { timeout: 120_000 }, async () => {
    const t = await home();
    const session = new RawSession(t);
    await session.start();
    const junk: [string, number, unknown][] = [
      ['{"jsonrpc":"2.0","id":', -32700, null],
      ['[{"jsonrpc":"2.0","id":5,"method":"ping"}]', -32600, null],
      ['{"jsonrpc":"2.0","id":6,"method":"tools/list","params":null}', -32602, 6],
      ['{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', -32600, null],
    ];
    for (const [line, code, id] of junk) {
      const answered = session.answer(id);
      await session.write(line);
      expect([line, (await answered).error?.code]).toEqual([line, code]);
    }
    const deep = `${'['.repeat(6000)}${']'.repeat(6000)}`;
    const refusedAt = performance.now();
    const answered = session.answer(7);
    await session.write(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run","arguments":{"skill":"slow","tool":"go","args":{"a":${deep}}}}}`);
    const refused = await answered;
    figure('MCP args 6,000 deep', `refused E805 in ${(performance.now() - refusedAt).toFixed(0)} ms, recorded as a refused run`);
    expect(refused.result).toMatchObject({ isError: true, structuredContent: { error: { code: 'E805' } } });
    expect((await session.request(8, 'ping')).result).toEqual({});
    expect(await session.end()).toBe(0);
    const history = JSON.parse((await cli(['history', '--json'], t)).stdout) as { status: string; errorCode: string; surface: string }[];
    expect(history).toMatchObject([{ status: 'refused', errorCode: 'E805', surface: 'mcp' }]);
  });

  it('takes 10,000 pipelined requests within 250 MiB, answering every one', { timeout: 300_000 }, async () => {
    const t = await home();
    const session = new RawSession(t);
    await session.start();
    const count = 10_000;
    const answers = Array.from({ length: count }, (_, i) => session.answer(100 + i));
    const started = performance.now();
    // A tool call (a ping would skip the bridge's queue): without the bound, 10,000 of them at once took 3 GiB here.
    for (let i = 0; i < count; i++)
      await session.write(JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: 'list', arguments: {} } }));
    const all = await Promise.all(answers);
    const peakMb = peakResidentMb(session.child.pid as number);
    figure(
      'MCP pipelining',
      `${count} requests answered in ${((performance.now() - started) / 1000).toFixed(1)} s; the bridge peaked at ${peakMb.toFixed(0)} MiB`,
    );
    expect(all.filter((m) => m.result === undefined)).toEqual([]);
    expect(peakMb).toBeLessThanOrEqual(250);
    expect(await session.end()).toBe(0);
  });
});
