/** The Electron preload's bridge on `window.skilltray`, and the desktop-only commands it understands. */
import type { Envelope, ServerEvent } from '../../src-main/shared/contract.js';

/** Exactly what the preload exposes: contract operations over IPC, pushed events, the OS name. */
export interface SkilltrayBridge {
  invoke(operation: string, input: unknown): Promise<Envelope<unknown>>;
  onEvent(listener: (event: ServerEvent) => void): () => void;
  platform: string;
}

declare global {
  interface Window {
    /** Present only inside the desktop app. */
    skilltray?: SkilltrayBridge;
  }
}

/**
 * Window and app commands that exist only in the desktop app (the browser has no folder to open and
 * nothing to quit). They travel through the same `invoke` as operations, under an `app.` prefix the
 * contract never uses, so the HTTP API can never be asked for them.
 */
export const DESKTOP_COMMANDS = {
  /** `{ route: '#/skills' }`: bring the main window forward at a route. */
  show: 'app.show',
  /** `{}`: reveal the user skills folder in the file manager. */
  openSkillsFolder: 'app.openSkillsFolder',
  /** `{}`: quit the app (live runs are cancelled by the core). */
  quit: 'app.quit',
} as const;
