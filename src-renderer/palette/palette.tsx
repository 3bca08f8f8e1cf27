/**
 * The command palette: type an intent or a name, pick a tool, skill or section from what discover
 * and the search over every skill answered, and — for a tool — fill its form and run it, with the
 * approval and the output in place. Everything from the keyboard; the core decides everything.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { ErrorNote } from '../app/error-note.js';
import type { PaletteTarget } from '../app/open-palette.js';
import { skillHref } from '../app/route.js';
import { useResource } from '../app/use-resource.js';
import { paletteGroups, type PaletteItem } from './palette-items.js';
import { moveActive } from './palette-keys.js';
import { AlsoLines, ResultList, hitHref } from './palette-results.js';
import { ToolPane } from './palette-tool.js';
import { usePaletteSearch } from './use-palette-search.js';

/** Runs the empty palette looks at for the tools used lately. */
const RECENT_RUNS = 50;

/** Every skill (the tools a form opens from) and the tools run lately (what the empty palette offers first), kept current. */
function usePaletteSources() {
  const skills = useResource(
    'skills',
    (client) => client.list({ limit: 10_000 }),
    (e) => e.type === 'skills.changed' || e.type === 'settings',
  );
  const history = useResource(
    'palette-recent',
    (client) => client.history({ limit: RECENT_RUNS }),
    (e) => e.type === 'run' && e.event.type === 'finished',
  );
  return { skills, recent: history.data ?? [] };
}

/** A tool asked for (a search hit's Run) that no loaded skill has: the way back to the results. */
function NoSuchTool({ target, onBack }: { target: PaletteTarget; onBack: () => void }) {
  return (
    <div className="palette-body">
      <p className="empty">
        No tool {target.skill}/{target.tool} is loaded.{' '}
        <button type="button" className="button button-quiet" onClick={onBack}>
          Back to results
        </button>
      </p>
    </div>
  );
}

export interface PaletteProps {
  /** Closes the palette (Esc on the results, or after following a link). */
  onClose: () => void;
  /** Opens this tool's form at once. */
  target?: PaletteTarget | null;
}

export function Palette({ onClose, target = null }: PaletteProps) {
  const listId = useId();
  const optionId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState<PaletteTarget | null>(target);
  const search = usePaletteSearch(query);
  const { skills, recent } = usePaletteSources();
  const list = skills.data?.skills ?? [];
  const groups = paletteGroups({ query: search.query, discovered: search.discovered, hits: search.hits, skills: list, recent });
  const items = groups.flatMap((g) => g.items);
  const current = Math.min(active, Math.max(0, items.length - 1));
  const openTool = open ? list.find((s) => s.name === open.skill)?.tools.find((t) => t.name === open.tool) : undefined;
  const answered = !search.stale && skills.data !== undefined;

  // Each new answer starts at its best entry.
  useEffect(() => setActive(0), [search.query]);

  const pick = (item: PaletteItem): void => {
    if (item.kind === 'tool') {
      setOpen({ skill: item.skill, tool: item.tool.name });
      return;
    }
    location.hash = item.kind === 'skill' ? skillHref(item.skill) : hitHref(item.hit);
    onClose();
  };

  const back = (): void => {
    // Synchronously, so focus moves to the search box before the form it was in goes away.
    flushSync(() => setOpen(null));
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    if (open) back();
    else onClose();
  };

  const onInputKey = (event: KeyboardEvent<HTMLInputElement>): void => {
    const next = moveActive(event.key, current, items.length);
    if (next !== null && !(event.key === 'Home' || event.key === 'End')) {
      event.preventDefault();
      setActive(next);
      document.getElementById(`${optionId}-${next}`)?.scrollIntoView({ block: 'nearest' });
      return;
    }
    if (event.key === 'Enter') {
      const item = items[current];
      if (item) {
        event.preventDefault();
        pick(item);
      }
    }
  };

  return (
    <div className="palette" onKeyDown={onKeyDown}>
      <div className="palette-search" hidden={open !== null}>
        <input
          ref={input}
          className="palette-input"
          role="combobox"
          aria-label="Command palette"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={items.length > 0 ? `${optionId}-${current}` : undefined}
          placeholder="What do you want to do?"
          autoComplete="off"
          spellCheck={false}
          autoFocus={open === null}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onInputKey}
        />
        <kbd className="palette-esc" aria-hidden="true">
          Esc
        </kbd>
      </div>
      {open && openTool ? (
        <div className="palette-body">
          <ToolPane key={`${open.skill}/${open.tool}`} skill={open.skill} tool={openTool} onBack={back} />
        </div>
      ) : open && skills.data ? (
        <NoSuchTool target={open} onBack={back} />
      ) : (
        <div className="palette-body" hidden={open !== null}>
          {search.error ? <ErrorNote error={search.error} title="The palette could not search" /> : null}
          {answered ? <AlsoLines also={search.also} onOpen={onClose} /> : null}
          {skills.error ? <ErrorNote error={skills.error} title="Skills could not be listed" /> : null}
          <ResultList listId={listId} optionId={optionId} groups={groups} query={search.query} current={current} answered={answered} onPick={pick} />
        </div>
      )}
      <PaletteFoot inForm={open !== null} />
    </div>
  );
}

/** The keys that work where the focus is: in a tool's form, or on the results. */
function PaletteFoot({ inForm }: { inForm: boolean }) {
  return (
    <footer className="palette-foot" aria-hidden="true">
      {inForm ? (
        <>
          <span>
            <kbd>Tab</kbd> fields
          </span>
          <span>
            <kbd>↵</kbd> run
          </span>
          <span>
            <kbd>Esc</kbd> back
          </span>
        </>
      ) : (
        <>
          <span>
            <kbd>↑</kbd>
            <kbd>↓</kbd> move
          </span>
          <span>
            <kbd>↵</kbd> open or run
          </span>
          <span>
            <kbd>Esc</kbd> close
          </span>
        </>
      )}
    </footer>
  );
}
