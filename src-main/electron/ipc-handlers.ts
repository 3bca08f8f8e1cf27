/**
 * What main answers on each IPC channel, generated from the one contract and free of Electron so it
 * is tested as it is: every operation's channel checks that the sender is the app's own top-level
 * page, validates the payload (callOperation for the core, the desktop schemas for window commands)
 * and answers an Envelope, errors as `{code, kind, message}`.
 */
import type { SkilltrayCore } from '../core/api.js';
import { toSkilltrayError } from '../shared/skilltray-error.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';
import { callOperation, type CallContext } from '../core/operations.js';
import { isAppUrl } from './web-files.js';
import { DESKTOP_OPERATIONS, OPERATIONS, desktopInputs, ipcChannel, type Envelope, type WindowRoute } from '../shared/contract.js';

/** The part of Electron's WebFrameMain the sender check reads. */
export interface SenderFrame {
  url: string;
  parent: unknown;
}

export interface DesktopHandlers {
  openWindow(route: WindowRoute): void;
  openSkillsFolder(): Promise<void>;
  quit(): void;
}

export type IpcHandler = (frame: SenderFrame | null, input: unknown) => Promise<Envelope<unknown>>;

/** True for a frame showing the app's own UI (not a page it navigated to, not a subframe). */
export function trustedSender(frame: SenderFrame | null): boolean {
  return frame !== null && frame.parent === null && isAppUrl(frame.url);
}

/** Told of each call refused because of its sender, so the log shows who knocked. */
export type RefusedSender = (channel: string, frame: SenderFrame | null) => void;

/** One handler per channel: every contract operation and every desktop command. */
export function ipcHandlers(
  core: SkilltrayCore,
  context: Omit<CallContext, 'signal'>,
  desktop: DesktopHandlers,
  onRefused: RefusedSender = () => undefined,
): Map<string, IpcHandler> {
  const handlers = new Map<string, IpcHandler>();
  const untrusted = (channel: string, frame: SenderFrame | null): Envelope<never> => {
    onRefused(channel, frame);
    return { ok: false, error: gatewayErrors.foreignIpcSender().toJSON() };
  };
  for (const operation of OPERATIONS) {
    const channel = ipcChannel(operation);
    handlers.set(channel, async (frame, input) => (trustedSender(frame) ? callOperation(core, operation, input, context) : untrusted(channel, frame)));
  }
  const commands = {
    openWindow: (input: { route: WindowRoute }) => desktop.openWindow(input.route),
    openSkillsFolder: () => desktop.openSkillsFolder(),
    quit: () => desktop.quit(),
  };
  for (const operation of DESKTOP_OPERATIONS) {
    const channel = ipcChannel(operation);
    handlers.set(channel, async (frame, input) => {
      if (!trustedSender(frame)) return untrusted(channel, frame);
      const parsed = desktopInputs[operation].safeParse(input ?? {});
      if (!parsed.success) return { ok: false, error: gatewayErrors.invalidIpcInput(operation).toJSON() };
      try {
        await (commands[operation] as (input: unknown) => unknown)(parsed.data);
        return { ok: true, value: { ok: true } };
      } catch (error) {
        return { ok: false, error: toSkilltrayError(error).toJSON() };
      }
    });
  }
  return handlers;
}
