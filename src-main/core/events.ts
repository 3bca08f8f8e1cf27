/** Events that cannot be broken by their listeners. */
import type { EventEmitter } from 'node:events';

/** How a failing listener is reported: a process warning naming the event, unless the emitter's owner says otherwise. */
export type ListenerErrorReporter = (error: unknown, event: string) => void;

const warn: ListenerErrorReporter = (error, event) =>
  process.emitWarning(`a '${event}' listener failed: ${error instanceof Error ? error.message : String(error)}`);

/**
 * Calls every listener of `event`, each on its own, as `emit` would (`once` listeners fire once, in
 * registration order, with the emitter as `this`): one that throws is handed to `onError` and never
 * stops the other listeners or the caller (a run, the watcher, an approval).
 */
export function emitGuarded(emitter: EventEmitter, event: string, args: readonly unknown[], onError: ListenerErrorReporter = warn): void {
  // rawListeners, not listeners: a `once` wrapper removes itself when called, a bare listener would stay.
  for (const listener of emitter.rawListeners(event)) {
    try {
      Reflect.apply(listener, emitter, args);
    } catch (error) {
      onError(error, event);
    }
  }
}

/** emitGuarded with failures reported as process warnings. */
export function emitSafely(emitter: EventEmitter, event: string, ...args: unknown[]): void {
  emitGuarded(emitter, event, args);
}
