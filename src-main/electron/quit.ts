/**
 * Quitting the tray app, however it is asked for (the tray's Quit, the OS, a second signal): the
 * HTTP API first (no new requests), then the core, which cancels live runs (their process trees die)
 * and withdraws pending approvals; then the process exits. Closing every window is not quitting.
 */
import type { App } from 'electron';
import type { SkilltrayCore } from '../core/api.js';
import type { RunningServer } from '../server/http.js';

export interface QuitDeps {
  app: Pick<App, 'on' | 'exit'>;
  server: Pick<RunningServer, 'close'>;
  core: Pick<SkilltrayCore, 'close'>;
  log(line: string): void;
}

/** Takes over the app's quit; returns the one way to quit, safe to call more than once. */
export function setupQuit(deps: QuitDeps): () => void {
  let quitting = false;
  const quit = (): void => {
    if (quitting) return;
    quitting = true;
    void deps.server
      .close()
      .catch((error: unknown) => deps.log(`closing the HTTP API failed: ${String(error)}`))
      .then(() => deps.core.close('the Skilltray app is quitting'))
      .catch((error: unknown) => deps.log(`closing the core failed: ${String(error)}`))
      .then(() => deps.app.exit(0));
  };
  // The tray keeps the app alive with every window closed.
  deps.app.on('window-all-closed', () => undefined);
  deps.app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quit();
  });
  return quit;
}
