/** The arming delay of one approval: counts from when it appeared, and again whenever its window regains focus. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ARM_DELAY_MS, isArmed } from './approval-keys.js';

/**
 * `armed` turns true ARM_DELAY_MS after mount and after each window focus or return to visibility,
 * so a click or key meant for the window that was in front cannot answer a request that just popped up.
 * `armedNow()` re-checks against the clock at the moment of a key press.
 */
export function useArmed(): { armed: boolean; armedNow: () => boolean } {
  const since = useRef(performance.now());
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      since.current = performance.now();
      setArmed(false);
      clearTimeout(timer);
      timer = setTimeout(() => setArmed(true), ARM_DELAY_MS);
    };
    const onVisibility = (): void => {
      if (document.visibilityState === 'visible') arm();
    };
    arm();
    window.addEventListener('focus', arm);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('focus', arm);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
  const armedNow = useCallback(() => isArmed(since.current, performance.now()), []);
  return { armed, armedNow };
}
