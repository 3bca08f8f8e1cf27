/**
 * Keyboard shortcuts written as Electron accelerators (`CommandOrControl+Shift+Space`): checked
 * and normalised the same way in the core (the setting), in main (globalShortcut) and in the page
 * (recording one from a key press, showing one as the platform writes it).
 */

/** The palette's global shortcut until the person picks another. */
export const DEFAULT_PALETTE_SHORTCUT = 'CommandOrControl+Shift+Space';

/** Modifiers in the order they are written, with the spellings Electron accepts for each. */
const MODIFIERS: readonly { name: string; aliases: readonly string[] }[] = [
  { name: 'CommandOrControl', aliases: ['commandorcontrol', 'cmdorctrl'] },
  { name: 'Command', aliases: ['command', 'cmd'] },
  { name: 'Control', aliases: ['control', 'ctrl'] },
  { name: 'Super', aliases: ['super', 'meta'] },
  { name: 'Alt', aliases: ['alt', 'option'] },
  { name: 'AltGr', aliases: ['altgr'] },
  { name: 'Shift', aliases: ['shift'] },
];

const NAMED_KEYS = [
  'Plus',
  'Space',
  'Tab',
  'Backspace',
  'Delete',
  'Insert',
  'Return',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Escape',
  'PrintScreen',
  'VolumeUp',
  'VolumeDown',
  'VolumeMute',
  'MediaNextTrack',
  'MediaPreviousTrack',
  'MediaStop',
  'MediaPlayPause',
  'num0',
  'num1',
  'num2',
  'num3',
  'num4',
  'num5',
  'num6',
  'num7',
  'num8',
  'num9',
  'numdec',
  'numadd',
  'numsub',
  'nummult',
  'numdiv',
];
const KEY_ALIASES: ReadonlyMap<string, string> = new Map([
  ['enter', 'Return'],
  ['esc', 'Escape'],
]);
const PUNCTUATION = new Set([...')!@#$%^&*(:;=<,_->.?/~`{]}[|\\\'"']);

/** The key of an accelerator in Electron's spelling, or null when Electron has no such key. */
function normaliseKey(text: string): string | null {
  if (/^[a-z0-9]$/i.test(text)) return text.toUpperCase();
  if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(text)) return text.toUpperCase();
  if (PUNCTUATION.has(text)) return text;
  const lower = text.toLowerCase();
  return KEY_ALIASES.get(lower) ?? NAMED_KEYS.find((k) => k.toLowerCase() === lower) ?? null;
}

/** An accelerator's parts, or why it is not one. */
export type ParsedShortcut = { modifiers: string[]; key: string } | { error: string };

/**
 * Reads an accelerator: modifiers then one key, joined by `+` (`Plus` for the plus key). A global
 * shortcut needs a modifier other than Shift, or it would take a key away from every other app.
 */
export function parseShortcut(text: string): ParsedShortcut {
  const parts = text
    .trim()
    .split('+')
    .map((p) => p.trim());
  if (parts.some((p) => p === '')) return { error: `'${text}' is not a shortcut: write modifiers and a key joined by +, e.g. ${DEFAULT_PALETTE_SHORTCUT}` };
  const keyText = parts.pop() as string;
  const modifiers = new Set<string>();
  for (const part of parts) {
    const modifier = MODIFIERS.find((m) => m.aliases.includes(part.toLowerCase()));
    if (!modifier) return { error: `'${part}' is not a modifier: use ${MODIFIERS.map((m) => m.name).join(', ')}` };
    modifiers.add(modifier.name);
  }
  const key = normaliseKey(keyText);
  if (key === null) return { error: `'${keyText}' is not a key a shortcut can use` };
  if (![...modifiers].some((m) => m !== 'Shift'))
    return { error: `a global shortcut needs Ctrl, Cmd, Alt or Super, so it cannot take '${key}' from other apps` };
  return { modifiers: MODIFIERS.map((m) => m.name).filter((m) => modifiers.has(m)), key };
}

/** The canonical accelerator (modifiers in a fixed order, Electron's spellings), or null when `text` is not one. */
export function normaliseShortcut(text: string): string | null {
  const parsed = parseShortcut(text);
  return 'error' in parsed ? null : [...parsed.modifiers, parsed.key].join('+');
}

/** The parts of a keyboard event a shortcut is recorded from. */
export interface KeyPress {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** A press's key by its name in an accelerator (a Map: a key's name is any text the browser gives). */
const PRESSED_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({ ArrowUp: 'Up', ArrowDown: 'Down', ArrowLeft: 'Left', ArrowRight: 'Right', Enter: 'Return', '+': 'Plus' }),
);

/** The key of a press by its physical position where that is unambiguous, so Shift+2 is `2`, not `@`. */
function pressedKey(press: KeyPress): string | null {
  const code = /^(?:Key([A-Z])|Digit([0-9])|(F[0-9]{1,2})|Numpad([0-9]))$/.exec(press.code);
  if (code) return code[1] ?? code[2] ?? code[3] ?? (code[4] === undefined ? null : `num${code[4]}`);
  if (press.key === ' ') return 'Space';
  return normaliseKey(PRESSED_NAMES.get(press.key) ?? press.key);
}

/** The accelerator a key press makes (Cmd on macOS and Ctrl elsewhere become CommandOrControl), or null for a lone modifier or a press no shortcut can be. */
export function shortcutFromKeys(press: KeyPress, mac: boolean): string | null {
  const key = pressedKey(press);
  if (key === null) return null;
  const primary = mac ? press.metaKey : press.ctrlKey;
  const parts = [
    ...(primary ? ['CommandOrControl'] : []),
    ...(!mac && press.metaKey ? ['Super'] : []),
    ...(mac && press.ctrlKey ? ['Control'] : []),
    ...(press.altKey ? ['Alt'] : []),
    ...(press.shiftKey ? ['Shift'] : []),
    key,
  ];
  return normaliseShortcut(parts.join('+'));
}

const MAC_SYMBOLS: Record<string, string> = { CommandOrControl: '⌘', Command: '⌘', Control: '⌃', Super: '⌘', Alt: '⌥', AltGr: '⌥', Shift: '⇧' };
const PC_NAMES: Record<string, string> = {
  CommandOrControl: 'Ctrl',
  Command: 'Cmd',
  Control: 'Ctrl',
  Super: 'Super',
  Alt: 'Alt',
  AltGr: 'AltGr',
  Shift: 'Shift',
};

/** How a shortcut reads on this platform: `⌘⇧Space` on macOS, `Ctrl+Shift+Space` elsewhere; '' for none. */
export function formatShortcut(text: string, mac: boolean): string {
  const parsed = parseShortcut(text);
  if ('error' in parsed) return text;
  const key = parsed.key === 'Return' ? (mac ? '↩' : 'Enter') : parsed.key;
  return mac ? parsed.modifiers.map((m) => MAC_SYMBOLS[m]).join('') + key : [...parsed.modifiers.map((m) => PC_NAMES[m]), key].join('+');
}
