/**
 * IPC handlers generated from the one contract: a channel per operation, each checking that the
 * sender is the app's own page and validating the payload (callOperation), errors crossing as
 * `{code, kind, message}`. Desktop-only operations (windows, skills folder, quit) are validated the same way.
 */
import { ipcMain, type IpcMainInvokeEvent, type WebFrameMain } from 'electron';
import type { SkilltrayCore } from '../core/api.js';
import { SkilltrayError, toSkilltrayError } from '../core/errors.js';
import { callOperation, type CallContext } from '../core/operations.js';
import { DESKTOP_OPERATIONS, OPERATIONS, desktopInputs, ipcChannel, type DesktopOperationName, type Envelope, type WindowRoute } from '../shared/contract.js';
import { APP_ORIGIN } from './app-protocol.js';

export interface DesktopHandlers {
  openWindow(route: WindowRoute): void;
  openSkillsFolder(): Promise<void>;
  quit(): void;
}

/** True for a frame showing the app's own UI (not a page it navigated to, not a subframe). */
function trusted(frame: WebFrameMain | null): boolean {
  return frame !== null && frame.parent === null && frame.url.startsWith(`${APP_ORIGIN}/`);
}

const untrusted = (): Envelope<never> => ({
  ok: false,
  error: new SkilltrayError('E803', 'IPC is only answered for the Skilltray UI').toJSON(),
});

/** Registers every operation's handler; returns a function that removes them. */
export function setupIpc(deps: { core: SkilltrayCore; context: Omit<CallContext, 'signal'>; desktop: DesktopHandlers }): () => void {
  const channels: string[] = [];
  for (const operation of OPERATIONS) {
    const channel = ipcChannel(operation);
    channels.push(channel);
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, input: unknown) =>
      trusted(event.senderFrame) ? callOperation(deps.core, operation, input, deps.context) : untrusted(),
    );
  }
  const desktop: { [K in DesktopOperationName]: (input: never) => unknown } = {
    openWindow: (input: { route: WindowRoute }) => deps.desktop.openWindow(input.route),
    openSkillsFolder: () => deps.desktop.openSkillsFolder(),
    quit: () => deps.desktop.quit(),
  };
  for (const operation of DESKTOP_OPERATIONS) {
    const channel = ipcChannel(operation);
    channels.push(channel);
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, input: unknown): Promise<Envelope<unknown>> => {
      if (!trusted(event.senderFrame)) return untrusted();
      const parsed = desktopInputs[operation].safeParse(input ?? {});
      if (!parsed.success) return { ok: false, error: new SkilltrayError('E805', `invalid input for '${operation}'`).toJSON() };
      try {
        await (desktop[operation] as (input: unknown) => unknown)(parsed.data);
        return { ok: true, value: { ok: true } };
      } catch (error) {
        return { ok: false, error: toSkilltrayError(error).toJSON() };
      }
    });
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
