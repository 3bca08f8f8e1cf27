/**
 * Voice for the process that owns runs: what this machine can hear and say, the person's voice
 * settings, a spoken answer to one pending request (bound to it by its code), and the hotkeys that
 * answer the newest request. Every answer goes through the broker as any other answer does; what
 * was heard is told only to the caller, a person's surface (operations.ts keeps assistants out).
 */
import type { ServerEvent } from '../../shared/contract.js';
import { policyErrors } from '../../shared/error-messages/policy.js';
import { voiceErrors } from '../../shared/error-messages/voice.js';
import type { PendingEntry } from '../../shared/runs.js';
import {
  HOTKEY_CONFIRM_MS,
  NOT_CAUGHT,
  codeWords,
  isWriting,
  needsCode,
  type Hearing,
  type HotkeyAnswer,
  type VoiceAnswer,
  type VoiceSettings,
  type VoiceStatus,
} from '../../shared/voice.js';
import type { ApprovalBroker } from '../policy/approval-broker.js';
import type { StateDb } from '../store/state-db.js';
import { getVoiceSettings, setVoiceSettings } from '../store/voice.js';
import type { Recogniser, Synthesiser } from './recogniser.js';
import { readRecording, wavFromBase64 } from './wav.js';

export interface VoiceDeskDeps {
  db(): StateDb;
  broker: ApprovalBroker;
  recogniser: Recogniser;
  synthesiser: Synthesiser;
  emit(event: ServerEvent): void;
  now?: () => number;
}

/** What to say to ask again: the prompt's last sentence ("Say 'run four one three', or 'deny'."). */
function askAgain(entry: PendingEntry): string {
  return needsCode(entry) ? `Say 'run ${codeWords(entry.code ?? '')}', or 'deny'.` : `Say 'run', or 'deny'.`;
}

/** The command as the hotkey's confirmation names it. */
function named(entry: PendingEntry): string {
  return `${entry.skill}/${entry.tool}`;
}

/** How long the recogniser stays warm after the last request stopped waiting (or the last diagnosis): the next request of a burst finds it ready. */
export const WARM_LINGER_MS = 60_000;

export class VoiceDesk {
  /** The Run hotkey's first press on a writing tool, waiting for its second. */
  private armed: { id: string; at: number } | null = null;
  /** When the recogniser cools, once nothing waits. */
  private cooling: NodeJS.Timeout | null = null;

  constructor(private readonly deps: VoiceDeskDeps) {
    // Warmed as a request starts waiting, while its prompt is spoken, so the answer is heard by a loaded model.
    deps.broker.on('added', () => {
      if (deps.recogniser.warm !== undefined && this.settings().enabled) this.warm();
    });
    deps.broker.on('resolved', () => this.lingerIfIdle());
  }

  private warm(): void {
    if (this.cooling !== null) clearTimeout(this.cooling);
    this.cooling = null;
    this.deps.recogniser.warm?.();
  }

  /** Cools the recogniser WARM_LINGER_MS from now unless a request is waiting by then (or comes before). */
  private lingerIfIdle(): void {
    if (this.deps.broker.list().length > 0 || this.deps.recogniser.cool === undefined) return;
    if (this.cooling !== null) clearTimeout(this.cooling);
    this.cooling = setTimeout(() => {
      this.cooling = null;
      if (this.deps.broker.list().length === 0) this.cool();
    }, WARM_LINGER_MS);
    this.cooling.unref();
  }

