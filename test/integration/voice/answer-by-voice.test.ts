/**
 * answerApprovalByVoice over the loopback API with the real recogniser: the right code runs the
 * tool; a wrong code, a sentence that is no answer, or an assistant's call does nothing; "deny"
 * denies; bad audio is a coded error and nothing is approved; without a recogniser voice says so and
 * the other ways to answer keep working. Recordings are espeak-ng's, as a microphone would send them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../src-main/server/http.js';
import { SURFACE_HEADER } from '../../../src-main/server/app-link.js';
import { issueAssistantToken, newAssistantToken } from '../../../src-main/core/credentials/assistant-tokens.js';
import type { Envelope } from '../../../src-main/shared/contract.js';
import { wavBytes } from '../../../src-main/shared/pcm.js';
import type { PendingEntry } from '../../../src-main/shared/runs.js';
import { codeWords, type VoiceAnswer, type VoiceStatus } from '../../../src-main/shared/voice.js';
import { spoken, voiceHome, type VoiceHome } from '../../support/voice.js';

const opened: { h: VoiceHome; server: RunningServer }[] = [];
afterEach(async () => {
  for (const { h, server } of opened.splice(0)) {
    await server.close();
    await h.core.close();
  }
});

/** Who calls: the browser UI (same origin), the CLI, an MCP client (an assistant whatever its token), or an assistant with a token of its own. */
type Caller = 'browser' | 'cli' | 'mcp' | 'assistant';

