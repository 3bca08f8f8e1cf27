/** The person's voice settings and what this computer can hear and say, live through `voice` events. */
import { useEffect, useState } from 'react';
import type { VoiceSettings, VoiceStatus } from '../../src-main/shared/voice.js';
import { useServerEvent } from '../app/connection-context.js';
import { useResource } from '../app/use-resource.js';

export interface Voice {
  settings: VoiceSettings | undefined;
  status: VoiceStatus | undefined;
  error: Error | null;
  set: (settings: VoiceSettings) => void;
  reload: () => void;
}

export function useVoice(): Voice {
  const loaded = useResource('voice', (client) => client.voice({}));
  const [settings, setSettings] = useState<VoiceSettings | undefined>(undefined);
  useEffect(() => {
    if (loaded.data) setSettings(loaded.data.settings);
  }, [loaded.data]);
  useServerEvent((event) => {
    if (event.type === 'voice') setSettings(event.settings);
  });
  return { settings, status: loaded.data?.status, error: loaded.error, set: setSettings, reload: loaded.reload };
}
