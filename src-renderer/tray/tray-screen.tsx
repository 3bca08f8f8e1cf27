/**
 * `#/tray`: the small window behind the tray icon. The oldest waiting approval is answered right
 * here; the remembered approvals are listed and revoked here too. The Electron tray menu mirrors the
 * mode and pause controls natively.
 */
import { useState, type MouseEvent } from 'react';
import type { WindowRoute } from '../../src-main/shared/contract.js';
import type { RememberExpiry, RememberScope, VerdictKind } from '../../src-main/shared/runs.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient, useConnection } from '../app/connection-context.js';
import { answerInput } from '../approvals/answer.js';
import { ApprovalCard } from '../approvals/approval-card.js';
import { isMac } from '../app/platform.js';
import { RememberedList } from '../approvals/remembered-list.js';
import { ErrorNote } from '../app/error-note.js';
import { usePending } from '../app/pending.js';
import { useSettings } from '../app/use-settings.js';
import { ModeSwitch, PauseSwitch } from '../settings/mode-controls.js';
import { BrandMark } from '../app/brand-mark.js';
import { useOpenPalette } from '../app/open-palette.js';
import { paletteKeyLabel } from '../palette/palette-keys.js';

/** Where the first request would be: nothing waits; the way to the queue. */
function NoApprovals({ onOpen }: { onOpen: (event: MouseEvent<HTMLAnchorElement>) => void }) {
  return (
    <a href="#/approvals" onClick={onOpen} className="tray-approvals">
      <span className="tray-count" aria-hidden="true">
        0
      </span>
      <span>
        <strong>No approvals waiting</strong>
        <span className="muted">Open the approval queue</span>
      </span>
    </a>
  );
}

export function TrayScreen() {
  const connection = useConnection();
  const client = useClient();
  const announce = useAnnounce();
  const { desktop } = connection;
  const openPalette = useOpenPalette();
  const { entries } = usePending();
  const { settings, error: settingsError, set } = useSettings();
  const [error, setError] = useState<Error | null>(null);

  // In the desktop app the tray window stays small: links open that route's own window instead.
  const follow =
    (route: WindowRoute) =>
    (event: MouseEvent<HTMLAnchorElement>): void => {
      if (!desktop) return;
      event.preventDefault();
      desktop.show(route).catch((e: Error) => setError(e));
    };
  const command = (run: () => Promise<void>) => () => {
    setError(null);
    run().catch((e: Error) => setError(e));
  };

  const count = entries.length;
  const first = entries[0];
  const answer = async (verdict: VerdictKind, expires: RememberExpiry, scope: RememberScope): Promise<void> => {
    if (first === undefined) return;
    await client.answerApproval(answerInput(first.id, verdict, expires, scope));
    announce(`${verdict === 'deny' ? 'Denied' : 'Allowed'} ${first.skill} ${first.tool}`);
  };
  return (
    <main className="tray" aria-labelledby="tray-title">
      <header className="tray-head">
        <BrandMark />
        <h1 id="tray-title">Skilltray</h1>
        {settings ? <span className={`badge ${settings.paused ? 'badge-warn' : 'badge-neutral'}`}>{settings.paused ? 'Paused' : settings.mode}</span> : null}
      </header>

      {first === undefined ? (
        <NoApprovals onOpen={follow('approvals')} />
      ) : (
        <>
          <ApprovalCard key={first.id} entry={first} mac={isMac(connection.platform)} answered={null} onAnswer={answer} />
          {count > 1 ? (
            <a href="#/approvals" onClick={follow('approvals')} className="button button-block">
              {count - 1} more waiting: open the approval queue
            </a>
          ) : null}
        </>
      )}

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

      <section className="tray-remembered" aria-labelledby="tray-remembered-title">
        <h2 id="tray-remembered-title" className="field-title">
          Always allowed
        </h2>
        <RememberedList compact />
      </section>

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