  /** Lets the recogniser go in the background; what it could not let go of is said, never thrown at whoever turned voice off. */
  private cool(): void {
    this.close().catch((error: unknown) =>
      process.emitWarning(`the recogniser could not be stopped: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /** Lets the recogniser go now (voice turned off, the core closing). */
  async close(): Promise<void> {
    if (this.cooling !== null) clearTimeout(this.cooling);
    this.cooling = null;
    await this.deps.recogniser.cool?.();
  }

  /** Whether answers can be heard and prompts spoken here, and why not (what the `doctor` command reports). */
  status(): VoiceStatus {
    return { recogniser: this.deps.recogniser.status(), synthesiser: this.deps.synthesiser.status() };
  }

  settings(): VoiceSettings {
    return getVoiceSettings(this.deps.db());
  }

  /** Turns voice on or off and sets the hotkeys (E617 for one that is not an accelerator); told on the event stream. */
  setSettings(change: Partial<VoiceSettings>): VoiceSettings {
    const settings = setVoiceSettings(this.deps.db(), change);
    if (!settings.enabled) this.cool();
    else if (this.deps.broker.list().length > 0) this.warm();
    this.deps.emit({ type: 'voice', settings });
    return settings;
  }

  /** What the recogniser hears in a WAV under the whole answer grammar (codes optional), with its confidence: for diagnosis, no authority. */
  async hear(wav: Buffer): Promise<Hearing> {
    try {
      return await this.deps.recogniser.hear(readRecording(wav), { codeless: true });
    } finally {
      this.lingerIfIdle();
    }
  }

  /** Says `text` aloud with the synthesiser here (the app's fallback when its window has no voices). */
  say(text: string): Promise<void> {
    return this.deps.synthesiser.say(text);
  }

  /** `text` spoken as a 16 kHz mono recording. */
  render(text: string, voice?: string): Promise<Int16Array> {
    return this.deps.synthesiser.render(text, voice);
  }

  private pending(id: string): PendingEntry {
    const entry = this.deps.broker.list().find((e) => e.id === id);
    if (entry === undefined) throw policyErrors.approvalNotFound(id);
    return entry;
  }

  /**
   * Answers pending request `id` with a recording (base64 WAV, 16 kHz mono): E636 while voice is off,
   * E611 for no such request, E63x for bad audio or no recogniser. A yes counts only when heard with
   * confidence and, where the request needs it, with its own code; anything else does nothing.
   */
  async answer(id: string, wav: string, actor: string): Promise<VoiceAnswer> {
    if (!this.settings().enabled) throw voiceErrors.voiceOff();
    const entry = this.pending(id);
    const recording = readRecording(wavFromBase64(wav));
    const hearing = await this.deps.recogniser.hear(recording, { codeless: !needsCode(entry) });
    const nothing = (outcome: 'not-understood' | 'wrong-code', say = `${NOT_CAUGHT} ${askAgain(entry)}`): VoiceAnswer => ({ outcome, hearing, say });
    if (!hearing.accepted || hearing.answer === null) return nothing('not-understood');
    if (hearing.answer === 'cancel') return { outcome: 'cancel', hearing, say: 'Stopped listening. The request is still waiting.' };
    if (hearing.answer === 'deny') {
      this.deps.broker.resolve(id, 'deny', actor);
      return { outcome: 'deny', hearing, say: `Denied ${named(entry)}.` };
    }
    // A code said is always checked, needed or not: a wrong one never counts.
    if (hearing.code !== null ? hearing.code !== entry.code : needsCode(entry)) return nothing('wrong-code');
    if (hearing.answer === 'always') {
      if (entry.rememberScopes.length === 0) return nothing('not-understood', `Always is not offered for this request. ${askAgain(entry)}`);
      this.deps.broker.resolve(id, 'always', actor);
      return { outcome: 'always', hearing, say: `Always allowed in this folder. Running ${named(entry)}.` };
    }
    this.deps.broker.resolve(id, 'once', actor);
    return { outcome: 'once', hearing, say: `Running ${named(entry)}.` };
  }

  /**
   * A hotkey press on the newest pending request: Deny denies it; Run runs a read-only one at once,
   * and a writing one only on a second press within HOTKEY_CONFIRM_MS.
   */
  hotkey(verdict: 'run' | 'deny', actor: string): HotkeyAnswer {
    const newest = this.deps.broker.list().reduce<PendingEntry | undefined>((a, e) => (a === undefined || e.requestedAt >= a.requestedAt ? e : a), undefined);
    if (newest === undefined) return { outcome: 'nothing', id: null, say: 'Nothing is waiting for your approval.' };
    if (verdict === 'deny') {
      this.armed = null;
      this.deps.broker.resolve(newest.id, 'deny', actor);
      return { outcome: 'answered', id: newest.id, say: `Denied ${named(newest)}.` };
    }
    const now = (this.deps.now ?? Date.now)();
    const confirmed = this.armed !== null && this.armed.id === newest.id && now - this.armed.at <= HOTKEY_CONFIRM_MS;
    if (isWriting(newest.sandbox) && !confirmed) {
      this.armed = { id: newest.id, at: now };
      return { outcome: 'confirm', id: newest.id, say: `${named(newest)} may change files: press again within two seconds to run it.` };
    }
    this.armed = null;
    this.deps.broker.resolve(newest.id, 'once', actor);
    return { outcome: 'answered', id: newest.id, say: `Running ${named(newest)}.` };
  }
}
