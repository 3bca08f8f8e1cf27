/** Entry point: take the token out of the address (browser mode), connect, render. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connect } from './api/connection.js';
import { captureToken } from './api/token.js';
import { Announcer } from './app/announcer.js';
import { App } from './shell/app.js';
import { ConnectionProvider } from './app/connection-context.js';
import { PendingProvider } from './app/pending.js';
import './styles/theme.css';
import './styles/app.css';
import './styles/palette.css';
import './styles/packs.css';

if (!window.skilltray) {
  const replacement = captureToken(location.hash, sessionStorage);
  // replaceState, not assignment: the token must not stay in the address bar or in Back.
  if (replacement !== null) history.replaceState(null, '', `${location.pathname}${location.search}${replacement}`);
}

const connection = connect(window);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

createRoot(root).render(
  <StrictMode>
    <ConnectionProvider connection={connection}>
      <Announcer>
        <PendingProvider>
          <App />
        </PendingProvider>
      </Announcer>
    </ConnectionProvider>
  </StrictMode>,
);
