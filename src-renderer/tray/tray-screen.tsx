/** `#/tray`: the small window behind the tray icon. The Electron tray menu mirrors these controls natively. */
import { useState, type MouseEvent } from 'react';
import type { WindowRoute } from '../../src-main/shared/contract.js';
import { useConnection } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { usePending } from '../app/pending.js';
import { useSettings } from '../app/use-settings.js';
import { ModeSwitch, PauseSwitch } from '../settings/mode-controls.js';
import { BrandMark } from '../app/brand-mark.js';
import { isMac } from '../approvals/approval-keys.js';
import { useOpenPalette } from '../palette/palette-dialog.js';
import { paletteKeyLabel } from '../palette/palette-keys.js';

export function TrayScreen() {
  const connection = useConnection();
  const { desktop } = connection;
  const openPalette = useOpenPalette();
  const { entries } = usePending();
  const { settings, error: settingsError, set } = useSettings();
  const [error, setError] = useState<Error | null>(null);

  // In the desktop app the tray window stays small: links open that route's own window instead.
  const follow = (route: WindowRoute) => (event: MouseEvent<HTMLAnchorElement>): void => {
    if (!desktop) return;
    event.preventDefault();
    desktop.show(route).catch((e: Error) => setError(e));
  };
  const command = (run: () => Promise<void>) => () => {
    setError(null);
    run().catch((e: Error) => setError(e));
  };

  const count = entries.length;
  return (
    <main className="tray" aria-labelledby="tray-title">
      <header className="tray-head">
        <BrandMark />
        <h1 id="tray-title">Skilltray</h1>
        {settings ? <span className={`badge ${settings.paused ? 'badge-warn' : 'badge-neutral'}`}>{settings.paused ? 'Paused' : settings.mode}</span> : null}
      </header>

      <a href="#/approvals" onClick={follow('approvals')} className={`tray-approvals${count > 0 ? ' tray-approvals-waiting' : ''}`}>
        <span className="tray-count" aria-hidden="true">
          {count}
        </span>
        <span>
          <strong>{count === 0 ? 'No approvals waiting' : `${count} ${count === 1 ? 'approval' : 'approvals'} waiting`}</strong>
          <span className="muted">{count === 0 ? 'Open the approval queue' : 'Review and answer them'}</span>
        </span>
      </a>

      <nav className="tray-links" aria-label="Open">
        <a
          href="#/palette"
          onClick={(event) => {
            event.preventDefault();
            if (desktop) desktop.show('palette').catch((e: Error) => setError(e));
            else openPalette();
          }}
          className="button button-block button-primary"
        >
          Search or run a tool… <kbd aria-hidden="true">{paletteKeyLabel(isMac(connection.platform))}</kbd>
        </a>
        <a href="#/skills" onClick={follow('skills')} className="button button-block">
          Open skill browser
        </a>
        <a href="#/history" onClick={follow('history')} className="button button-block button-quiet">
          Run history
        </a>
      </nav>

      {settings ? (
        <section className="tray-controls" aria-label="Controls">
          <ModeSwitch settings={settings} onChange={set} compact />
          <PauseSwitch settings={settings} onChange={set} />
        </section>
      ) : settingsError ? (
        <ErrorNote error={settingsError} title="Settings could not be loaded" />
      ) : null}

      {desktop ? (
        <div className="tray-footer">
          <button type="button" className="button button-quiet" onClick={command(() => desktop.openSkillsFolder())}>
            Open skills folder
          </button>
          <button type="button" className="button button-quiet" onClick={command(() => desktop.quit())}>
            Quit Skilltray
          </button>
        </div>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
    </main>
  );
}
