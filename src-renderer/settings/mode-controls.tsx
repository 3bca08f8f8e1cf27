/** The mode switcher and the pause switch: shared by the tray window and the settings screen. */
import { useId, useState } from 'react';
import { MODES, type Mode } from '../../src-main/shared/model.js';
import type { Settings } from '../../src-main/shared/runs.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';

/** Global / Dev / Meeting as a radio group (arrow keys move between modes). */
export function ModeSwitch({ settings, onChange, compact = false }: { settings: Settings; onChange: (settings: Settings) => void; compact?: boolean }) {
  const client = useClient();
  const name = useId();
  const [error, setError] = useState<Error | null>(null);
  // The choice shows at once; the app's answer (or a settings event) then confirms or corrects it.
  const [asked, setAsked] = useState<Mode | null>(null);
  const shown = asked ?? settings.mode;
  return (
    <fieldset className={`segmented${compact ? ' segmented-compact' : ''}`}>
      <legend>Mode</legend>
      <div className="segmented-options">
        {MODES.map((mode) => (
          <label key={mode} className="segmented-option">
            <input
              type="radio"
              name={name}
              value={mode}
              checked={shown === mode}
              onChange={() => {
                setError(null);
                setAsked(mode);
                client.setMode({ mode }).then(
                  (next) => {
                    setAsked(null);
                    onChange(next);
                  },
                  (e: Error) => {
                    setAsked(null);
                    setError(e);
                  },
                );
              }}
            />
            <span>{mode}</span>
          </label>
        ))}
      </div>
      {compact ? null : (
        <p className="hint">
          A skill's tools are offered only in the modes its <code>modes</code> list names.
        </p>
      )}
      {error ? <ErrorNote error={error} /> : null}
    </fieldset>
  );
}

/** Pause all runs: a switch; while on, every run is refused (E608). */
export function PauseSwitch({ settings, onChange }: { settings: Settings; onChange: (settings: Settings) => void }) {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  return (
    <div className="switch-row">
      <button
        type="button"
        role="switch"
        aria-checked={settings.paused}
        className="switch"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          client.setPaused({ paused: !settings.paused }).then(
            (next) => {
              setBusy(false);
              onChange(next);
            },
            (e: Error) => {
              setBusy(false);
              setError(e);
            },
          );
        }}
      >
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">Pause all runs</span>
      </button>
      <span className={settings.paused ? 'badge badge-warn' : 'muted'}>{settings.paused ? 'Paused: every run is refused' : 'Runs allowed'}</span>
      {error ? <ErrorNote error={error} /> : null}
    </div>
  );
}
