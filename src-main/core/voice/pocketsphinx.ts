/**
 * The recogniser over Debian's pocketsphinx (`pocketsphinx_batch`, packages pocketsphinx and
 * pocketsphinx-en-us). Two processes hear each recording at once, over the checked samples written
 * to a private temp folder (never the caller's file):
 * - one decodes it twice: under the answer grammar, and under a free loop of the same words;
 * - one decodes it as a free loop of phones, the yardstick each answer word is measured against.
 * Every senone is scored in every frame in both (`-compallsen`), so their acoustic scores share one
 * scale and can be compared (judge.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { voiceErrors } from '../../shared/error-messages/voice.js';
import type { Hearing, VoiceEngine } from '../../shared/voice.js';
import { resolveProgram } from '../process/resolve-program.js';
import { answerFsg, dictionary, freeFsg, readAnswer, spokenWords, type AnswerGrammar } from './answer-grammar.js';
import { judge, type Segment } from './judge.js';
import type { Recogniser } from './recogniser.js';
import type { Recording } from './wav.js';

/** The batch decoder of pocketsphinx 0.8 / 5prealpha, as Debian 12 ships it. */
export const POCKETSPHINX_PROGRAM = 'pocketsphinx_batch';

/** Where the US English model is installed (Debian's pocketsphinx-en-us first). */
export const MODEL_DIRS = ['/usr/share/pocketsphinx/model/en-us', '/usr/local/share/pocketsphinx/model/en-us'];

/** Files of the model this uses. */
const MODEL_FILES = ['en-us/mdef', 'en-us/means', 'en-us/sendump', 'en-us-phone.lm.bin'];

/** Longest a decoder may take over one answer (at most 10 s of audio, decoded at a small fraction of real time). */
const DECODE_TIMEOUT_MS = 30_000;

/** Wider beams than pocketsphinx's defaults: without them a clipped word can leave the grammar with no path to its end. */
const BEAMS = ['-beam', '1e-100', '-pbeam', '1e-100', '-wbeam', '1e-80', '-lpbeam', '1e-80', '-lponlybeam', '1e-80'];

/** Parses hypseg lines (`uttid S scale T total A ascr L lscr {sf ascr lscr word}… end`) into segments per utterance. */
export function parseHypseg(text: string): Map<string, Segment[]> {
  const out = new Map<string, Segment[]>();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 9 || f[1] !== 'S') continue;
    const raw: { word: string; sf: number; ascr: number }[] = [];
    let i = 9;
    for (; i + 3 < f.length; i += 4) raw.push({ sf: Number(f[i]), ascr: Number(f[i + 1]), word: f[i + 3] as string });
    const end = Number(f[i] ?? f[f.length - 1]);
    out.set(
      f[0] as string,
      raw.map((s, k) => ({ ...s, ef: (k + 1 < raw.length ? (raw[k + 1] as { sf: number }).sf : end) - 1 })),
    );
  }
  return out;
}

function run(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { env, timeout: DECODE_TIMEOUT_MS, maxBuffer: 1 << 20, windowsHide: true }, (error, _stdout, stderr) => {
      if (error === null) return resolve();
      const last = String(stderr).trim().split('\n').slice(-2).join(' ').slice(0, 300);
      reject(voiceErrors.unavailable(`${program} failed (${error.message.split('\n')[0]})${last === '' ? '' : `: ${last}`}`, { cause: error }));
    });
  });
}

/** Hears answers with pocketsphinx_batch and the en-us model. */
export class PocketsphinxRecogniser implements Recogniser {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private program(): string | null {
    return resolveProgram(POCKETSPHINX_PROGRAM, this.env, '/');
  }

  private model(): string | null {
    return MODEL_DIRS.find((dir) => MODEL_FILES.every((file) => existsSync(join(dir, file)))) ?? null;
  }

  status(): VoiceEngine {
    const engine = 'pocketsphinx (en-us)';
    if (this.program() === null) {
      return { available: false, engine, why: `${POCKETSPHINX_PROGRAM} is not on PATH (Debian/Ubuntu: apt-get install pocketsphinx pocketsphinx-en-us)` };
    }
    if (this.model() === null) {
      return { available: false, engine, why: `no US English model in ${MODEL_DIRS.join(' or ')} (Debian/Ubuntu: apt-get install pocketsphinx-en-us)` };
    }
    return { available: true, engine, why: null };
  }

  async hear(recording: Recording, grammar: AnswerGrammar): Promise<Hearing> {
    const started = performance.now();
    const program = this.program();
    const model = this.model();
    if (program === null || model === null) throw voiceErrors.unavailable(this.status().why ?? 'pocketsphinx cannot run');
    const dir = await mkdtemp(join(tmpdir(), 'skilltray-voice-'));
    try {
      const samples = Buffer.from(recording.samples.buffer, recording.samples.byteOffset, recording.samples.byteLength);
      await Promise.all([
        writeFile(join(dir, 'answer.raw'), samples),
        writeFile(join(dir, 'words.dict'), dictionary()),
        writeFile(join(dir, 'answer.fsg'), answerFsg(grammar)),
        writeFile(join(dir, 'free.fsg'), freeFsg()),
        writeFile(join(dir, 'passes.ctl'), 'answer 0 -1 grammar\nanswer 0 -1 free\n'),
        writeFile(join(dir, 'passes.fsgctl'), 'answer\nfree\n'),
        writeFile(join(dir, 'loop.ctl'), 'answer 0 -1 loop\n'),
      ]);
      const input = ['-hmm', join(model, 'en-us'), '-dict', join(dir, 'words.dict'), '-adcin', 'yes', '-adchdr', '0', '-cepext', '.raw', '-cepdir', dir];
      const env = { PATH: this.env.PATH ?? '/usr/bin:/bin', LANG: 'C' };
      await Promise.all([
        run(
          program,
          [
            ...input,
            ...['-fsgctl', join(dir, 'passes.fsgctl'), '-fsgdir', dir, '-fsgext', '.fsg', '-fsgusefiller', 'no', '-compallsen', 'yes', ...BEAMS],
            ...['-ctl', join(dir, 'passes.ctl'), '-hypseg', join(dir, 'passes.seg'), '-logfn', join(dir, 'passes.log')],
          ],
          env,
        ),
        run(
          program,
          [
            ...input,
            ...['-allphone', join(model, 'en-us-phone.lm.bin'), '-allphone_ci', 'yes', '-lw', '2', '-compallsen', 'yes'],
            ...['-ctl', join(dir, 'loop.ctl'), '-hypseg', join(dir, 'loop.seg'), '-logfn', join(dir, 'loop.log')],
          ],
          env,
        ),
      ]);
      const passes = parseHypseg(await readFile(join(dir, 'passes.seg'), 'utf8'));
      const loop = parseHypseg(await readFile(join(dir, 'loop.seg'), 'utf8')).get('loop') ?? [];
      const heard = passes.get('grammar') ?? [];
      const free = (passes.get('free') ?? []).map((s) => s.word);
      const words = spokenWords(heard.map((s) => s.word));
      const read = readAnswer(words);
      const verdict = judge(heard, loop, free);
      return {
        text: words.join(' '),
        answer: read?.answer ?? null,
        code: read?.code ?? null,
        confidence: Math.round(verdict.confidence * 100) / 100,
        accepted: verdict.accepted && read !== null,
        why: read === null && verdict.accepted ? 'the words make no answer' : verdict.why,
        audioSeconds: recording.seconds,
        elapsedSeconds: Math.round(performance.now() - started) / 1000,
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
