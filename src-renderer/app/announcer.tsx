/** One polite live region for the whole window: screen readers hear what changed without focus moving. */
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

const AnnounceContext = createContext<(message: string) => void>(() => undefined);

/** Renders the live region and lets any screen announce into it. */
export function Announcer({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState({ text: '', n: 0 });
  // The counter re-keys the node, so the same sentence twice is announced twice.
  const announce = useCallback((text: string) => setMessage((prev) => ({ text, n: prev.n + 1 })), []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div className="visually-hidden" role="status" aria-live="polite">
        <span key={message.n}>{message.text}</span>
      </div>
    </AnnounceContext.Provider>
  );
}

/** The function that speaks a message through the live region. */
export function useAnnounce(): (message: string) => void {
  return useContext(AnnounceContext);
}
