/**
 * Voice as every surface sees it: the approval code a person says back, the answer grammar's words,
 * the spoken prompt built from the same facts as the approval card, and what hearing an answer
 * returns. See docs/voice.md.
 */
import { ASKER, programName, shownArguments } from './approval-text.js';
import type { PendingApproval, RunChannel, SandboxView, Surface } from './runs.js';

/**
 * The digits a code is made of, and how each is said. Measured with Debian's pocketsphinx and
 * espeak-ng voices: six, seven, eight and nine were taken for one another (nine for one, eight for
 * nine) far more often than these five, so codes use only these.
 */
export const CODE_DIGITS: Readonly<Record<string, string>> = { '1': 'one', '2': 'two', '3': 'three', '4': 'four', '5': 'five' };

/** Digits in a code: 5 × 4 × 4 = 80 codes, none with a digit twice in a row (a repeated word is the one a recogniser merges). */
export const CODE_LENGTH = 3;

/** Every code there is, in order. */
export function allCodes(): string[] {
  const digits = Object.keys(CODE_DIGITS);
  const codes: string[] = [''];
  for (let i = 0; i < CODE_LENGTH; i++) {
    const next: string[] = [];
    for (const code of codes) for (const d of digits) if (code.at(-1) !== d) next.push(code + d);
    codes.splice(0, codes.length, ...next);
  }
  return codes;
}

/** Whether `text` is a code: CODE_LENGTH digits from CODE_DIGITS, no digit twice in a row. */
export function isCode(text: string): boolean {
  return text.length === CODE_LENGTH && [...text].every((d, i) => CODE_DIGITS[d] !== undefined && d !== text[i - 1]);
}

/** A code as it is said: `413` → `four one three`. */
export function codeWords(code: string): string {
  return [...code].map((d) => CODE_DIGITS[d] ?? d).join(' ');
}

/** A code as the card and the tray show it: `4 1 3`. */
export function codeShown(code: string): string {
  return [...code].join(' ');
}

/** What the person may say: run or always (with the code), deny, or cancel (stop listening; the request keeps waiting). */
export type SpokenAnswer = 'run' | 'always' | 'deny' | 'cancel';

export const SPOKEN_ANSWERS: readonly SpokenAnswer[] = ['run', 'always', 'deny', 'cancel'];

/** True when running this could change something: not a contained read-only run. */
export function isWriting(sandbox: Pick<SandboxView, 'contained' | 'name'>): boolean {
  return !(sandbox.contained && sandbox.name === 'read-only');
}

/** Whether a spoken yes to this request must carry its code: a writing tool, or a run an assistant asked for from a voice turn. */
export function needsCode(p: Pick<PendingApproval, 'sandbox'> & { channel?: RunChannel | undefined }): boolean {
  return isWriting(p.sandbox) || p.channel === 'voice';
}

/** The most characters a spoken prompt has. */
export const SPEECH_MAX = 199;

