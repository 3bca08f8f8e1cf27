/**
 * Answering aloud: from the end of the spoken answer (the recording handed to answerApprovalByVoice)
 * to the run starting, against the same run answered with a click (answerApproval) measured in the
 * same run; and the recogniser's real-time factor (seconds hearing / seconds of audio). The goal
 * for the first is 500 ms on this machine (issue 43). Recordings are espeak-ng's. The recogniser is
 * warmed as each request starts waiting, as in the app, where the prompt is then spoken before the
 * answer; the first answer here comes at once, while it is still starting, and is shown apart.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { SkilltrayCore } from '../src-main/core/api.js';
import { resolveConfig } from '../src-main/core/config.js';
import { wavBytes } from '../src-main/shared/pcm.js';
import type { RunEvent } from '../src-main/shared/runs.js';
import { codeWords } from '../src-main/shared/voice.js';
import { trueSkillText } from './corpus.js';
import type { Figure, Metric } from './measure.js';

const CODE = '413';
const RUNS = 5;

function median(samples: number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
}

export async function voiceBench(dir: string): Promise<(Figure | Metric)[]> {
  const skills = join(dir, 'skills');
  const work = join(dir, 'work');
  mkdirSync(join(skills, 'writes'), { recursive: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(skills, 'writes', 'SKILL.md'), trueSkillText('writes', 'Runs true, asking first. Use when benchmarking.', 'go'));
  const env = { PATH: process.env.PATH, HOME: dir, SKILLTRAY_HOME: join(dir, 'home'), SKILLTRAY_SKILLS_PATH: skills };
  const core = new SkilltrayCore(resolveConfig({ env, bundledDir: join(dir, 'none') }), { approvalCode: () => CODE });
  try {
    if (!core.voice.status().recogniser.available) return [{ name: 'voice: answer → run started', text: `skipped: ${core.voice.status().recogniser.why}` }];
    core.voice.setSettings({ enabled: true });
    const wav = Buffer.from(wavBytes(await core.voice.render(`run ${codeWords(CODE)}`))).toString('base64');
    /** One request answered by `answer`: ms from the answer's start to the run's start, and how long the recogniser took per second of audio. */
    const once = async (answer: (id: string) => Promise<unknown>): Promise<number> => {
      const added = new Promise<string>((resolve) => {
        const off = core.broker.on('added', (entry) => (off(), resolve(entry.id)));
      });
      const run = core.runs.run({ skill: 'writes', tool: 'go', surface: 'mcp', cwd: work }, { approval: { kind: 'broker' } });
      const id = await added;
      const started = new Promise<number>((resolve) => {
        const listener = (event: RunEvent): void => {
          if (event.type === 'started' && event.id === id) {
            core.runs.service.off('run', listener);
            resolve(performance.now());
          }
        };
        core.runs.service.on('run', listener);
      });
      const from = performance.now();
      await answer(id);
      const ms = (await started) - from;
      await run;
      return ms;
    };
    const spoken: number[] = [];
    const clicked: number[] = [];
    const factors: number[] = [];
    const first = await once((id) => core.voice.answer(id, wav, 'bench (voice)'));
    for (let i = 0; i < RUNS; i++) {
      clicked.push(await once(async (id) => core.broker.resolve(id, 'once', 'bench')));
      spoken.push(
        await once(async (id) => {
          const answer = await core.voice.answer(id, wav, 'bench (voice)');
          if (answer.outcome !== 'once') throw new Error(`the bench's answer was not heard: ${answer.hearing.why ?? answer.outcome}`);
          factors.push(answer.hearing.elapsedSeconds / answer.hearing.audioSeconds);
        }),
      );
    }
    const ms = median(spoken);
    return [
      {
        name: 'voice: end of the spoken answer → run started',
        ms,
        baseline: 'the same run answered with a click',
        baselineMs: median(clicked),
        note: `goal ≤ 500 ms: ${ms <= 500 ? 'met' : 'MISSED'}; load average ${loadavg()[0]?.toFixed(1)} on ${RUNS} runs`,
      },
      { name: 'voice: recogniser real-time factor', text: `${median(factors).toFixed(2)} (seconds hearing per second of audio, median of ${RUNS})` },
      {
        name: 'voice: first answer, given as its request came',
        text: `${first.toFixed(0)} ms (the recogniser still loading its model: no prompt spoken first)`,
      },
    ];
  } finally {
    await core.close();
  }
}
