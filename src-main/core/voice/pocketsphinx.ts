/**
 * The recogniser over Debian's pocketsphinx (`pocketsphinx_batch`, packages pocketsphinx and
 * pocketsphinx-en-us). Three decoders hear each recording at once, each a process kept warm
 * (batch-decoder.ts) from when a request starts waiting, fed the checked samples written to a
 * private temp folder (never the caller's file):
 * - one under the answer grammar (with or without codes, as the request needs);
 * - one under a free loop of the same words;
 * - one as a free loop of phones, the yardstick each answer word is measured against, reading the
 *   senone scores the free pass writes to a pipe as it scores them (it scores none itself).
 * Every senone is scored in every frame in all three (`-compallsen`), so their acoustic scores
 * share one scale and can be compared (judge.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SkilltrayError } from '../../shared/skilltray-error.js';
import { voiceErrors } from '../../shared/error-messages/voice.js';
import type { Hearing, VoiceEngine } from '../../shared/voice.js';
import { resolveProgram } from '../process/resolve-program.js';
import { answerFsg, dictionary, freeFsg, readAnswer, spokenWords, type AnswerGrammar } from './answer-grammar.js';
import { BatchDecoder, decoderPipes } from './batch-decoder.js';
import { judge, type Segment } from './judge.js';
import type { Recogniser } from './recogniser.js';
import type { Recording } from './wav.js';

/** The batch decoder of pocketsphinx 0.8 / 5prealpha, as Debian 12 ships it. */
export const POCKETSPHINX_PROGRAM = 'pocketsphinx_batch';

/** Where the US English model is installed (Debian's pocketsphinx-en-us first). */
export const MODEL_DIRS = ['/usr/share/pocketsphinx/model/en-us', '/usr/local/share/pocketsphinx/model/en-us'];

/** Files of the model this uses. */
const MODEL_FILES = ['en-us/mdef', 'en-us/means', 'en-us/sendump', 'en-us-phone.lm.bin'];

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

/** The flags of the two grammar passes: no fillers, every senone scored, wide beams. */
const FSG_PASS = ['-fsgusefiller', 'no', '-compallsen', 'yes', ...BEAMS];

/** The flags of the phone loop. */
const LOOP_PASS = ['-allphone_ci', 'yes', '-lw', '2', '-compallsen', 'yes'];

/** The grammar files a warm engine's folder holds, by the name an utterance gives its grammar pass. */
const GRAMMARS = { answer: answerFsg({ codeless: false }), codeless: answerFsg({ codeless: true }), free: freeFsg() };

/** Senone pipes made at a time, ahead of the utterances that use them. */
const SENONE_PIPES = 16;

/** The senone scores of a decoder's `n`th utterance (from 0), as pocketsphinx names them under `-senlogdir`. */
function senoneFile(n: number): string {
  return String(n).padStart(9, '0');
}

/** One warm engine: its private folder (model-free: words, grammars, pipes, recordings) and its three decoders. */
interface Engine {
  dir: string;
  grammar: BatchDecoder;
  free: BatchDecoder;
  loop: BatchDecoder;
  /** Recordings given so far: the nth is utterance `u<n>` and its senones go through pipe `senoneFile(n - 1)`. */
  heard: number;
  mkfifo: string;
  env: NodeJS.ProcessEnv;
  /** Senone pipes asked for, made, and the making of them. */
  piped: number;
  made: number;
  piping: Promise<void>;
}

/** Resolves once utterance `n`'s senone pipe exists, making the next ones before they are needed (many per mkfifo, off the answer's path). */
function senonePipe(engine: Engine, n: number): Promise<void> {
  if (n + SENONE_PIPES / 2 >= engine.piped) {
    const from = engine.piped;
    engine.piped += SENONE_PIPES;
    const paths = Array.from({ length: SENONE_PIPES }, (_, k) => join(engine.dir, 'senones', `${senoneFile(from + k)}.sen`));
    engine.piping = engine.piping.then(async () => {
      await makeFifos(engine.mkfifo, paths, engine.env);
      engine.made = from + SENONE_PIPES;
    });
  }
  return n < engine.made ? Promise.resolve() : engine.piping;
}

async function stopEngine(engine: Engine): Promise<void> {
  await Promise.all([engine.grammar, engine.free, engine.loop].map((decoder) => decoder.stop()));
  // Pipes still being made would land in the folder as it is removed.
  await engine.piping.catch(() => undefined);
  await rm(engine.dir, { recursive: true, force: true, maxRetries: 3 });
}

function makeFifos(program: string, paths: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(program, ['-m', '600', ...paths], { env, windowsHide: true }, (error, _stdout, stderr) =>
      error === null ? resolve() : reject(voiceErrors.unavailable(`mkfifo failed: ${String(stderr).trim() || error.message}`, { cause: error })),
    );
  });
}

/** E634 for whatever kept a recording from being heard. */
function unavailable(error: unknown): SkilltrayError {
  return error instanceof SkilltrayError
    ? error
    : voiceErrors.unavailable(`${POCKETSPHINX_PROGRAM} could not be given the recording (${String(error)})`, { cause: error });
}

