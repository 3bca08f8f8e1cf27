/** What hears a spoken answer: an engine on this computer (never a cloud service), behind one interface. */
import type { Hearing, VoiceEngine } from '../../shared/voice.js';
import type { AnswerGrammar } from './answer-grammar.js';
import type { Recording } from './wav.js';

export interface Recogniser {
  /** Whether it can hear on this machine, and what it is. */
  status(): VoiceEngine;
  /** What the recording says under `grammar`, judged; E634 when the engine is missing or fails. */
  hear(recording: Recording, grammar: AnswerGrammar): Promise<Hearing>;
  /** Gets ready to hear (an engine that loads a model loads it now), when a prompt is about to be spoken; hear() works without it. */
  warm?(): void;
  /** Lets go of what warm() (or a hearing) holds: processes, memory. */
  cool?(): Promise<void>;
}

/** What speaks a prompt or an outcome aloud. */
export interface Synthesiser {
  status(): VoiceEngine;
  /** Says `text` on this computer's speakers; resolves once it has been said. E634 when it cannot. */
  say(text: string): Promise<void>;
  /** `text` spoken, as 16 kHz mono 16-bit samples (a recording the recogniser could hear); `voice` picks one of the engine's voices. */
  render(text: string, voice?: string): Promise<Int16Array>;
}
