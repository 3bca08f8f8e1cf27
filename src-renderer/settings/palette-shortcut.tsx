/** Settings → Command palette: the desktop app's global shortcut, recorded from a key press and kept by the app. */
import { useId, useState } from 'react';
import type { Settings } from '../../src-main/shared/runs.js';
import { DEFAULT_PALETTE_SHORTCUT, formatShortcut } from '../../src-main/shared/shortcut.js';
import { isMac } from '../app/platform.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient, useConnection } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { paletteKeyLabel } from '../palette/palette-keys.js';
import { useShortcutDraft } from './use-shortcut-draft.js';

export function PaletteShortcut({ settings, onChange }: { settings: Settings; onChange: (settings: Settings) => void }) {
  const client = useClient();
  const announce = useAnnounce();
  const { platform, kind } = useConnection();
  const mac = isMac(platform);
  const fieldId = useId();
  const hintId = useId();
  const [error, setError] = useState<Error | null>(null);
  const saved = settings.paletteShortcut;
  const { draft, setDraft, record, text } = useShortcutDraft(saved, mac);

  const save = (shortcut: string): void => {
    setError(null);
    client.setPaletteShortcut({ shortcut }).then(
      (next) => {
        onChange(next);
        setDraft(null);
        announce(
          next.paletteShortcut === ''
            ? 'The palette has no global shortcut now'
            : `The palette's global shortcut is now ${formatShortcut(next.paletteShortcut, mac)}`,
        );
      },
      (e: Error) => setError(e),
    );
  };

  return (
    <>
      <p className="muted">
        <kbd>{paletteKeyLabel(mac)}</kbd> opens the palette in any Skilltray window{kind === 'browser' ? ', this browser tab included' : ''}. In the desktop
        app, this shortcut opens it from anywhere, whatever app is in front.
      </p>
      <div className="shortcut-row">
        <div className="field">
          <label htmlFor={fieldId}>Global shortcut</label>
          <input id={fieldId} type="text" className="shortcut-input" readOnly value={text} onKeyDown={record} aria-describedby={hintId} />
        </div>
        <div className="button-row">
          <button type="button" className="button button-primary" disabled={draft === null || draft === saved} onClick={() => draft !== null && save(draft)}>
            Save
          </button>
          <button
            type="button"
            className="button"
            disabled={saved === DEFAULT_PALETTE_SHORTCUT && draft === null}
            onClick={() => save(DEFAULT_PALETTE_SHORTCUT)}
          >
            Default ({formatShortcut(DEFAULT_PALETTE_SHORTCUT, mac)})
          </button>
          <button type="button" className="button button-quiet" disabled={saved === '' && draft === null} onClick={() => save('')}>
            Turn off
          </button>
        </div>
      </div>
      <p id={hintId} className="hint">
        Focus the field and press the keys you want, with {mac ? '⌘, ⌃ or ⌥' : 'Ctrl, Alt or Super'}; then Save. If another app already uses them, the desktop
        app keeps running without a global shortcut.
      </p>
      {error ? <ErrorNote error={error} title="The shortcut was not saved" /> : null}
    </>
  );
}
