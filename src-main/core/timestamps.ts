/**
 * The one timestamp format of logs and index metadata, RFC 3339 UTC to the second
 * (`YYYY-MM-DDTHH:MM:SSZ`), and the parser for the `--since`/`--until` filters of RFC-0003.
 */

/** `YYYY-MM-DDTHH:MM:SSZ` for `date`. */
export function utcSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function validDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Milliseconds since the epoch of an RFC 3339 date-time (any offset, optional fraction) or of a
 * date-only `YYYY-MM-DD` (start of that day, UTC); null when the text is neither.
 */
export function parseTimestamp(text: string): number | null {
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const [year, month, day] = dateOnly.slice(1, 4).map(Number) as [number, number, number];
    return validDate(year, month, day) ? Date.UTC(year, month - 1, day) : null;
  }
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const fraction = match[7] === undefined ? 0 : Math.floor(Number(`0${match[7]}`) * 1000);
  const zone = match[8] as string;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const [hours, minutes] = zone.slice(1).split(':').map(Number) as [number, number];
    if (hours > 23 || minutes > 59) return null;
    offset = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, fraction) - offset;
}
