/** Loading data from the app: latest-wins, refetched on reconnect and on the server events that change it. */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ServerEvent, SkilltrayClient } from '../../src-main/shared/contract.js';
import { useClient, useServerEvent, useStream } from './connection-context.js';

export interface Resource<T> {
  /** The last loaded value; kept while a refetch runs, so screens do not flicker. */
  data: T | undefined;
  error: Error | null;
  loading: boolean;
  reload: () => void;
}

/** Events within this window coalesce into one refetch. */
const COALESCE_MS = 120;

/**
 * Loads `load(client)` whenever `key` changes, after the event stream reopens, and (coalesced) after
 * any server event `refreshOn` accepts. Only the latest request's answer is kept.
 */
export function useResource<T>(key: string, load: (client: SkilltrayClient) => Promise<T>, refreshOn?: (event: ServerEvent) => boolean): Resource<T> {
  const client = useClient();
  const { epoch } = useStream();
  const [state, setState] = useState<{ key: string; data: T | undefined; error: Error | null; loading: boolean }>({
    key,
    data: undefined,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const latestLoad = useRef(load);
  const sequence = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    latestLoad.current = load;
  });

  useEffect(() => {
    const mine = ++sequence.current;
    setState((prev) => ({ key, data: prev.key === key ? prev.data : undefined, error: prev.key === key ? prev.error : null, loading: true }));
    latestLoad.current(client).then(
      (data) => mine === sequence.current && setState({ key, data, error: null, loading: false }),
      (error: unknown) =>
        mine === sequence.current &&
        setState((prev) => ({
          key,
          data: prev.key === key ? prev.data : undefined,
          error: error instanceof Error ? error : new Error(String(error)),
          loading: false,
        })),
    );
  }, [client, key, epoch, tick]);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  useServerEvent((event) => {
    if (!refreshOn?.(event) || timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      setTick((n) => n + 1);
    }, COALESCE_MS);
  });

  const reload = useCallback(() => setTick((n) => n + 1), []);
  const current = state.key === key ? state : { data: undefined, error: null, loading: true };
  return { data: current.data, error: current.error, loading: current.loading, reload };
}
