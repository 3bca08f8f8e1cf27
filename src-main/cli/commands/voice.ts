/**
 * `voice`: whether this computer can hear spoken answers and speak prompts; `voice hear <file.wav>`,
 * what the recogniser hears in a recording under the answer grammar (for diagnosis: it answers
 * nothing); `voice say "<text>"`, spoken here or written to a WAV the recogniser could hear.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { wavBytes } from '../../shared/pcm.js';
import type { Hearing, VoiceEngine } from '../../shared/voice.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';

/** One engine as a line: `recogniser  pocketsphinx (en-us): available`. */
function engineLine(role: string, engine: VoiceEngine): string {
  return `${role.padEnd(12)}${engine.engine}: ${engine.available ? 'available' : `unavailable: ${engine.why ?? ''}`}\n`;
}

/** What was heard, as a person reads it. */
function hearingText(h: Hearing): string {
  const words = h.text === '' ? '(nothing)' : h.text;
  const code = h.code === null ? '' : ` (code ${h.code})`;
  const verdict = h.accepted ? 'accepted' : `not accepted: ${h.why ?? 'no answer'}`;
  return `heard: ${words}${code}\nconfidence: ${h.confidence.toFixed(2)}\n${verdict}\n(${h.audioSeconds.toFixed(2)} s of audio, heard in ${h.elapsedSeconds.toFixed(2)} s)\n`;
}

export const voiceCommand: Command = {
  name: 'voice',
  summary: 'voice on this computer: what can hear and speak, what a recording says (hear), or say a text (say)',
  synopsis: 'voice [status | hear <file.wav> | say <text> [--wav-out FILE]]',
  positionals: [
    { name: 'status|hear|say', required: false },
    { name: 'file-or-text', required: false },
  ],
  options: {
    ...JSON_OPTION,
    'wav-out': { type: 'string', value: '<file>', description: 'say: write the speech to this WAV (16 kHz mono) instead of playing it' },
    voice: { type: 'string', value: '<name>', description: "say --wav-out: the synthesiser's voice (espeak-ng: en-us, en-gb+f3, …)" },
  },
  notes: ['hear has no authority: it answers no approval. To answer one aloud, turn voice on in the app (Settings › Voice).'],
  examples: [
    ['voice', 'whether answers can be heard and prompts spoken here'],
    ['voice hear answer.wav', "what the recogniser hears in answer.wav ('run four one three', 'deny', …), with its confidence"],
    ['voice say "run four one three" --wav-out answer.wav', 'the words as a recording voice hear can read'],
  ],
  async run(ctx, args) {
    const [action = 'status', subject, ...extra] = args.positionals;
    if (extra.length > 0) throw skillcErrors.usage('voice takes one file or one text (quote a text with spaces)');
    const core = await ctx.core();
    if (action === 'status') {
      if (subject !== undefined) throw skillcErrors.usage('voice status takes nothing more');
      const status = core.voice.status();
      if (args.options.json) printJson(ctx, status);
      else ctx.io.out(engineLine('recogniser', status.recogniser) + engineLine('synthesiser', status.synthesiser));
      return status.recogniser.available && status.synthesiser.available ? 0 : 1;
    }
    if (subject === undefined) throw skillcErrors.usage(`voice ${action} expects ${action === 'hear' ? '<file.wav>' : '<text>'}`);
    if (action === 'hear') {
      let wav: Buffer;
      try {
        wav = readFileSync(resolve(ctx.cwd, subject));
      } catch (error) {
        throw skillcErrors.invalidOption(`cannot read '${subject}': ${(error as Error).message}`);
      }
      const hearing = await core.voice.hear(wav);
      if (args.options.json) printJson(ctx, hearing);
      else ctx.io.out(hearingText(hearing));
      return 0;
    }
    if (action === 'say') {
      const out = args.options['wav-out'] as string | undefined;
      const voice = args.options.voice as string | undefined;
      if (out === undefined) {
        if (voice !== undefined) throw skillcErrors.usage('--voice goes with --wav-out');
        await core.voice.say(subject);
      } else writeFileSync(resolve(ctx.cwd, out), wavBytes(await core.voice.render(subject, voice)));
      if (args.options.json) printJson(ctx, { said: subject, ...(out === undefined ? {} : { wav: resolve(ctx.cwd, out) }) });
      return 0;
    }
    throw skillcErrors.usage(`voice takes status, hear <file.wav> or say <text>, not '${action}'`);
  },
};
