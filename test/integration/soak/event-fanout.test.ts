/**
 * Event fan-out: 500 subscribers that read and 100 that never do, while ten runs each print past
 * the 1 MiB output cap (the scenario is bench/event-fanout.ts, which `npm run bench` measures too).
 * Serve's peak memory stays within 300 MiB: each event is serialised once, carries no output, and
 * a stalled subscriber costs at most its byte budget.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fanOut, LOUD_RULE, READING, RUNS, STALLED, writeLoudSkill } from '../../../bench/event-fanout.js';
import { cli } from '../../support/cli.js';
import { figure, peakResidentMb, residentMb } from '../../support/process-memory.js';
import { testHome } from '../../support/temp.js';
import { serve } from '../server/helpers.js';

describe('soak: event fan-out', () => {
  it(`${READING} subscribers and ${STALLED} stalled ones, ten runs of 1 MiB each: serve peaks within 300 MiB`, { timeout: 300_000 }, async () => {
    const t = testHome();
    writeLoudSkill(t.skills);
    expect((await cli(['rules', 'add', ...LOUD_RULE], t)).code).toBe(0);
    const serving = await serve(t);
    const pid = serving.child.pid as number;
    const token = readFileSync(join(t.home, 'token'), 'utf8').trim();
    const idleMb = residentMb(pid);
    const answers = await fanOut(serving.url, token);
    for (const answer of answers) {
      expect(answer, JSON.stringify(answer).slice(0, 400)).toMatchObject({ ok: true });
      expect(answer.value.result.droppedBytes.stdout).toBeGreaterThan(0);
    }
    const peakMb = peakResidentMb(pid);
    figure(
      'event fan-out',
      `${READING} reading + ${STALLED} stalled subscribers, ${RUNS} runs of 1 MiB: serve peak RSS ${peakMb.toFixed(0)} MiB (idle ${idleMb.toFixed(0)} MiB)`,
    );
    expect(peakMb).toBeLessThanOrEqual(300);
  });
});
