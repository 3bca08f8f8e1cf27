/** Registers the contract's IPC handlers on ipcMain, each given the frame that really sent the call; the handlers themselves live in ipc-handlers.ts. */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { SkilltrayCore } from '../core/api.js';
import type { CallContext } from '../core/operations.js';
import { ipcHandlers, type DesktopHandlers } from './ipc-handlers.js';

export interface IpcDeps {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  core: SkilltrayCore;
  context: Omit<CallContext, 'signal'>;
  desktop: DesktopHandlers;
  log(line: string): void;
}

/** Registers every channel; returns a function that removes them. */
export function setupIpc(deps: IpcDeps): () => void {
  const refused = (channel: string, frame: { url: string; parent: unknown } | null): void =>
    deps.log(
      `refused IPC '${channel}' from ${frame === null ? 'a frame that is gone' : `${frame.url}${frame.parent === null ? '' : ' (a subframe)'}`}: only the app's own top-level page is answered`,
    );
  const handlers = ipcHandlers(deps.core, deps.context, deps.desktop, refused);
  for (const [channel, handler] of handlers) {
    // senderFrame is the frame that sent this message (null once it navigated away or closed), not the window's current page.
    deps.ipcMain.handle(channel, (event: IpcMainInvokeEvent, input: unknown) => handler(event.senderFrame, input));
  }
  return () => {
    for (const channel of handlers.keys()) deps.ipcMain.removeHandler(channel);
  };
}
