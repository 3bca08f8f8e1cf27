/** Mode and pause as the app has them, live through `settings` events. */
import { useEffect, useState } from 'react';
import type { Settings } from '../../src-main/shared/runs.js';
import { useServerEvent } from './connection-context.js';
import { useResource } from './use-resource.js';

/** The current settings (undefined until loaded), and a setter for the value an operation returned. */
export function useSettings(): { settings: Settings | undefined; error: Error | null; set: (settings: Settings) => void } {
  const loaded = useResource('settings', (client) => client.settings({}));
  const [settings, setSettings] = useState<Settings | undefined>(undefined);
  useEffect(() => {
    if (loaded.data) setSettings(loaded.data);
  }, [loaded.data]);
  useServerEvent((event) => {
    if (event.type === 'settings') setSettings(event.settings);
  });
  return { settings, error: loaded.error, set: setSettings };
}
