/** The current route, following `hashchange`. */
import { useSyncExternalStore } from 'react';
import { parseRoute, type Route } from './route.js';

function subscribe(notify: () => void): () => void {
  window.addEventListener('hashchange', notify);
  return () => window.removeEventListener('hashchange', notify);
}

/** The hash as last announced by `hashchange` (replaceState edits by a screen do not re-route). */
export function useHash(): string {
  return useSyncExternalStore(subscribe, () => location.hash);
}

/** The parsed route of the current hash. */
export function useRoute(): Route {
  return parseRoute(useHash());
}
