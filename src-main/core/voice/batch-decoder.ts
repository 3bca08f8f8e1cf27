/**
 * One `pocketsphinx_batch` process kept running, so its model is loaded before an answer arrives
 * (while the prompt is spoken), not after. It is fed through named pipes in a private folder: a
 * control line naming the recording (and, for a grammar pass, a line naming the grammar file) in,
 * one hypseg line per recording out. It decodes each recording on its own (batch CMN, no state
 * carried from one to the next), so a warm decoder hears a recording exactly as a fresh one does.
 * A decoder that stops, or takes too long, fails what it was asked and is never asked again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { voiceErrors } from '../../shared/error-messages/voice.js';

/** Longest a decoder may take over one answer (at most 10 s of audio, decoded at a small fraction of real time). */
export const DECODE_TIMEOUT_MS = 30_000;

/** The pipes one decoder takes, by the names `fifos` makes them under its folder. */
export function decoderPipes(name: string, grammar: boolean): string[] {
  return [`${name}.ctl`, `${name}.seg`, ...(grammar ? [`${name}.fsgctl`] : [])];
}

interface Waiter {
  resolve(line: string): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class BatchDecoder {
  private readonly child: ChildProcess;
  private readonly ctl: number;
  private readonly fsgctl: number | null;
  private readonly seg: Socket;
  private readonly waiting = new Map<string, Waiter>();
  private partial = '';
  private stderr = '';
  private failure: Error | null = null;
  /** Settles once the process has ended and been reaped. */
  private readonly ended: Promise<void>;

  /**
   * Starts `program` with `args` over the pipes `decoderPipes(name, grammar)` already made in `dir`
   * (mkfifo); with `grammar`, each utterance names its grammar file (`-fsgctl`).
   */
  constructor(
    private readonly program: string,
    dir: string,
    name: string,
    grammar: boolean,
    args: readonly string[],
    env: NodeJS.ProcessEnv,
  ) {
    // Opened read-write, a pipe never blocks on opening nor ends while the process reopens it; the process opens each its own way.
    this.ctl = openSync(join(dir, `${name}.ctl`), 'r+');
    this.fsgctl = grammar ? openSync(join(dir, `${name}.fsgctl`), 'r+') : null;
    this.seg = new Socket({ fd: openSync(join(dir, `${name}.seg`), 'r+'), readable: true, writable: false });
    const pipes = [
      '-ctl',
      join(dir, `${name}.ctl`),
      '-hypseg',
      join(dir, `${name}.seg`),
      ...(grammar ? ['-fsgctl', join(dir, `${name}.fsgctl`), '-fsgdir', dir, '-fsgext', '.fsg'] : []),
    ];
    this.child = spawn(program, [...args, ...pipes], { env, stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
    this.ended = new Promise((resolve) => {
      this.child.once('close', () => resolve());
      this.child.once('error', () => resolve());
    });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-4096);
    });
    this.seg.setEncoding('utf8');
    this.seg.on('data', (text: string) => this.read(text));
    this.seg.on('error', (error) => this.fail(voiceErrors.unavailable(`${program} could not be read (${error.message})`, { cause: error })));
    this.child.on('error', (error) => this.fail(voiceErrors.unavailable(`${program} failed (${error.message})`, { cause: error })));
    // 'close', not 'exit': by then all it said on stderr has been read.
    this.child.on('close', (code, signal) => this.fail(voiceErrors.unavailable(`${program} stopped (${signal ?? `exit code ${code}`})${this.lastWords()}`)));
    // Kept warm, it holds nothing open: a process that forgets to stop it still exits (and the decoder with it: its control pipe ends).
    this.child.unref();
    (this.child.stderr as Socket | null)?.unref();
    this.seg.unref();
  }

  /** Whether it can still be asked. */
  get alive(): boolean {
    return this.failure === null;
  }

  /** The hypseg line of the raw recording `file` in its folder, decoded as utterance `id` (under grammar file `fsg`, for a grammar pass). */
  decode(id: string, file: string, fsg?: string): Promise<string> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      // The only timer a hearing holds: it keeps the process alive until the decoder answers.
      const timer = setTimeout(
        () => this.fail(voiceErrors.unavailable(`${this.program} took over ${DECODE_TIMEOUT_MS / 1000} s${this.lastWords()}`)),
        DECODE_TIMEOUT_MS,
      );
      this.waiting.set(id, { resolve, reject, timer });
      try {
        if (this.fsgctl !== null) writeSync(this.fsgctl, `${fsg ?? ''}\n`);
        writeSync(this.ctl, `${file} 0 -1 ${id}\n`);
      } catch (error) {
        this.fail(voiceErrors.unavailable(`${this.program} could not be fed (${(error as Error).message})`, { cause: error }));
      }
    });
  }

  /** Stops the process, resolving once it is gone; anything still asked fails. */
  stop(): Promise<void> {
    // Held again while it ends: a caller awaiting the end must not see the event loop run dry first (Node exits 13 then).
    this.child.ref();
    (this.child.stderr as Socket | null)?.ref();
    this.fail(voiceErrors.unavailable(`${this.program} was stopped`));
    return this.ended;
  }

  private read(text: string): void {
    this.partial += text;
    for (let end = this.partial.indexOf('\n'); end >= 0; end = this.partial.indexOf('\n')) {
      const line = this.partial.slice(0, end);
      this.partial = this.partial.slice(end + 1);
      const id = line.trim().split(/\s+/)[0] ?? '';
      const waiter = this.waiting.get(id);
      if (waiter === undefined) continue;
      this.waiting.delete(id);
      clearTimeout(waiter.timer);
      waiter.resolve(line);
    }
  }

  /** The end of what it said on stderr, to say why it failed. */
  private lastWords(): string {
    const last = this.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300);
    return last === '' ? '' : `: ${last}`;
  }

  private fail(error: Error): void {
    if (this.failure !== null) return;
    this.failure = error;
    for (const waiter of this.waiting.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiting.clear();
    // It keeps nothing worth a graceful end.
    this.child.kill('SIGKILL');
    this.seg.destroy();
    closeSync(this.ctl);
    if (this.fsgctl !== null) closeSync(this.fsgctl);
  }
}
