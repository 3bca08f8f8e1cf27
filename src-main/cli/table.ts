/** Plain-text tables and cells for people reading a terminal. */
import { displayText } from '../shared/display-text.js';

/** Rows as aligned columns, two spaces apart; the last column is not padded. Cells are shown escaped (displayText), measured as shown. */
export function table(cells: string[][]): string {
  const rows = cells.map((r) => r.map(displayText));
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Text cut to `width` characters, an ellipsis marking the cut. */
export function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** A timestamp (ms) as local `YYYY-MM-DD HH:MM:SS`, the date always shown. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
