/** The window: the tray route on its own, every other route inside the shell (nav, status, pending banner). */
import { useEffect, useRef, type ReactNode } from 'react';
import { isMac } from '../app/platform.js';
import { ApprovalsScreen } from '../approvals/approvals-screen.js';
import { HistoryScreen } from '../history/history-screen.js';
import { PacksScreen } from '../packs/packs-screen.js';
import { Palette } from '../palette/palette.js';
import { useOpenPalette } from '../app/open-palette.js';
import { PaletteProvider } from '../palette/palette-dialog.js';
import { paletteKeyLabel } from '../palette/palette-keys.js';
import { SettingsScreen } from '../settings/settings-screen.js';
import { SkillPage } from '../skills/skill-page.js';
import { SkillsScreen } from '../skills/skills-screen.js';
import { TrayScreen } from '../tray/tray-screen.js';
import { ConnectScreen } from './connect-screen.js';
import { useConnection, useStream } from '../app/connection-context.js';
import { usePending } from '../app/pending.js';
import { parseRoute, routeHref, type Route } from '../app/route.js';
import { NoticeBanner } from './notices.js';
import { useHash } from './use-hash.js';
import { useSettings } from '../app/use-settings.js';
import { BrandMark } from '../app/brand-mark.js';
import { AnswerHotkeys } from '../voice/answer-hotkeys.js';

const NAV: { screen: 'approvals' | 'skills' | 'packs' | 'history' | 'settings'; label: string; href: string }[] = [
  { screen: 'approvals', label: 'Approvals', href: '#/approvals' },
  { screen: 'skills', label: 'Skills', href: '#/skills' },
  { screen: 'packs', label: 'Packs', href: '#/packs' },
  { screen: 'history', label: 'History', href: '#/history' },
  { screen: 'settings', label: 'Settings', href: '#/settings' },
];

function navScreen(route: Route): string {
  return route.screen === 'skill' ? 'skills' : route.screen;
}

const TITLES: Record<Route['screen'], string> = {
  approvals: 'Approvals',
  tray: 'Skilltray',
  palette: 'Command palette',
  skills: 'Skills',
  skill: 'Skill',
  history: 'History',
  settings: 'Settings',
  packs: 'Packs',
  missing: 'Not found',
};

function title(route: Route): string {
  return route.screen === 'skill' ? route.name : TITLES[route.screen];
}

function StreamIndicator() {
  const { kind } = useConnection();
  const { state } = useStream();
  if (kind === 'desktop') return null;
  const text = state === 'open' ? 'Live' : state === 'connecting' ? 'Reconnecting…' : 'Not authorized';
  return (
    <span className={`stream stream-${state}`} role="status" title={state === 'open' ? 'Following the app’s events' : undefined}>
      <span className="stream-dot" aria-hidden="true" />
      {text}
    </span>
  );
}

/** The top bar's way into the palette, with its key. */
function PaletteButton() {
  const openPalette = useOpenPalette();
  const { platform } = useConnection();
  const key = paletteKeyLabel(isMac(platform));
  return (
    <button
      type="button"
      className="palette-button"
      onClick={() => openPalette()}
      aria-keyshortcuts={isMac(platform) ? 'Meta+K' : 'Control+K'}
      title={`Command palette (${key})`}
    >
      <span className="palette-button-icon" aria-hidden="true" />
      <span className="palette-button-text">Search or run…</span>
      <kbd aria-hidden="true">{key}</kbd>
    </button>
  );
}

function PendingBanner() {
  const { entries } = usePending();
  const first = entries[0];
  if (!first) return null;
  return (
    <div className="pending-banner">
      <span className="pulse" aria-hidden="true" />
      <p>
        <strong>
          {first.skill} / {first.tool}
        </strong>{' '}
        is waiting for your approval{entries.length > 1 ? `, with ${entries.length - 1} more` : ''}.
      </p>
      <a className="button button-primary" href="#/approvals">
        Review
      </a>
    </div>
  );
}

