/** The connection as React context: the typed client, server events, and the stream's state. */
import { createContext, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { ServerEvent, SkilltrayClient } from '../../src-main/shared/contract.js';
import type { Connection } from '../api/connection.js';
import type { StreamState } from '../api/http-transport.js';

interface Live {
  connection: Connection;
  /** Counts the times the event stream (re)opened: screens refetch when it changes, so nothing missed stays missed. */
  epoch: number;
  state: StreamState;
}

const LiveContext = createContext<Live | null>(null);

/** Tracks the stream state and counts openings, outside React so no event is lost between renders. */
function streamStore(connection: Connection): { subscribe: (notify: () => void) => () => void; snapshot: () => { state: StreamState; epoch: number } } {
  let snapshot = { state: connection.state(), epoch: connection.state() === 'open' ? 1 : 0 };
  const listeners = new Set<() => void>();
  connection.watchState((state) => {
    snapshot = { state, epoch: state === 'open' ? snapshot.epoch + 1 : snapshot.epoch };
    for (const notify of listeners) notify();
  });
  return {
    subscribe: (notify) => {
      listeners.add(notify);
      return () => void listeners.delete(notify);
    },
    snapshot: () => snapshot,
  };
}

const stores = new WeakMap<Connection, ReturnType<typeof streamStore>>();

/** Provides the connection to every screen. */
export function ConnectionProvider({ connection, children }: { connection: Connection; children: ReactNode }) {
  let store = stores.get(connection);
  if (!store) {
    store = streamStore(connection);
    stores.set(connection, store);
  }
  const { state, epoch } = useSyncExternalStore(store.subscribe, store.snapshot);
  return <LiveContext.Provider value={{ connection, state, epoch }}>{children}</LiveContext.Provider>;
}

function useLive(): Live {
  const live = useContext(LiveContext);
  if (!live) throw new Error('ConnectionProvider is missing');
  return live;
}

/** The connection (kind, platform, desktop commands). */
export function useConnection(): Connection {
  return useLive().connection;
}

/** The typed client. */
export function useClient(): SkilltrayClient {
  return useLive().connection.client;
}

/** The event stream's state and how many times it has opened. */
export function useStream(): { state: StreamState; epoch: number } {
  const { state, epoch } = useLive();
  return { state, epoch };
}

/** Calls `handler` for every server event while mounted (the latest handler, without resubscribing). */
export function useServerEvent(handler: (event: ServerEvent) => void): void {
  const { connection } = useLive();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => connection.subscribe((event) => latest.current(event)), [connection]);
}
