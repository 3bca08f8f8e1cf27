/**
 * Event fan-out: 500 subscribers that read and 100 that never do, while ten runs each print past
 * the 1 MiB output cap. Serve's peak memory stays within 300 MiB: each event is serialised once,
 * carries no output, and a stalled subscriber costs at most its byte budget.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.js';
import { figure, peakResidentMb, residentMb } from '../../support/process-memory.js';
import { testHome, writeSkill } from '../../support/temp.js';
import { serve, toolSkill } from '../server/helpers.js';

const READING = 500;
const STALLED = 100;
const RUNS = 10;

/** Opens `GET /api/events`; a reading subscriber counts the runs it hears finish. */
function subscribe(port: number, token: string, reads: boolean): Promise<{ socket: Socket; finished: () => number }> {
  return new Promise((resolve, reject) => {
    let finished = 0;
    let tail = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      socket.once('data', () => {
        if (!reads) socket.pause();
        resolve({ socket, finished: () => finished });
      });
    });
    socket.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      finished += text.split('"type":"finished"').length - 1;
      // A marker split across two chunks is found in the next one, and never counted twice.
      tail = text.slice(-32).includes('"type":"finished"') ? '' : text.slice(-32);
    });
    socket.once('error', reject);
  });
}

describe('soak: event fan-out', () => {
  it(`${READING} subscribers and ${STALLED} stalled ones, ten runs of 1 MiB each: serve peaks within 300 MiB`, { timeout: 300_000 }, async () => {
    const t = testHome();
    // A user's tool printing 1.3 MB (its output is cut at the 1 MiB cap), allowed by a rule so nobody is asked.
    writeSkill(t.skills, 'loud', toolSkill('loud', 'seq 1 200000', { read_only: true, timeout: 60 }));
    expect((await cli(['rules', 'add', 'allow', 'tool:loud/go'], t)).code).toBe(0);
    const serving = await serve(t);
    const pid = serving.child.pid as number;
    const port = Number(new URL(serving.url).port);
    const token = readFileSync(join(t.home, 'token'), 'utf8').trim();
    const idleMb = residentMb(pid);
    const reading = await Promise.all(Array.from({ length: READING }, () => subscribe(port, token, true)));
    const stalled = await Promise.all(Array.from({ length: STALLED }, () => subscribe(port, token, false)));
    const answers = await Promise.all(
      Array.from({ length: RUNS }, async () => {
        const res = await fetch(`${serving.url}/api/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ skill: 'loud', tool: 'go' }),
        });
        return (await res.json()) as { ok: boolean; value: { result: { stdout: string; droppedBytes: { stdout: number } } } };
      }),
    );
    for (const answer of answers) {
      expect(answer, JSON.stringify(answer).slice(0, 400)).toMatchObject({ ok: true });
      expect(answer.value.result.droppedBytes.stdout).toBeGreaterThan(0);
    }
    // Every reading subscriber hears every run finish.
    while (reading.some((s) => s.finished() < RUNS)) await new Promise((resolve) => setTimeout(resolve, 50));
    const peakMb = peakResidentMb(pid);
    figure('event fan-out', `${READING} reading + ${STALLED} stalled subscribers, ${RUNS} runs of 1 MiB: serve peak RSS ${peakMb.toFixed(0)} MiB (idle ${idleMb.toFixed(0)} MiB)`);
    expect(peakMb).toBeLessThanOrEqual(300);
    for (const s of [...reading, ...stalled]) s.socket.destroy();
  });
});
