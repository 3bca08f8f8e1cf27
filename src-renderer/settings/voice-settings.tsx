/**
 * Settings › Voice: spoken prompts and answers (off until turned on), what this computer can hear
 * and say, and the hotkeys that answer the newest request (global in the desktop app, in this tab
 * in a browser).
 */
import { useId, useState } from 'react';
import type { VoiceEngine, VoiceSettings } from '../../src-main/shared/voice.js';
import { isMac } from '../app/platform.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient, useConnection } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { useVoice } from '../voice/use-voice.js';
import { useShortcutDraft } from './use-shortcut-draft.js';

function Engine({ role, engine }: { role: string; engine: VoiceEngine }) {
  return (
    <li>
      <span className={`badge ${engine.available ? 'badge-ok' : 'badge-warn'}`}>{engine.available ? 'available' : 'unavailable'}</span> {role}: {engine.engine}
      {engine.why === null ? null : <span className="muted"> — {engine.why}</span>}
    </li>
  );
}

/** One hotkey, recorded from a key press and saved on Enter or Save; '' turns it off. */
function HotkeyField({ label, value, onSave, mac }: { label: string; value: string; onSave: (shortcut: string) => void; mac: boolean }) {
  const id = useId();
  const { draft, setDraft, record, text } = useShortcutDraft(value, mac);
  return (
    <div className="shortcut-row">
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input id={id} type="text" className="shortcut-input" readOnly value={text} onKeyDown={record} />
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button button-primary"
          disabled={draft === null || draft === value}
          onClick={() => {
            if (draft !== null) onSave(draft);
            setDraft(null);
          }}
        >
          Save
        </button>
        <button type="button" className="button button-quiet" disabled={value === '' && draft === null} onClick={() => (setDraft(null), onSave(''))}>
          Turn off
        </button>
      </div>
    </div>
  );
}

export function VoiceSettingsSection() {
  const client = useClient();
  const announce = useAnnounce();
  const { platform, kind } = useConnection();
  const mac = isMac(platform);
  const { settings, status, error: loadError, set } = useVoice();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const change = (input: { enabled?: boolean; run_shortcut?: string; deny_shortcut?: string }, said: (next: VoiceSettings) => string): void => {
    setBusy(true);
    setError(null);
    client.setVoice(input).then(
      (next) => {
        setBusy(false);
        set(next);
        announce(said(next));
      },
      (e: Error) => {
        setBusy(false);
        setError(e);
      },
    );
  };

  if (loadError) return <ErrorNote error={loadError} title="Voice settings could not be loaded" />;
  if (settings === undefined) return <p className="muted">Loading…</p>;
  const where = kind === 'desktop' ? 'from any app' : 'while this tab has focus';
  return (
    <div className="stack">
      <div className="switch-row">
        <button
          type="button"
          role="switch"
          aria-checked={settings.enabled}
          className="switch"
          disabled={busy}
          onClick={() => change({ enabled: !settings.enabled }, (next) => (next.enabled ? 'Voice is on' : 'Voice is off'))}
        >
          <span className="switch-track" aria-hidden="true">
            <span className="switch-thumb" />
          </span>
          <span className="switch-label">Speak approvals and hear answers</span>
        </button>
        <span className={settings.enabled ? 'badge badge-info' : 'muted'}>{settings.enabled ? 'On' : 'Off: nothing is spoken or recorded'}</span>
      </div>
      <p className="hint">
        When it is on, the approvals window says each new request aloud and listens for a few seconds: say “run” and the request&apos;s three-digit code (shown
        on the card) to run it, “always” and the code to always allow it, “deny”, or “cancel” to stop listening. Esc stops listening. Nothing leaves this
        computer: the answer is heard here.
      </p>
      {status ? (
        <ul className="item-list" aria-label="Voice on this computer">
          <Engine role="hears answers" engine={status.recogniser} />
          <Engine role="speaks prompts" engine={status.synthesiser} />
        </ul>
      ) : null}
      <h3 className="field-title">Hotkeys for the newest request</h3>
      <p className="hint">They answer the newest waiting request {where}. Run needs a second press within two seconds for a tool that may change files.</p>
      <HotkeyField label="Run" value={settings.runShortcut} mac={mac} onSave={(shortcut) => change({ run_shortcut: shortcut }, () => 'Run hotkey saved')} />
      <HotkeyField label="Deny" value={settings.denyShortcut} mac={mac} onSave={(shortcut) => change({ deny_shortcut: shortcut }, () => 'Deny hotkey saved')} />
      {error ? <ErrorNote error={error} title="The voice setting was not saved" /> : null}
    </div>
  );
}
