/** The folder runs started from this UI use: the one the person last chose, remembered in localStorage; empty means their home. */
import { useCallback, useState } from 'react';

/** localStorage key of the chosen folder. */
export const RUN_FOLDER_KEY = 'skilltray.runFolder';

function stored(): string {
  try {
    return localStorage.getItem(RUN_FOLDER_KEY) ?? '';
  } catch {
    return ''; // storage blocked: start from the home folder
  }
}

/** The remembered folder and its setter (which remembers it; '' forgets it). */
export function useRunFolder(): [string, (folder: string) => void] {
  const [folder, setFolder] = useState(stored);
  const remember = useCallback((next: string) => {
    setFolder(next);
    try {
      if (next.trim() === '') localStorage.removeItem(RUN_FOLDER_KEY);
      else localStorage.setItem(RUN_FOLDER_KEY, next.trim());
    } catch {
      // storage blocked: the choice lasts for this page only
    }
  }, []);
  return [folder, remember];
}
