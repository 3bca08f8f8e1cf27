/** The keys of the palette: Ctrl+K (⌘K on macOS) opens it in any window; inside, arrows move, Enter acts, Esc steps back. */

/** The parts of a KeyboardEvent the palette reads. */
export interface PaletteKeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** Whether a press opens the palette: the platform modifier and K, nothing else held. */
export function opensPalette(press: PaletteKeyPress, mac: boolean): boolean {
  const modifier = mac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  return modifier && !press.altKey && !press.shiftKey && press.key.toLowerCase() === 'k';
}

/** Whether a press runs the open tool form from any of its fields: the platform modifier and Enter. */
export function submitsForm(press: PaletteKeyPress, mac: boolean): boolean {
  const modifier = mac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  return modifier && !press.altKey && !press.shiftKey && press.key === 'Enter';
}

/** The next active index for an arrow, Home or End in a list of `count`, wrapping at the ends; null for other keys. */
export function moveActive(key: string, active: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowDown':
      return (active + 1) % count;
    case 'ArrowUp':
      return (active - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** The label of the palette's key on this platform. */
export function paletteKeyLabel(mac: boolean): string {
  return mac ? '⌘K' : 'Ctrl+K';
}
