import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { setupQuit } from '../../../src-main/electron/quit.js';

function app() {
  const steps: string[] = [];
  let exited!: (code: number) => void;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  const emitter = Object.assign(new EventEmitter(), {
    exit: (code: number) => {
      steps.push(`exit ${code}`);
      exited(code);
    },
  });
  return { emitter, steps, exit };
}

/** Emits before-quit; true when the app's default quit was held back. */
function beforeQuit(emitter: EventEmitter): boolean {
  let prevented = false;
  emitter.emit('before-quit', { preventDefault: () => void (prevented = true) });
  return prevented;
}

describe('quitting the tray app', () => {
  it('holds the OS quit, closes the HTTP API and then the core, then exits 0, once however often it is asked', async () => {
    const { emitter, steps, exit } = app();
    const quit = setupQuit({
      app: emitter as never,
      server: { close: async () => void steps.push('server closed') },
      core: { close: async () => void steps.push('core closed') },
      log: (line) => void steps.push(line),
    });
    expect(beforeQuit(emitter)).toBe(true);
    quit();
    expect(beforeQuit(emitter)).toBe(false);
    expect(await exit).toBe(0);
    expect(steps).toEqual(['server closed', 'core closed', 'exit 0']);
  });

  it('still closes the core and exits when closing the API fails, saying so', async () => {
    const { emitter, steps, exit } = app();
    const quit = setupQuit({
      app: emitter as never,
      server: { close: () => Promise.reject(new Error('EBUSY')) },
      core: { close: () => Promise.reject(new Error('locked')) },
      log: (line) => void steps.push(line),
    });
    quit();
    expect(await exit).toBe(0);
    expect(steps).toEqual(['closing the HTTP API failed: Error: EBUSY', 'closing the core failed: Error: locked', 'exit 0']);
  });

  it('keeps running when every window is closed', () => {
    const { emitter, steps } = app();
    setupQuit({ app: emitter as never, server: { close: async () => undefined }, core: { close: async () => undefined }, log: () => undefined });
    expect(emitter.listenerCount('window-all-closed')).toBe(1);
    emitter.emit('window-all-closed');
    expect(steps).toEqual([]);
  });
});
