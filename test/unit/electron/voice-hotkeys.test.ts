import { describe, expect, it } from 'vitest';
import { microphoneAllowed } from '../../../src-main/electron/hardening.js';
import { setupVoiceHotkeys } from '../../../src-main/electron/voice-hotkeys.js';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import type { HotkeyAnswer, VoiceSettings } from '../../../src-main/shared/voice.js';

function registry(refuse: string[] = []) {
  const held = new Map<string, () => void>();
  return {
    held,
    register: (key: string, callback: () => void) => (refuse.includes(key) ? false : (held.set(key, callback), true)),
    unregister: (key: string) => void held.delete(key),
  };
}

describe('the approval hotkeys in the desktop app', () => {
  it('registers Run and Deny from the voice settings, answers through the core, tells the person, and follows changes', () => {
    const keys = registry(['Alt+F9']);
    let listener: ((event: ServerEvent) => void) | undefined;
    const pressed: string[] = [];
    const told: string[] = [];
    const unavailable: string[] = [];
    const settings: VoiceSettings = { enabled: false, runShortcut: 'Alt+F7', denyShortcut: 'Alt+F8' };
    const hotkeys = setupVoiceHotkeys({
      globalShortcut: keys,
      core: {
        voice: {
          settings: () => settings,
          hotkey: (verdict, actor): HotkeyAnswer => {
            pressed.push(`${verdict} by ${actor}`);
            return { outcome: 'answered', id: 'r1', say: `${verdict}: done` };
          },
        },
        on: (_event, l) => void (listener = l),
      },
      tell: (text) => void told.push(text),
      onUnavailable: (key, why) => void unavailable.push(`${key}: ${why}`),
    });
    expect(hotkeys.current()).toEqual({ run: 'Alt+F7', deny: 'Alt+F8' });
    keys.held.get('Alt+F7')?.();
    keys.held.get('Alt+F8')?.();
    expect(pressed).toEqual(['run by tray (hotkey)', 'deny by tray (hotkey)']);
    expect(told).toEqual(['run: done', 'deny: done']);
    listener?.({ type: 'voice', settings: { enabled: true, runShortcut: 'Alt+F9', denyShortcut: '' } });
    expect(hotkeys.current()).toEqual({ run: '', deny: '' });
    expect([...keys.held.keys()]).toEqual([]);
    expect(unavailable).toEqual(['Alt+F9: another application already uses it']);
  });
});

describe('the microphone permission', () => {
  const app = 'app://skilltray/index.html';
  it('is granted only for audio, to the app’s own top-level page, while voice is on', () => {
    expect(microphoneAllowed('media', { requestingUrl: app, isMainFrame: true, mediaTypes: ['audio'] }, true)).toBe(true);
    expect(microphoneAllowed('media', { requestingUrl: app, mediaType: 'audio' }, true)).toBe(true);
    expect(microphoneAllowed('media', { requestingUrl: app, isMainFrame: true, mediaTypes: ['audio'] }, false)).toBe(false);
    expect(microphoneAllowed('media', { requestingUrl: app, isMainFrame: true, mediaTypes: ['audio', 'video'] }, true)).toBe(false);
    expect(microphoneAllowed('media', { requestingUrl: app, isMainFrame: true, mediaTypes: [] }, true)).toBe(false);
    expect(microphoneAllowed('media', { requestingUrl: app, isMainFrame: false, mediaTypes: ['audio'] }, true)).toBe(false);
    expect(microphoneAllowed('media', { requestingUrl: 'https://example.com/', isMainFrame: true, mediaTypes: ['audio'] }, true)).toBe(false);
    expect(microphoneAllowed('media', { requestingUrl: 'app://skilltray.evil/', isMainFrame: true, mediaTypes: ['audio'] }, true)).toBe(false);
    expect(microphoneAllowed('notifications', { requestingUrl: app, isMainFrame: true }, true)).toBe(false);
    expect(microphoneAllowed('media', {}, true)).toBe(false);
  });
});
