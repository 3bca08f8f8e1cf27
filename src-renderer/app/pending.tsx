/** The approval queue, kept live for the whole window: the nav badge, the banner, the queue and tool forms read it. */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { PendingEntry } from '../../src-main/shared/runs.js';
import { useAnnounce } from './announcer.js';
import { useClient, useServerEvent, useStream } from './connection-context.js';

interface Pending {
  entries: PendingEntry[];
  /** Set when the queue could not be loaded. */
  error: Error | null;
}

const PendingContext = createContext<Pending>({ entries: [], error: null });

function byRequestTime(a: PendingEntry, b: PendingEntry): number {
  return a.requestedAt - b.requestedAt || a.id.localeCompare(b.id);
}

/** Loads the queue on every (re)connection and follows `approval.added` / `approval.resolved`. */
export function PendingProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const { epoch } = useStream();
  const announce = useAnnounce();
  const [pending, setPending] = useState<Pending>({ entries: [], error: null });

  useEffect(() => {
    let current = true;
    client.approvals({}).then(
      (entries) => current && setPending({ entries: [...entries].sort(byRequestTime), error: null }),
      (error: unknown) => current && setPending((prev) => ({ ...prev, error: error instanceof Error ? error : new Error(String(error)) })),
    );
    return () => {
      current = false;
    };
  }, [client, epoch]);

  useServerEvent((event) => {
    if (event.type === 'approval.added') {
      const { entry } = event;
      setPending((prev) => ({ ...prev, entries: [...prev.entries.filter((e) => e.id !== entry.id), entry].sort(byRequestTime) }));
      announce(`Approval needed: ${entry.skill} ${entry.tool}, asked by ${entry.surface}`);
    } else if (event.type === 'approval.resolved') {
      setPending((prev) => ({ ...prev, entries: prev.entries.filter((e) => e.id !== event.id) }));
    }
  });

  return <PendingContext.Provider value={pending}>{children}</PendingContext.Provider>;
}

/** Pending approvals, oldest first. */
export function usePending(): Pending {
  return useContext(PendingContext);
}
