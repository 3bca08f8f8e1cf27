/** Search-as-you-type over every skill: lightly debounced, latest wins, rerun when skills change on disk. */
import { useEffect, useRef, useState } from 'react';
import type { SearchHit } from '../../src-main/shared/gateway.js';
import { useClient, useServerEvent } from '../app/connection-context.js';

/** Wait this long after a keystroke before asking, so a burst of typing asks once. */
export const SEARCH_DEBOUNCE_MS = 40;

/** Hits asked for per query. */
export const SEARCH_LIMIT = 40;

export interface SearchState {
  /** The (trimmed) query these hits answer; '' when not searching. */
  query: string;
  /** Whether they answer it as typed so far (the last word a prefix) or as complete words. */
  prefix: boolean;
  hits: SearchHit[];
  error: Error | null;
  /** A newer query is on its way. */
  stale: boolean;
  /** While the catalog every search reads is being built (a cold start), how far it has got. */
  indexing: IndexProgress | null;
}

export interface IndexProgress {
  done: number;
  total: number;
}

/** `Indexing 1,250 of 10,000 skills for search…`, as the CLI says it on a terminal. */
export function indexingText({ done, total }: IndexProgress): string {
  return `Indexing ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} skills for search…`;
}

/**
 * Whether the last word is still being typed: yes unless the text ends with a space, which says the
 * word is complete — then the search is the full one, stemmed, as `skilltray search --all` runs it.
 */
export function searchIsPrefix(text: string): boolean {
  return !/\s$/.test(text);
}

/** Results for `text` (trimmed); only the answer to the newest query is ever shown. */
export function useSearch(text: string): SearchState {
  const client = useClient();
  const query = text.trim();
  const prefix = searchIsPrefix(text);
  const [state, setState] = useState<Omit<SearchState, 'stale' | 'indexing'>>({ query: '', prefix: true, hits: [], error: null });
  const [changes, setChanges] = useState(0);
  const [indexing, setIndexing] = useState<IndexProgress | null>(null);
  const sequence = useRef(0);

  useServerEvent((event) => {
    if (event.type === 'skills.changed') setChanges((n) => n + 1);
    if (event.type === 'index.progress') setIndexing(event.done < event.total ? { done: event.done, total: event.total } : null);
  });

  useEffect(() => {
    const mine = ++sequence.current;
    if (query === '') {
      setState({ query: '', prefix, hits: [], error: null });
      return;
    }
    const timer = setTimeout(() => {
      client.searchAll({ query, prefix, limit: SEARCH_LIMIT }).then(
        (result) => mine === sequence.current && setState({ query, prefix, hits: result.results, error: null }),
        (error: unknown) => {
          if (mine === sequence.current) setState({ query, prefix, hits: [], error: error instanceof Error ? error : new Error(String(error)) });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [client, query, prefix, changes]);

  return { ...state, stale: state.query !== query || state.prefix !== prefix, indexing };
}
