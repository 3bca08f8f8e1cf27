/** Registers the contract's IPC handlers on ipcMain; the handlers themselves live in ipc-handlers.ts. */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import type { SkilltrayCore } from '../core/api.js';
import type { CallContext } from '../core/operations.js';
import { ipcHandlers, type DesktopHandlers } from './ipc-handlers.js';

/** Registers every channel; returns a function that removes them. */
export function setupIpc(deps: { core: SkilltrayCore; context: Omit<CallContext, 'signal'>; desktop: DesktopHandlers }): () => void {
  const handlers = ipcHandlers(deps.core, deps.context, deps.desktop);
  for (const [channel, handler] of handlers) {
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, input: unknown) => handler(event.senderFrame, input));
  }
  return () => {
    for (const channel of handlers.keys()) ipcMain.removeHandler(channel);
  };
}
