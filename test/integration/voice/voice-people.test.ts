/**
 * Answering aloud on the real `skilltray serve` and CLI, as root and as an ordinary user: the
 * person's CLI says the answer (`voice say --wav-out`), hears it (`voice hear`), and the browser UI's
 * call answers the request with it; "deny" denies. The recogniser and synthesiser run as that person.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SURFACE_HEADER } from '../../../src-main/server/app-link.js';
import type { Envelope } from '../../../src-main/shared/contract.js';
import type { PendingEntry, RunReport } from '../../../src-main/shared/runs.js';
import { codeWords, type Hearing, type VoiceAnswer } from '../../../src-main/shared/voice.js';
import { readFileSync } from 'node:fs';
import { install, people, serve, toolSkill } from '../sandbox/hostile/trust-support.js';

describe.each(people())('answering aloud, as $label', (person) => {
  it('the right code runs the tool, "deny" denies; the CLI says and hears the answers', { timeout: 240_000 }, async () => {
    const app = install(person);
    app.write(app.userSkills, { 'writes/SKILL.md': toolSkill('writes', 'echo <<a>>') });
    const server = await serve(app);
    const post = async <T>(operation: string, body: unknown): Promise<T> => {
      const res = await fetch(`${server.url}/api/${operation}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', [SURFACE_HEADER]: 'cli' },
        body: JSON.stringify(body),
      });
      const envelope = (await res.json()) as Envelope<T>;
      if (!envelope.ok) throw new Error(`${operation}: ${envelope.error.code} ${envelope.error.message}`);
      return envelope.value;
    };
    await post('setVoice', { enabled: true });
    const codeOf = async (id: string): Promise<string> => (await post<PendingEntry[]>('approvals', {})).find((e) => e.id === id)?.code as string;
    const said = async (text: string): Promise<string> => {
      const file = join(app.work, `${text.replace(/\W+/g, '-')}.wav`);
      expect((await app.cli(['voice', 'say', text, '--wav-out', file])).code).toBe(0);
      const heard = JSON.parse((await app.cli(['voice', 'hear', file, '--json'])).stdout) as Hearing;
      expect(heard).toMatchObject({ text, accepted: true });
      return readFileSync(file).toString('base64');
    };

    /** The next approval, or the run's own failure if it ended without asking. */
    const askedFor = (run: Promise<{ stdout: string; stderr: string }>): Promise<PendingEntry> =>
      Promise.race([server.nextApproval(), run.then((r) => Promise.reject(new Error(`the run did not ask: ${r.stdout}${r.stderr}`)))]);
    const running = app.cli(['run', 'writes', 'go', '--arg', 'a=spoken', '--json']);
    const asked = await askedFor(running);
    const code = await codeOf(asked.id);
    const answer = await post<VoiceAnswer>('answerApprovalByVoice', { id: asked.id, wav: await said(`run ${codeWords(code)}`) });
    expect(answer).toMatchObject({ outcome: 'once', hearing: { code } });
    const report = JSON.parse((await running).stdout) as RunReport;
    expect(report.result).toMatchObject({ exitCode: 0, stdout: 'spoken\n' });

    const denied = app.cli(['run', 'writes', 'go', '--arg', 'a=never', '--json']);
    const again = await askedFor(denied);
    expect(await codeOf(again.id)).not.toBe(code);
    expect(await post<VoiceAnswer>('answerApprovalByVoice', { id: again.id, wav: await said('deny') })).toMatchObject({ outcome: 'deny' });
    expect(JSON.parse((await denied).stdout).error).toMatchObject({ code: 'E603' });
  });
});
