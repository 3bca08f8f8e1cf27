/** Filters the address named that mean nothing on this screen: said on screen and left out, never shown as "no results". */
import { unknownFilterText, type UnknownFilter } from './route.js';

export function UnknownFilters({ unknown }: { unknown: readonly UnknownFilter[] }) {
  if (unknown.length === 0) return null;
  return (
    <div className="note note-warn unknown-filters" role="status">
      {unknown.map((u) => (
        <p key={`${u.key}=${u.value ?? ''}`}>{unknownFilterText(u)}</p>
      ))}
      <p className="muted">{unknown.length === 1 ? 'Left out, so it hides nothing.' : 'Left out, so they hide nothing.'}</p>
    </div>
  );
}
