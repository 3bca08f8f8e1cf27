/**
 * How often a spoken answer counts when it should not, and how often a right one does, measured
 * with the real recogniser (pocketsphinx) over espeak-ng's voices through answerApprovalByVoice:
 * 50 sentences that are not answers (two voices in turn) never approve the request waiting for
 * them; 20 right answers (ten codes in two voices) run the tool, at least 19 of them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allCodes, codeWords, type VoiceAnswer } from '../../../src-main/shared/voice.js';
import { VOICES, spoken, voiceHome, type VoiceHome } from '../../support/voice.js';

const NON_ANSWERS = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'voice', 'non-answers.txt'), 'utf8')
  .trim()
  .split('\n');

/** Ten codes spread over all 80, every digit among them. */
const CODES = Array.from({ length: 10 }, (_, k) => allCodes()[k * 8 + 3] as string);

const homes: VoiceHome[] = [];
afterEach(async () => {
  for (const h of homes.splice(0)) await h.core.close();
});

describe('spoken answers through the real recogniser', () => {
  it(`${NON_ANSWERS.length} sentences that are not answers never approve; at least 19 of 20 right answers do`, { timeout: 900_000 }, async () => {
    expect(NON_ANSWERS).toHaveLength(50);
    const h = voiceHome();
    homes.push(h);
    let waiting = await h.ask();
    const outcomes: Record<string, number> = {};
    const approvals: string[] = [];
    for (const [i, sentence] of NON_ANSWERS.entries()) {
      const voice = VOICES[i % 2] as string;
      const answer = (await h.answer(waiting.entry.id, await spoken(sentence, voice))) as VoiceAnswer;
      outcomes[answer.outcome] = (outcomes[answer.outcome] ?? 0) + 1;
      if (answer.outcome === 'once' || answer.outcome === 'always') approvals.push(`${voice} "${sentence}" → "${answer.hearing.text}"`);
      // A sentence taken for "deny" denied the request it was heard for: ask again for the next.
      if (answer.outcome === 'deny') {
        await expect(waiting.run).rejects.toMatchObject({ code: 'E603' });
        waiting = await h.ask();
      }
    }
    h.core.broker.resolve(waiting.entry.id, 'deny', 'tray');
    await waiting.run.catch(() => undefined);

    let approved = 0;
    const missed: string[] = [];
    for (const voice of VOICES) {
      for (const code of CODES) {
        h.codes.push(code);
        const { entry, run } = await h.ask();
        const answer = (await h.answer(entry.id, await spoken(`run ${codeWords(code)}`, voice))) as VoiceAnswer;
        if (answer.outcome === 'once') {
          expect((await run).result.exitCode).toBe(0);
          approved++;
        } else {
          missed.push(`${voice} "run ${codeWords(code)}" → ${answer.outcome} ("${answer.hearing.text}", ${answer.hearing.why ?? ''})`);
          h.core.broker.resolve(entry.id, 'deny', 'tray');
          await run.catch(() => undefined);
        }
      }
    }
    process.stdout.write(
      `voice false accepts: ${approvals.length} of ${NON_ANSWERS.length} non-answers approved (outcomes ${JSON.stringify(outcomes)}); ` +
        `right answers approved: ${approved} of ${VOICES.length * CODES.length}${missed.length === 0 ? '' : `; missed: ${missed.join('; ')}`}\n`,
    );
    expect(approvals).toEqual([]);
    // Nor is one taken for any other answer: the recogniser itself turns them down, before the code is compared.
    expect(outcomes).toEqual({ 'not-understood': NON_ANSWERS.length });
    expect(approved).toBeGreaterThanOrEqual(19);
  });
});
