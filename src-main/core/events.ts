/** Events that cannot be broken by their listeners. */
import type { EventEmitter } from 'node:events';

/**
 * Calls every listener of `event`, each on its own: one that throws is reported as a process
 * warning, and never stops the other listeners or the caller (a run, the watcher, an approval).
 */
export function emitSafely(emitter: EventEmitter, event: string, ...args: unknown[]): void {
  for (const listener of emitter.listeners(event)) {
    try {
      (listener as (...values: unknown[]) => void)(...args);
    } catch (error) {
      process.emitWarning(`a '${event}' listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
