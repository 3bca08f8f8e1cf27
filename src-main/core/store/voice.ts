/** The person's voice settings (off by default) and the channel each run request came through. */
import type { RunChannel } from '../../shared/runs.js';
import type { VoiceSettings } from '../../shared/voice.js';
import { normaliseShortcut, parseShortcut } from '../../shared/shortcut.js';
import { policyErrors } from '../../shared/error-messages/policy.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';

interface VoiceRow {
  enabled: number;
  run_shortcut: string;
  deny_shortcut: string;
}

/** The voice settings; off, with no hotkeys, until the person changes them. */
export function getVoiceSettings(db: StateDb): VoiceSettings {
  const row = prepared<[], VoiceRow>(db, 'SELECT enabled, run_shortcut, deny_shortcut FROM voice_settings WHERE id = 1').get();
  return { enabled: row?.enabled === 1, runShortcut: row?.run_shortcut ?? '', denyShortcut: row?.deny_shortcut ?? '' };
}

/** A hotkey as stored ('' for none); E617 for what is not an accelerator with a modifier. */
function storedShortcut(shortcut: string): string {
  if (shortcut.trim() === '') return '';
  const stored = normaliseShortcut(shortcut);
  if (stored !== null) return stored;
  const parsed = parseShortcut(shortcut);
  throw policyErrors.invalidShortcut(shortcut, 'error' in parsed ? parsed.error : null);
}

/** Changes the voice settings given and returns them all. */
export function setVoiceSettings(db: StateDb, change: Partial<VoiceSettings>): VoiceSettings {
  const next: VoiceSettings = {
    ...getVoiceSettings(db),
    ...(change.enabled === undefined ? {} : { enabled: change.enabled }),
    ...(change.runShortcut === undefined ? {} : { runShortcut: storedShortcut(change.runShortcut) }),
    ...(change.denyShortcut === undefined ? {} : { denyShortcut: storedShortcut(change.denyShortcut) }),
  };
  prepared(
    db,
    `INSERT INTO voice_settings (id, enabled, run_shortcut, deny_shortcut) VALUES (1, @enabled, @runShortcut, @denyShortcut)
     ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled, run_shortcut = excluded.run_shortcut, deny_shortcut = excluded.deny_shortcut`,
  ).run({ ...next, enabled: next.enabled ? 1 : 0 });
  return next;
}

/** Records where run `id`'s request came from. */
export function recordChannel(db: StateDb, id: string, channel: RunChannel): void {
  prepared(db, 'UPDATE runs SET channel = ? WHERE id = ?').run(channel, id);
}