function Shell({ route, children }: { route: Route; children: ReactNode }) {
  const { entries } = usePending();
  const { settings } = useSettings();
  const main = useRef<HTMLElement>(null);
  const current = navScreen(route);
  const place = route.screen === 'skill' ? `skill:${route.name}` : route.screen;
  const first = useRef(true);

  // Moving to another screen moves focus to its heading, as a page load would; the first render leaves focus alone.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = main.current?.querySelector<HTMLElement>('h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: false });
    }
  }, [place]);

  useEffect(() => {
    document.title = `${title(route)} — Skilltray`;
  });

  return (
    <>
      <button type="button" className="skip-link" onClick={() => main.current?.focus()}>
        Skip to content
      </button>
      <header className="topbar">
        <a className="brand" href="#/skills">
          <BrandMark />
          Skilltray
        </a>
        <PaletteButton />
        <nav aria-label="Main" className="mainnav">
          {NAV.map((item) => (
            <a key={item.screen} href={item.href} aria-current={current === item.screen ? 'page' : undefined}>
              {item.label}
              {item.screen === 'approvals' && entries.length > 0 ? (
                <span className="count-badge">
                  {entries.length}
                  <span className="visually-hidden"> waiting</span>
                </span>
              ) : null}
            </a>
          ))}
        </nav>
        <div className="topbar-status">
          {settings ? (
            <a href="#/settings" className={`chip-link${settings.paused ? ' chip-warn' : ''}`} title="Mode and pause are in Settings">
              {settings.mode} mode{settings.paused ? ' · paused' : ''}
            </a>
          ) : null}
          <StreamIndicator />
        </div>
      </header>
      <NoticeBanner />
      {route.screen !== 'approvals' ? <PendingBanner /> : null}
      <main id="main" ref={main} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

function Screen({ route, hash }: { route: Route; hash: string }) {
  switch (route.screen) {
    case 'approvals':
      return <ApprovalsScreen />;
    case 'skills':
      // Keyed by address: Back or a nav click restores that query; typing only edits the address in place.
      return <SkillsScreen key={hash} initialQuery={route.query} initialFilter={route.filter} initialUnknown={route.unknown ?? []} />;
    case 'skill':
      return <SkillPage key={route.name} name={route.name} view={route.view} />;
    case 'history':
      return <HistoryScreen filter={route.filter} run={route.run} unknown={route.unknown ?? []} />;
    case 'settings':
      return <SettingsScreen />;
    case 'packs':
      return <PacksScreen />;
    case 'tray':
      return <TrayScreen />;
    case 'palette':
      return <PaletteScreen />;
    case 'missing':
      return (
        <div className="page">
          <h1>Nothing at {routeHref(route)}</h1>
          <p>
            <a href="#/skills">Go to the skills</a>
          </p>
        </div>
      );
  }
}

/** `#/palette`: the palette alone, as the desktop app's global shortcut shows it; Esc closes the window (or, in a browser, goes to the skills). */
function PaletteScreen() {
  const { desktop } = useConnection();
  useEffect(() => {
    document.title = 'Command palette — Skilltray';
  }, []);
  return (
    <main className="palette-window">
      <h1 className="visually-hidden">Command palette</h1>
      <Palette onClose={() => (desktop ? window.close() : (location.hash = '#/skills'))} />
    </main>
  );
}

export function App() {
  const connection = useConnection();
  const { state } = useStream();
  const hash = useHash();
  const route = parseRoute(hash);
  if (connection.kind === 'browser' && (!connection.hasToken() || state === 'unauthorized')) return <ConnectScreen refused={connection.hasToken()} />;
  return (
    <PaletteProvider inline={route.screen === 'palette'}>
      {connection.kind === 'browser' ? <AnswerHotkeys /> : null}
      {route.screen === 'tray' ? (
        <TrayScreen />
      ) : route.screen === 'palette' ? (
        <PaletteScreen />
      ) : (
        <Shell route={route}>
          <Screen route={route} hash={hash} />
        </Shell>
      )}
    </PaletteProvider>
  );
}