async function served(options: { env?: NodeJS.ProcessEnv } = {}) {
  const h = voiceHome(options);
  const server = await startHttpServer({ core: h.core, owner: 'serve', version: '0.0.0-test' });
  opened.push({ h, server });
  const assistantToken = newAssistantToken();
  issueAssistantToken(h.core.config.home, 'codex', assistantToken);
  const post = async <T>(operation: string, body: unknown, caller: Caller = 'browser'): Promise<{ status: number; envelope: Envelope<T> }> => {
    const token = caller === 'assistant' ? assistantToken : server.token();
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    if (caller === 'browser') headers.origin = server.url;
    if (caller === 'cli' || caller === 'mcp') headers[SURFACE_HEADER] = caller;
    const res = await fetch(`${server.url}/api/${operation}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, envelope: (await res.json()) as Envelope<T> };
  };
  const say = async (id: string, wav: string, caller: Caller = 'browser') => post<VoiceAnswer>('answerApprovalByVoice', { id, wav }, caller);
  return { h, server, post, say };
}

const value = <T>(envelope: Envelope<T>): T => {
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value;
};

describe('answering an approval aloud', () => {
  it('runs the tool when the right code is said, and records who answered, how, and where the request came from', async () => {
    const s = await served();
    s.h.codes.push('413');
    const { entry, run } = await s.h.ask();
    const { status, envelope } = await s.say(entry.id, await spoken('run four one three'));
    expect(status).toBe(200);
    expect(value(envelope)).toMatchObject({ outcome: 'once', hearing: { text: 'run four one three', code: '413', accepted: true }, say: 'Running writes/go.' });
    const report = await run;
    expect(report.result.exitCode).toBe(0);
    expect(s.h.core.runs.getRun(report.id)).toMatchObject({
      outcome: 'approved',
      decidedBy: 'user',
      actor: 'browser (voice)',
      answer: 'once',
      channel: 'assistant',
    });
  });

  it('remembers "always <code>" as Always in this folder', async () => {
    const s = await served();
    s.h.codes.push('254');
    const { entry, run } = await s.h.ask();
    expect(value((await s.say(entry.id, await spoken('always two five four'), 'cli')).envelope).outcome).toBe('always');
    expect(s.h.core.runs.getRun((await run).id)).toMatchObject({ answer: 'always', actor: 'cli (voice)' });
    expect(s.h.core.policy.remembered()).toMatchObject([{ skill: 'writes', tool: 'go', folder: expect.any(String) }]);
  });

  it('does nothing for a wrong code or a sentence that is no answer, and says so; "deny" then denies', async () => {
    const s = await served();
    s.h.codes.push('413');
    const { entry, run } = await s.h.ask();
    const wrong = value((await s.say(entry.id, await spoken('run one two five'))).envelope);
    expect(wrong).toMatchObject({ outcome: 'wrong-code', hearing: { code: '125' }, say: "I didn't catch that. Say 'run four one three', or 'deny'." });
    const chatter = value((await s.say(entry.id, await spoken('hello there how are you doing today'))).envelope);
    expect(chatter).toMatchObject({ outcome: 'not-understood', hearing: { accepted: false } });
    expect(s.h.core.broker.list().map((e) => e.id)).toEqual([entry.id]);
    expect(value((await s.say(entry.id, await spoken('deny', 'en-gb+f3'))).envelope)).toMatchObject({ outcome: 'deny', say: 'Denied writes/go.' });
    await expect(run).rejects.toMatchObject({ code: 'E603' });
    expect(s.h.core.runs.getRun(entry.id)).toMatchObject({ status: 'denied', actor: 'browser (voice)', startedAt: null });
  });

  it("answers nothing for an assistant, which never sees the code; the person's surfaces do", async () => {
    const s = await served();
    s.h.codes.push('413');
    const { entry } = await s.h.ask();
    const wav = await spoken('run four one three');
    for (const caller of ['assistant', 'mcp'] as const) {
      const { status, envelope } = await s.say(entry.id, wav, caller);
      expect([status, envelope.ok ? null : envelope.error.code]).toEqual([403, 'E814']);
      // Pending requests are the person's to see: an assistant gets neither them nor their codes.
      const listed = await s.post<PendingEntry[]>('approvals', {}, caller);
      expect([listed.status, listed.envelope.ok ? null : listed.envelope.error.code]).toEqual([403, 'E814']);
      expect(JSON.stringify(listed.envelope)).not.toContain('413');
    }
    for (const caller of ['browser', 'cli'] as const) {
      expect(value((await s.post<PendingEntry[]>('approvals', {}, caller)).envelope)[0]).toMatchObject({
        code: '413',
        speech: expect.stringContaining("'run four one three'"),
      });
    }
    expect(s.h.core.broker.list().map((e) => e.id)).toEqual([entry.id]);
  });

  it('refuses bad audio with a coded error and approves nothing: another rate, empty, silent, over 10 s, over 2 MiB, not base64', async () => {
    const s = await served();
    s.h.codes.push('413');
    const { entry } = await s.h.ask();
    const asWav = (samples: number, rate = 16_000): string => {
      const bytes = Buffer.from(wavBytes(Int16Array.from({ length: samples }, (_, i) => Math.round(9000 * Math.sin(i / 3)))));
      bytes.writeUInt32LE(rate, 24);
      return bytes.toString('base64');
    };
    const cases: [string, string, number, string][] = [
      ['22.05 kHz', asWav(16_000, 22_050), 400, 'E630'],
      ['no samples', asWav(0), 400, 'E631'],
      ['silence', Buffer.from(wavBytes(new Int16Array(16_000))).toString('base64'), 400, 'E631'],
      ['11 s', asWav(16_000 * 11), 400, 'E632'],
      ['2.1 MiB', Buffer.alloc(Math.floor(2.1 * 1024 * 1024)).toString('base64'), 413, 'E633'],
      ['not base64', 'UklGRg==!', 400, 'E630'],
    ];
    for (const [what, wav, status, code] of cases) {
      const answered = await s.say(entry.id, wav);
      expect([what, answered.status, answered.envelope.ok ? null : answered.envelope.error.code]).toEqual([what, status, code]);
    }
    expect(s.h.core.broker.list().map((e) => e.id)).toEqual([entry.id]);
  });

  it('hears nothing while voice is off (E636), and answers nothing for an unknown request (E611)', async () => {
    const s = await served();
    const { entry } = await s.h.ask();
    const wav = await spoken('deny');
    expect(value((await s.post('setVoice', { enabled: false })).envelope)).toMatchObject({ enabled: false });
    expect((await s.say(entry.id, wav)).envelope).toMatchObject({ ok: false, error: { code: 'E636' } });
    value((await s.post('setVoice', { enabled: true })).envelope);
    expect((await s.say('no-such-run', wav)).envelope).toMatchObject({ ok: false, error: { code: 'E611' } });
    expect(s.h.core.broker.list().map((e) => e.id)).toEqual([entry.id]);
  });

  it('says "voice unavailable" without a recogniser, and the other ways to answer keep working', async () => {
    const s = await served({ env: { PATH: '/nonexistent' } });
    const status = value((await s.post<{ status: VoiceStatus }>('voice', {})).envelope).status;
    expect(status.recogniser).toMatchObject({ available: false, why: expect.stringContaining('pocketsphinx_batch is not on PATH') });
    expect(status.synthesiser).toMatchObject({ available: false, why: expect.stringContaining('espeak-ng is not on PATH') });
    const { entry, run } = await s.h.ask();
    const { envelope } = await s.say(entry.id, await spoken('run four one three'));
    expect(envelope).toMatchObject({
      ok: false,
      error: { code: 'E634', message: expect.stringMatching(/^voice unavailable: pocketsphinx_batch is not on PATH/) },
    });
    expect(value((await s.post('answerApproval', { id: entry.id, verdict: 'once' })).envelope)).toEqual({ ok: true });
    expect((await run).result.exitCode).toBe(0);
  });

  it('asks, and wants the code, for a writing tool an assistant asks for from a voice turn, even when it is always allowed', async () => {
    const s = await served();
    s.h.codes.push('135');
    const first = await s.h.ask();
    value((await s.post('answerApproval', { id: first.entry.id, verdict: 'always' })).envelope);
    await first.run;
    // Always allowed: an assistant's request runs unasked…
    const unasked = await s.h.core.runs.run({ skill: 'writes', tool: 'go', args: { a: 'x' }, surface: 'mcp', cwd: s.h.t.work }, { approval: { kind: 'none' } });
    expect(s.h.core.runs.getRun(unasked.id)).toMatchObject({ decidedBy: 'remembered', channel: 'assistant' });
    // …but not from a voice turn, and a spoken "run" alone does not answer it.
    s.h.codes.push('241');
    const { entry, run } = await s.h.ask('writes', { channel: 'voice' });
    expect(entry).toMatchObject({ channel: 'voice', code: '241', speech: expect.stringContaining("Say 'run two four one'") });
    expect(entry.reason).toContain('from a voice turn');
    expect(['not-understood', 'wrong-code']).toContain(value((await s.say(entry.id, await spoken('run'))).envelope).outcome);
    expect(s.h.core.broker.list().map((e) => e.id)).toEqual([entry.id]);
    expect(value((await s.say(entry.id, await spoken(`run ${codeWords('241')}`))).envelope).outcome).toBe('once');
    expect(s.h.core.runs.getRun((await run).id)).toMatchObject({ channel: 'voice', actor: 'browser (voice)' });
  });
});
