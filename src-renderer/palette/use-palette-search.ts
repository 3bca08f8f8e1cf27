/** The palette's answers for what was typed: discover and the search over every skill, asked together, newest query wins. */
import { useEffect, useRef, useState } from 'react';
import type { DiscoverResult } from '../../src-main/shared/agent.js';
import type { SearchHit } from '../../src-main/shared/gateway.js';
import { errorCode } from '../app/error-note.js';
import { useClient, useServerEvent } from '../app/connection-context.js';
import { SEARCH_DEBOUNCE_MS, searchIsPrefix } from '../skills/use-search.js';

/** Hits and discovered skills asked for per query. */
export const PALETTE_LIMITS = { hits: 24, discovered: 5 } as const;

export interface PaletteSearch {
  /** The (trimmed) query these answers are for; '' when nothing is typed. */
  query: string;
  discovered: DiscoverResult[];
  /** Better matches of a role discover leaves out of a direct call (a sidecar): "also: artifact-checksum, a sidecar, 0.88". */
  also: DiscoverResult[];
  hits: SearchHit[];
  error: Error | null;
  /** A newer query is on its way. */
  stale: boolean;
}

/** Both answers for `text`; a query with no searchable word (E004) simply finds nothing. */
export function usePaletteSearch(text: string): PaletteSearch {
  const client = useClient();
  const query = text.trim();
  const prefix = searchIsPrefix(text);
  const [state, setState] = useState<Omit<PaletteSearch, 'stale'>>({ query: '', discovered: [], also: [], hits: [], error: null });
  const [changes, setChanges] = useState(0);
  const sequence = useRef(0);

  useServerEvent((event) => {
    if (event.type === 'skills.changed' || event.type === 'settings') setChanges((n) => n + 1);
  });

  useEffect(() => {
    const mine = ++sequence.current;
    if (query === '') {
      setState({ query: '', discovered: [], also: [], hits: [], error: null });
      return;
    }
    const timer = setTimeout(() => {
      const nothingFor = (error: unknown) => (errorCode(error) === 'E004' ? [] : Promise.reject(error));
      Promise.all([
        client.discover({ intent: query, limit: PALETTE_LIMITS.discovered }),
        client.searchAll({ query, prefix, limit: PALETTE_LIMITS.hits }).then((r) => r.results, nothingFor),
      ]).then(
        ([found, hits]) => mine === sequence.current && setState({ query, discovered: found.results, also: found.also, hits, error: null }),
        (error: unknown) =>
          mine === sequence.current &&
          setState({ query, discovered: [], also: [], hits: [], error: error instanceof Error ? error : new Error(String(error)) }),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [client, query, prefix, changes]);

  return { ...state, stale: state.query !== query };
}