/** A word as it is read aloud: only letters, digits and a few joiners, so a synthesiser says it rather than spelling symbols. */
function sayable(text: string): string {
  return text
    .replace(/[^\p{L}\p{N}._ -]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The command in a few words: the program, then up to three arguments that are not options (a path by its last part). */
function spokenCommand(p: Pick<PendingApproval, 'programPath' | 'argv' | 'supplied'>, maxArgs: number): string {
  const args = shownArguments(p.argv, p.supplied)
    .filter((a) => !a.hardening && !a.text.startsWith('-') && a.text !== '.' && a.text.trim() !== '')
    .map((a) => sayable(programName(a.text)))
    .filter((a) => a !== '')
    .slice(0, maxArgs);
  return [sayable(programName(p.programPath)), ...args].join(' ');
}

/** The folder as said: its last part, or "your home folder". */
function spokenFolder(cwd: string, home?: string): string {
  const trimmed = home?.replace(/[/\\]+$/, '');
  if (trimmed !== undefined && trimmed !== '' && cwd.replace(/[/\\]+$/, '') === trimmed) return 'your home folder';
  return sayable(programName(cwd.replace(/[/\\]+$/, ''))) || 'the root folder';
}

/** What the run may do, in a few spoken words. */
function spokenEffect(sandbox: SandboxView): string {
  const files = !sandbox.contained ? 'it is not contained' : sandbox.name === 'read-only' ? 'it only reads' : 'it writes in that folder';
  return sandbox.network ? `${files}, and uses the network` : files;
}

/**
 * The spoken prompt: "An MCP client asks to run git commit in app: it writes in that folder. Say
 * 'run four one three', or 'deny'." Under 200 characters, from the same facts as the card.
 */
export function spokenPrompt(
  p: Pick<PendingApproval, 'surface' | 'programPath' | 'argv' | 'supplied' | 'cwd' | 'sandbox'> & { channel?: RunChannel | undefined },
  code: string,
  home?: string,
): string {
  const answer = needsCode(p) ? `Say 'run ${codeWords(code)}', or 'deny'.` : `Say 'run', or 'deny'.`;
  for (const maxArgs of [3, 2, 1, 0]) {
    const text = `${ASKER[p.surface]} asks to run ${spokenCommand(p, maxArgs)} in ${spokenFolder(p.cwd, home)}: ${spokenEffect(p.sandbox)}. ${answer}`;
    if (text.length <= SPEECH_MAX) return text;
  }
  return `${ASKER[p.surface]} asks to run ${sayable(programName(p.programPath)).slice(0, 60)}. ${answer}`;
}

/** What the app says when a spoken answer did nothing. */
export const NOT_CAUGHT = "I didn't catch that.";

/** What the recogniser made of a recording under the answer grammar. */
export interface Hearing {
  /** The words it matched, e.g. `run four one three`; '' when nothing matched. */
  text: string;
  /** The answer those words make, when they make one. */
  answer: SpokenAnswer | null;
  /** The code said with it (`413`), or null. */
  code: string | null;
  /** 0–1: how well the worst-matching word of the answer fits against free speech (see docs/voice.md). */
  confidence: number;
  /** Whether it counts as said: confident enough, nothing else said around it, and a second, looser pass heard the same. */
  accepted: boolean;
  /** Why it does not count, when it does not. */
  why: string | null;
  /** Seconds of audio, and seconds the recogniser took. */
  audioSeconds: number;
  elapsedSeconds: number;
}

/** What a spoken answer did: answered the request (once, always or deny), stopped listening (cancel), or nothing. */
export type VoiceOutcome = 'once' | 'always' | 'deny' | 'cancel' | 'not-understood' | 'wrong-code';

export interface VoiceAnswer {
  outcome: VoiceOutcome;
  /** The recogniser's reading, for the person (never an assistant) to see. */
  hearing: Hearing;
  /** What the app says back aloud: the outcome, or "I didn't catch that." and the prompt again. */
  say: string;
}

/** A synthesiser's or recogniser's state on this machine. */
export interface VoiceEngine {
  available: boolean;
  /** What it is: `pocketsphinx (Debian, en-us)`, `espeak-ng`. */
  engine: string;
  /** Why it cannot be used, with what to install; null when it can. */
  why: string | null;
}

/** Voice on this machine: whether answers can be heard and prompts spoken (the `doctor` check reads this). */
export interface VoiceStatus {
  recogniser: VoiceEngine;
  synthesiser: VoiceEngine;
}

/** What the person set for voice: prompts spoken and answers heard, and the hotkeys that answer the newest request. */
export interface VoiceSettings {
  enabled: boolean;
  /** Accelerators for Run and Deny on the newest request ('' for none); global in the desktop app, in-window in a browser. */
  runShortcut: string;
  denyShortcut: string;
}

/** How long a second press of the Run hotkey may come after the first to run a writing tool. */
export const HOTKEY_CONFIRM_MS = 2000;

/** What a hotkey press did: answered the newest request, asked for a second press, or found nothing waiting. */
export interface HotkeyAnswer {
  outcome: 'answered' | 'confirm' | 'nothing';
  /** The request it acted on. */
  id: string | null;
  /** What the app says (and shows). */
  say: string;
}

/** The channel of a request that came through `surface`: the person's own surfaces are a keyboard; an assistant's request is `voice` when it says so. */
export function requestChannel(surface: Surface, stated?: 'voice'): RunChannel {
  if (stated === 'voice') return 'voice';
  return surface === 'mcp' || surface === 'http' ? 'assistant' : 'keyboard';
}
