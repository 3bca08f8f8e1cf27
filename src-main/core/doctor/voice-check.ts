/**
 * Whether this machine can speak and hear answers: espeak-ng, pocketsphinx and its US English model,
 * looked for as the voice engines look for them. One small function, to be replaced by the voice
 * engines' own status once they live in core/voice.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DoctorCheck } from '../../shared/doctor.js';
import { resolveProgram } from '../process/resolve-program.js';

/** Where Debian's pocketsphinx-en-us (or a local build) installs the model. */
const MODEL_DIRS = ['/usr/share/pocketsphinx/model/en-us', '/usr/local/share/pocketsphinx/model/en-us'];

/** The voice engines this machine has, as doctor checks (notes when missing: voice is optional). */
export function voiceChecks(env: NodeJS.ProcessEnv): DoctorCheck[] {
  const found = (program: string) => resolveProgram(program, env, '/');
  const speak = found('espeak-ng');
  const hear = found('pocketsphinx_batch');
  const model = MODEL_DIRS.find((dir) => existsSync(join(dir, 'en-us', 'mdef')));
  return [
    speak === null
      ? {
          area: 'voice',
          name: 'espeak-ng',
          state: 'note',
          detail: 'espeak-ng is not installed, so approvals cannot be read aloud',
          fix: 'sudo apt-get install espeak-ng',
        }
      : { area: 'voice', name: 'espeak-ng', state: 'ok', detail: `${speak} reads approvals aloud`, fix: null },
    hear === null || model === undefined
      ? {
          area: 'voice',
          name: 'pocketsphinx',
          state: 'note',
          detail:
            hear === null
              ? 'pocketsphinx is not installed, so answers cannot be spoken'
              : `no US English model in ${MODEL_DIRS.join(' or ')}, so answers cannot be spoken`,
          fix: hear === null ? 'sudo apt-get install pocketsphinx pocketsphinx-en-us' : 'sudo apt-get install pocketsphinx-en-us',
        }
      : { area: 'voice', name: 'pocketsphinx', state: 'ok', detail: `${hear} hears spoken answers with the model in ${model}`, fix: null },
  ];
}
