/**
 * The synthesiser over espeak-ng (Debian package espeak-ng): says a prompt on this computer's
 * speakers, or renders it as 16 kHz mono samples. The text goes in on stdin, never as an argument,
 * so no text can be read as an option.
 */
import { execFile } from 'node:child_process';
import { voiceErrors } from '../../shared/error-messages/voice.js';
import { resampleTo16k, toPcm16 } from '../../shared/pcm.js';
import type { VoiceEngine } from '../../shared/voice.js';
import { resolveProgram } from '../process/resolve-program.js';
import type { Synthesiser } from './recogniser.js';
import { readPcmWav } from './wav.js';

export const ESPEAK_PROGRAM = 'espeak-ng';

/** Longest a prompt may take to say or render. */
const SPEAK_TIMEOUT_MS = 60_000;

/** A voice name as espeak-ng takes it (`en-us`, `en-gb+f3`): letters, digits, `-`, `+` and `_` only. */
const VOICE = /^[A-Za-z0-9][A-Za-z0-9+_-]{0,40}$/;

export class EspeakSynthesiser implements Synthesiser {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private program(): string | null {
    return resolveProgram(ESPEAK_PROGRAM, this.env, '/');
  }

  status(): VoiceEngine {
    return this.program() === null
      ? { available: false, engine: 'espeak-ng', why: 'espeak-ng is not on PATH (Debian/Ubuntu: apt-get install espeak-ng)' }
      : { available: true, engine: 'espeak-ng', why: null };
  }

  private speak(text: string, args: string[]): Promise<Buffer> {
    const program = this.program();
    if (program === null) return Promise.reject(voiceErrors.unavailable(this.status().why ?? 'espeak-ng cannot run'));
    return new Promise((resolve, reject) => {
      const child = execFile(
        program,
        args,
        { env: { PATH: this.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' }, encoding: 'buffer', timeout: SPEAK_TIMEOUT_MS, maxBuffer: 64 << 20 },
        (error, stdout) =>
          error === null ? resolve(stdout) : reject(voiceErrors.unavailable(`espeak-ng failed: ${error.message.split('\n')[0]}`, { cause: error })),
      );
      child.stdin?.end(text);
    });
  }

  async say(text: string): Promise<void> {
    await this.speak(text, []);
  }

  async render(text: string, voice = 'en-us'): Promise<Int16Array> {
    if (!VOICE.test(voice)) throw voiceErrors.unavailable(`'${voice}' is not a voice name espeak-ng knows`);
    const { rate, samples } = readPcmWav(await this.speak(text, ['-v', voice, '--stdout']));
    return toPcm16(resampleTo16k(samples, rate));
  }
}
