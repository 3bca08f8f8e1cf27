/**
 * Browser mode's hotkeys for the newest request (the desktop app registers them globally in main):
 * the accelerators set in Settings › Voice, heard while this tab has focus. The core decides what a
 * press does (a writing tool runs only on a second press within two seconds); the answer is announced.
 */
import { useEffect, useState } from 'react';
import { shortcutFromKeys } from '../../src-main/shared/shortcut.js';
import { isMac } from '../app/platform.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient, useConnection } from '../app/connection-context.js';
import { useVoice } from './use-voice.js';

export function AnswerHotkeys() {
  const client = useClient();
  const announce = useAnnounce();
  const { kind, platform } = useConnection();
  const { settings } = useVoice();
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (kind !== 'browser' || settings === undefined) return;
    const mac = isMac(platform);
    const onKey = (event: KeyboardEvent): void => {
      if (event.repeat) return;
      const pressed = shortcutFromKeys(event, mac);
      const verdict = pressed === null ? null : pressed === settings.runShortcut ? 'run' : pressed === settings.denyShortcut ? 'deny' : null;
      if (verdict === null) return;
      event.preventDefault();
      client.answerNewestApproval({ verdict }).then(
        (answer) => {
          setSaid(answer.say);
          announce(answer.say);
        },
        (error: Error) => setSaid(error.message),
      );
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [kind, platform, settings, client, announce]);
  return said === '' ? null : (
    <div className="hotkey-toast" role="status">
      {said}
      <button type="button" className="button button-quiet" onClick={() => setSaid('')} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
