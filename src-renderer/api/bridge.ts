/** The Electron preload's `window.skilltray`, typed by the contract's PreloadApi (present only inside the desktop app). */
import type { PreloadApi } from '../../src-main/shared/contract.js';

declare global {
  interface Window {
    skilltray?: PreloadApi;
  }
}
