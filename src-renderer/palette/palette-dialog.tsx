/**
 * The palette over any screen: Ctrl+K (⌘K on macOS) opens it in every window, as does the top
 * bar's button and a search hit's Run action; a modal dialog, so focus stays in it and returns
 * where it was when it closes.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { isMac } from '../app/platform.js';
import { useConnection } from '../app/connection-context.js';
import { OpenPaletteContext, type PaletteTarget } from '../app/open-palette.js';
import { Palette } from './palette.js';
import { opensPalette } from './palette-keys.js';

function PaletteDialog({ target, onClose }: { target: PaletteTarget | null; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
    return () => el?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="palette-dialog"
      aria-label="Command palette"
      // The palette answers Esc itself (back from a form first); an Esc it did not take closes it.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
    >
      <Palette target={target} onClose={onClose} />
    </dialog>
  );
}

/**
 * Listens for the palette's key in this window and shows the palette when asked; where the palette is the whole window (`inline`), the key returns to its
 * search box.
 */
export function PaletteProvider({ inline = false, children }: { inline?: boolean; children: ReactNode }) {
  const connection = useConnection();
  const mac = isMac(connection.platform);
  const [state, setState] = useState<{ open: boolean; target: PaletteTarget | null; n: number }>({ open: false, target: null, n: 0 });
  const open = useCallback((target?: PaletteTarget) => setState((prev) => ({ open: true, target: target ?? null, n: prev.n + 1 })), []);
  const close = useCallback(() => setState((prev) => ({ ...prev, open: false })), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.repeat || !opensPalette(event, mac)) return;
      event.preventDefault();
      if (inline) document.querySelector<HTMLInputElement>('.palette-input')?.focus();
      else open();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [mac, open, inline]);

  return (
    <OpenPaletteContext.Provider value={open}>
      {children}
      {state.open ? <PaletteDialog key={state.n} target={state.target} onClose={close} /> : null}
    </OpenPaletteContext.Provider>
  );
}
