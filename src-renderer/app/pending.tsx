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

/**
 * Loads the queue on every (re)connection and again on each `approval.added` (the event names the
 * run; the queue has the whole request), and drops an entry on `approval.resolved`.
 */
export function PendingProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const { epoch } = useStream();
  const announce = useAnnounce();
  const [pending, setPending] = useState<Pending>({ entries: [], error: null });
  const [added, setAdded] = useState(0);

  useEffect(() => {
    let current = true;
    client.approvals({}).then(
      (entries) => current && setPending({ entries: [...entries].sort(byRequestTime), error: null }),
      (error: unknown) => current && setPending((prev) => ({ ...prev, error: error instanceof Error ? error : new Error(String(error)) })),
    );
    return () => {
      current = false;
    };
  }, [client, epoch, added]);

  useServerEvent((event) => {
    if (event.type === 'approval.added') {
      const { entry } = event;
      setAdded((n) => n + 1);
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
