/** The current hash, following `hashchange` only. */
import { useSyncExternalStore } from 'react';

// The hash as of the last hashchange: a screen that edits the address in place (replaceState, for
// Back) must not count as a navigation, or it would be remounted mid-typing.
let current: string | null = null;

function subscribe(notify: () => void): () => void {
  const onChange = (): void => {
    current = location.hash;
    notify();
  };
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The hash as last announced by `hashchange` (read once at start). */
export function useHash(): string {
  return useSyncExternalStore(subscribe, () => (current ??= location.hash));
}
