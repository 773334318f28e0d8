import type { Suggestion } from '@bvdb/contract';
import { useEffect, useRef, useState } from 'react';

export const SUGGESTIONS_FAILED = 'Failed to fetch suggestions. Please check your network.';
export const NO_SUGGESTIONS = 'No suggestions found. Please try a different query.';

type Fetcher = (query: string, signal: AbortSignal) => Promise<Suggestion[]>;

/**
 * Debounced suggestions for a query. Each new query aborts the request before it, and an answer is
 * only accepted for the query that is current, so a slow stale answer never overwrites a newer one.
 * No request is made for an empty query.
 */
export function useSuggestions(query: string, fetcher: Fetcher, enabled: boolean, delayMs = 200) {
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const latest = useRef(0);

  useEffect(() => {
    const q = query.trim();
    const ticket = ++latest.current;
    if (!enabled || q === '') {
      setSuggestions([]);
      setMessage(null);
      return undefined;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetcher(q, controller.signal).then(
        (list) => {
          if (ticket !== latest.current) return;
          setSuggestions(list);
          setMessage(list.length === 0 ? NO_SUGGESTIONS : null);
        },
        (err: unknown) => {
          if (ticket !== latest.current || (err instanceof DOMException && err.name === 'AbortError')) return;
          setSuggestions([]);
          setMessage(SUGGESTIONS_FAILED);
        },
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, fetcher, enabled, delayMs]);

  const clear = () => {
    latest.current++;
    setSuggestions([]);
    setMessage(null);
  };
  return { suggestions, message, clear };
}
