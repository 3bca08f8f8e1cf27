/**
 * Opening the command palette from any screen: the palette provides the way in (palette/palette-dialog.tsx) and a
 * screen asks through this context, so a screen the palette shows (a skill's search hits) need not import the palette.
 */
import { createContext, useContext } from 'react';

/** A tool the palette can open straight away (the Run action of a search hit). */
export interface PaletteTarget {
  skill: string;
  tool: string;
}

export const OpenPaletteContext = createContext<(target?: PaletteTarget) => void>(() => undefined);

/** Opens the palette, at a tool's form when one is given. */
export function useOpenPalette(): (target?: PaletteTarget) => void {
  return useContext(OpenPaletteContext);
}
