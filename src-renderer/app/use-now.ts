/** A clock for countdowns and "3 s ago" labels: re-renders every `intervalMs` while mounted. */
import { useEffect, useState } from 'react';

/** `Date.now()`, refreshed every `intervalMs`. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
