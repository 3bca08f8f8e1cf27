/**
 * The palette's answers as a listbox: tools, skills and sections in groups, each entry with what it
 * is and where it leads; the better matches of another role above them (as the CLI says them).
 */
import type { ReactNode } from 'react';
import { roleWords, type DiscoverResult } from '../../src-main/shared/agent.js';
import type { SearchHit } from '../../src-main/shared/gateway.js';
import { skillHref } from '../app/route.js';
import { Snippet } from '../skills/snippet.js';
import type { PaletteGroup, PaletteItem } from './palette-items.js';

/** Where a section hit leads: the section, or its file for text before the first heading. */
export function hitHref(hit: SearchHit): string {
  return hit.section === ''
    ? skillHref(hit.skill, { kind: 'file', path: hit.file })
    : skillHref(hit.skill, { kind: 'section', section: hit.section, file: hit.file });
}

/** A tool's one-line description in a list: its Markdown's code marks are not worth showing there. */
function oneLine(text: string): string {
  return text.replace(/`/g, '');
}

function Option({ item, id, active, onPick }: { item: PaletteItem; id: string; active: boolean; onPick: () => void }) {
  let body: ReactNode;
  if (item.kind === 'tool') {
    body = (
      <>
        <span className="palette-kind" aria-hidden="true">
          Run
        </span>
        <span className="palette-main">
          <span className="palette-title">
            <span className="palette-skill">{item.skill}</span>
            <span className="sep" aria-hidden="true">
              /
            </span>
            <code>{item.hit?.section === item.tool.name ? <Snippet text={item.hit.title} /> : item.tool.name}</code>
            {item.offered ? null : <span className="badge badge-quiet">not offered in this mode</span>}
          </span>
          {item.tool.description ? <span className="palette-detail">{oneLine(item.tool.description)}</span> : null}
        </span>
      </>
    );
  } else if (item.kind === 'skill') {
    body = (
      <>
        <span className="palette-kind palette-kind-skill" aria-hidden="true">
          Skill
        </span>
        <span className="palette-main">
          <span className="palette-title">{item.skill}</span>
          <span className="palette-detail">{item.reason ?? item.description}</span>
        </span>
      </>
    );
  } else {
    const { hit } = item;
    body = (
      <>
        <span className="palette-kind palette-kind-doc" aria-hidden="true">
          Doc
        </span>
        <span className="palette-main">
          <span className="palette-title">{hit.title === '' ? hit.file : <Snippet text={hit.title} />}</span>
          <span className="palette-where">{[hit.skill, hit.file, ...hit.trail].join(' › ')}</span>
          {hit.snippet ? (
            <span className="palette-detail">
              <Snippet text={hit.snippet} />
            </span>
          ) : null}
        </span>
      </>
    );
  }
  return (
    <div
      id={id}
      role="option"
      aria-selected={active}
      className={`palette-option${active ? ' palette-option-active' : ''}`}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onPick}
    >
      {body}
      {active ? (
        <kbd className="palette-enter" aria-hidden="true">
          ↵
        </kbd>
      ) : null}
    </div>
  );
}

/** Better matches in a role discover leaves out of a direct call, as the CLI says them: "also: artifact-checksum, a sidecar, 0.88". */
export function AlsoLines({ also, onOpen }: { also: readonly DiscoverResult[]; onOpen: () => void }) {
  if (also.length === 0) return null;
  return (
    <ul className="palette-also" aria-label="Better matches in another role">
      {also.map((found) => (
        <li key={found.name}>
          also:{' '}
          <a href={skillHref(found.name)} onClick={onOpen}>
            {found.name}
          </a>
          , {roleWords(found.role)}, {found.score.toFixed(2)}
        </li>
      ))}
    </ul>
  );
}

export interface ResultListProps {
  listId: string;
  /** The prefix of each option's id: the input's active descendant is `${optionId}-${index}`. */
  optionId: string;
  groups: readonly PaletteGroup[];
  /** The query these groups answer ('' when nothing is typed). */
  query: string;
  /** The index of the active entry over all groups. */
  current: number;
  /** Whether these are the answers to what is typed now (not a query still on its way). */
  answered: boolean;
  onPick: (item: PaletteItem) => void;
}

export function ResultList({ listId, optionId, groups, query, current, answered, onPick }: ResultListProps) {
  let index = 0;
  const empty = answered && query !== '' && groups.every((group) => group.items.length === 0);
  return (
    <>
      <div id={listId} role="listbox" aria-label="Results" className="palette-results" data-results-for={answered ? query : undefined} aria-busy={!answered}>
        {groups.map((group) => (
          <div key={group.label} role="group" aria-labelledby={`${listId}-${group.label}`} className="palette-group">
            <div id={`${listId}-${group.label}`} role="presentation" className="palette-group-label">
              {query === '' && group.label === 'Tools' ? 'Tools offered in this mode' : group.label}
            </div>
            {group.items.map((item) => {
              const i = index++;
              return <Option key={item.key} item={item} id={`${optionId}-${i}`} active={i === current} onPick={() => onPick(item)} />;
            })}
          </div>
        ))}
      </div>
      {empty ? <p className="empty">Nothing matches “{query}”. Try fewer or other words.</p> : null}
    </>
  );
}