/** Hears answers with pocketsphinx_batch and the en-us model, its decoders kept warm between warm() and cool(). */
export class PocketsphinxRecogniser implements Recogniser {
  private engine: Promise<Engine> | null = null;

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
    if (resolveProgram('mkfifo', this.env, '/') === null) return { available: false, engine, why: 'mkfifo is not on PATH (coreutils)' };
    return { available: true, engine, why: null };
  }

  warm(): void {
    this.ready().catch(() => undefined);
  }

  async cool(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    const started = await engine?.catch(() => null);
    if (started) await stopEngine(started);
  }

  /** The warm engine, started now if there is none (or the last one failed). */
  private ready(): Promise<Engine> {
    if (this.engine === null) {
      const starting = this.start();
      this.engine = starting;
      starting.catch(() => {
        if (this.engine === starting) this.engine = null;
      });
    }
    return this.engine;
  }

  /** The warm engine, or a fresh one when one of its decoders has stopped since it last heard. */
  private async live(): Promise<Engine> {
    const engine = await this.ready();
    if ([engine.grammar, engine.free, engine.loop].every((decoder) => decoder.alive)) return engine;
    await this.drop(engine);
    return this.ready();
  }

  /** Forgets and stops `engine` once it has failed: the next hearing starts another. */
  private async drop(engine: Engine): Promise<void> {
    if ((await this.engine?.catch(() => null)) === engine) this.engine = null;
    await stopEngine(engine);
  }

  /** Starts the three decoders; each loads the model while nothing waits on it yet. */
  private async start(): Promise<Engine> {
    const program = this.program();
    const model = this.model();
    const mkfifo = resolveProgram('mkfifo', this.env, '/');
    if (program === null || model === null || mkfifo === null) throw voiceErrors.unavailable(this.status().why ?? 'pocketsphinx cannot run');
    const dir = await mkdtemp(join(tmpdir(), 'skilltray-voice-'));
    try {
      const env = { PATH: this.env.PATH ?? '/usr/bin:/bin', LANG: 'C' };
      await Promise.all([
        mkdir(join(dir, 'senones')),
        writeFile(join(dir, 'words.dict'), dictionary()),
        ...Object.entries(GRAMMARS).map(([name, text]) => writeFile(join(dir, `${name}.fsg`), text)),
        makeFifos(
          mkfifo,
          [...decoderPipes('grammar', true), ...decoderPipes('free', true), ...decoderPipes('loop', false)].map((pipe) => join(dir, pipe)),
          env,
        ),
      ]);
      const input = ['-hmm', join(model, 'en-us'), '-dict', join(dir, 'words.dict'), '-adcin', 'yes', '-adchdr', '0', '-cepext', '.raw', '-cepdir', dir];
      const senones = join(dir, 'senones');
      // A grammar pass starts on a grammar, so it never loads the model's 26 MB language model; each utterance then names its own grammar.
      // The phone loop scores no senone itself: it reads the free pass's (every senone, every frame) through a pipe, frame by frame as they are scored.
      const engine: Engine = {
        dir,
        grammar: new BatchDecoder(program, dir, 'grammar', true, [...input, '-fsg', join(dir, 'answer.fsg'), ...FSG_PASS], env),
        free: new BatchDecoder(program, dir, 'free', true, [...input, '-fsg', join(dir, 'free.fsg'), ...FSG_PASS, '-senlogdir', senones], env),
        loop: new BatchDecoder(
          program,
          dir,
          'loop',
          false,
          [
            '-hmm',
            join(model, 'en-us'),
            '-dict',
            join(dir, 'words.dict'),
            '-senin',
            'yes',
            '-cepext',
            '.sen',
            '-cepdir',
            senones,
            '-allphone',
            join(model, 'en-us-phone.lm.bin'),
            ...LOOP_PASS,
          ],
          env,
        ),
        heard: 0,
        mkfifo,
        env,
        piped: 0,
        made: 0,
        piping: Promise.resolve(),
      };
      senonePipe(engine, 0).catch(() => undefined);
      return engine;
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  async hear(recording: Recording, grammar: AnswerGrammar): Promise<Hearing> {
    const started = performance.now();
    const warm = this.engine !== null;
    try {
      return await this.decode(recording, grammar, started);
    } catch (error) {
      // A decoder kept warm may have stopped while it waited (killed, its folder cleaned away): a fresh engine hears it once more.
      if (!warm) throw error;
      return this.decode(recording, grammar, started);
    }
  }

  /** One hearing by the warm engine (dropped if it fails); `started` is when the hearing was asked for. */
  private async decode(recording: Recording, grammar: AnswerGrammar, started: number): Promise<Hearing> {
    const engine = await this.live().catch((error: unknown) => Promise.reject(unavailable(error)));
    const n = engine.heard++;
    const id = `u${n + 1}`;
    const raw = join(engine.dir, `${id}.raw`);
    try {
      await Promise.all([
        writeFile(raw, Buffer.from(recording.samples.buffer, recording.samples.byteOffset, recording.samples.byteLength)),
        senonePipe(engine, n),
      ]);
      const [heardLine, freeLine, loopLine] = await Promise.all([
        engine.grammar.decode(id, id, grammar.codeless ? 'codeless' : 'answer'),
        engine.free.decode(id, id, 'free'),
        engine.loop.decode(id, senoneFile(n)),
      ]);
      const heard = parseHypseg(heardLine).get(id) ?? [];
      const free = (parseHypseg(freeLine).get(id) ?? []).map((s) => s.word);
      const loop = parseHypseg(loopLine).get(id) ?? [];
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
    } catch (error) {
      await this.drop(engine);
      throw unavailable(error);
    } finally {
      await Promise.all([rm(raw, { force: true }), rm(join(engine.dir, 'senones', `${senoneFile(n)}.sen`), { force: true })]);
    }
  }
}
