/**
 * Whether this machine can speak and hear answers, as the voice engines themselves report it
 * (espeak-ng; pocketsphinx and its US English model), each with the line that installs what is missing.
 */
import type { DoctorCheck } from '../../shared/doctor.js';
import { resolveProgram } from '../process/resolve-program.js';
import { ESPEAK_PROGRAM, EspeakSynthesiser } from '../voice/espeak.js';
import { POCKETSPHINX_PROGRAM, PocketsphinxRecogniser } from '../voice/pocketsphinx.js';

/** The voice engines this machine has, as doctor checks (notes when missing: voice is optional). */
export function voiceChecks(env: NodeJS.ProcessEnv): DoctorCheck[] {
  const speak = new EspeakSynthesiser(env).status();
  const hear = new PocketsphinxRecogniser(env).status();
  const where = (program: string) => resolveProgram(program, env, '/') ?? program;
  return [
    speak.available
      ? { area: 'voice', name: 'espeak-ng', state: 'ok', detail: `${where(ESPEAK_PROGRAM)} reads approvals aloud`, fix: null }
      : {
          area: 'voice',
          name: 'espeak-ng',
          state: 'note',
          detail: `approvals cannot be read aloud: ${speak.why ?? ''}`,
          fix: 'sudo apt-get install espeak-ng',
        },
    hear.available
      ? { area: 'voice', name: 'pocketsphinx', state: 'ok', detail: `${where(POCKETSPHINX_PROGRAM)} hears spoken answers (${hear.engine})`, fix: null }
      : {
          area: 'voice',
          name: 'pocketsphinx',
          state: 'note',
          detail: `answers cannot be spoken: ${hear.why ?? ''}`,
          fix:
            resolveProgram(POCKETSPHINX_PROGRAM, env, '/') === null
              ? 'sudo apt-get install pocketsphinx pocketsphinx-en-us'
              : 'sudo apt-get install pocketsphinx-en-us',
        },
  ];
}
