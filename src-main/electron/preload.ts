/**
 * The renderer's only door to main: one typed API, `window.skilltray`, over one channel per
 * contract operation. Anything not in the contract cannot be invoked from the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  DESKTOP_OPERATIONS,
  IPC_EVENT_CHANNEL,
  IPC_READY_CHANNEL,
  OPERATIONS,
  ipcChannel,
  type Envelope,
  type PreloadApi,
  type ServerEvent,
} from '../shared/contract.js';

const allowed = new Set<string>([...OPERATIONS, ...DESKTOP_OPERATIONS]);
/** Whether this page has told main that it listens (once per page load: the preload runs again on a reload). */
let saidReady = false;

const api: PreloadApi = {
  invoke(operation, input) {
    if (!allowed.has(operation)) {
      return Promise.resolve<Envelope<unknown>>({
        ok: false,
        error: { code: 'E806', kind: 'route_not_found', message: `no operation '${String(operation)}'` },
      });
    }
    return ipcRenderer.invoke(ipcChannel(operation), input) as Promise<Envelope<unknown>>;
  },
  onEvent(listener) {
    const forward = (_event: IpcRendererEvent, payload: ServerEvent) => listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    if (!saidReady) {
      saidReady = true;
      ipcRenderer.send(IPC_READY_CHANNEL);
    }
    return () => {
      ipcRenderer.off(IPC_EVENT_CHANNEL, forward);
    };
  },
  platform: process.platform,
};

contextBridge.exposeInMainWorld('skilltray', api);
