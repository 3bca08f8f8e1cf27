/** `#/skills`: every skill, filters, and search-as-you-type across all of them. */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchHit, ToolBrief } from '../../src-main/shared/gateway.js';
import { toolNeeds } from '../../src-main/shared/search-text.js';
import type { SkillSummary } from '../../src-main/shared/model.js';
import { errorCode, ErrorNote } from '../app/error-note.js';
import { NO_SKILL_FILTER, routeHref, skillHref, type SkillFilter, type UnknownFilter } from '../app/route.js';
import { UnknownFilters } from '../app/unknown-filters.js';
import { useResource } from '../app/use-resource.js';
import { useOpenPalette } from '../app/open-palette.js';
import { DiagnosticsList } from './diagnostics-list.js';
import { activeFilters, filterChoices, isFiltering, matchesFilter, unknownInList, withoutUnknown } from './skill-filters.js';
import { SkillSwitch } from './skill-switch.js';
import { Snippet } from './snippet.js';
import { indexingText, useSearch } from './use-search.js';

/** Where a hit leads: its section, or the file itself for text before the first heading. */
function hitHref(hit: SearchHit): string {
  return hit.section === '' ? skillHref(hit.skill, { kind: 'file', path: hit.file }) : skillHref(hit.skill, { kind: 'section', section: hit.section, file: hit.file });
}

/** A run of hits shown under one heading: tools, or one skill's sections. */
interface HitGroup {
  /** The skill whose sections these are; null for tools. */
  skill: string | null;
  hits: SearchHit[];
}

/** Consecutive tool hits, or consecutive sections of one skill, as one group, in the core's order (it puts tools first and groups sections by skill). */
function hitGroups(hits: readonly SearchHit[]): HitGroup[] {
  const groups: HitGroup[] = [];
  for (const hit of hits) {
    const skill = hit.tool === null ? hit.skill : null;
    const last = groups[groups.length - 1];
    if (last && last.skill === skill) last.hits.push(hit);
    else groups.push({ skill, hits: [hit] });
  }
  return groups;
}

function RunButton({ skill, tool, onRun }: { skill: string; tool: string; onRun: (target: { skill: string; tool: string }) => void }) {
  return (
    <button type="button" className="button button-small hit-run" onClick={() => onRun({ skill, tool })} aria-label={`Run ${skill} ${tool}`}>
      <span aria-hidden="true">▶</span> Run {tool}
    </button>
  );
}

/** The text around a hit's match, when there is any. */
function HitSnippet({ text }: { text: string }) {
  return text === '' ? null : (
    <p className="snippet">
      <Snippet text={text} />
    </p>
  );
}

/** A hit on a tool: the tool itself — its name, what it does, what running it takes — and Run. */
function ToolHit({ hit, tool }: { hit: SearchHit; tool: ToolBrief }) {
  const openPalette = useOpenPalette();
  return (
    <li className="hit hit-tool" data-skill={hit.skill} data-tool={tool.name}>
      <div className="hit-head">
        <a className="hit-link" href={hitHref(hit)}>
          <code>
            <Snippet text={hit.title} />
          </code>
        </a>
        <span className="muted hit-skill">{hit.skill}</span>
        <RunButton skill={hit.skill} tool={tool.name} onRun={openPalette} />
      </div>
      {tool.summary !== '' ? <p className="hit-summary">{tool.summary}</p> : null}
      <p className="hit-where">{toolNeeds(tool)}</p>
      <HitSnippet text={hit.snippet} />
    </li>
  );
}

/** A hit on a section: titled by the heading it sits under and its own, where it is, and the text around the match. */
function SectionHit({ hit }: { hit: SearchHit }) {
  return (
    <li className="hit" data-skill={hit.skill} data-section={hit.section}>
      <div className="hit-head">
        <a className="hit-link" href={hitHref(hit)}>
          {hit.section === '' ? <code>{hit.file}</code> : <Snippet text={hit.title} />}
        </a>
      </div>
      {hit.section !== '' ? <p className="hit-where">{[hit.file, ...hit.trail].join(' › ')}</p> : null}
      <HitSnippet text={hit.snippet} />
    </li>
  );
}

function MatchCount({ count }: { count: number }) {
  return (
    <span className="muted">
      {count} {count === 1 ? 'match' : 'matches'}
    </span>
  );
}

/** The hits as the core ordered them: tools (the tool, its line, what it takes, Run), then sections under their skill. */
function Hits({ hits, query }: { hits: SearchHit[]; query: string }) {
  if (hits.length === 0) return <p className="empty">Nothing matches “{query}”.</p>;
  return (
    <ol className="hit-groups">
      {hitGroups(hits).map((group, g) => (
        <li key={`${group.skill ?? ''}\n${g}`} className="hit-group" aria-labelledby={`hits-${g}`}>
          <h2 id={`hits-${g}`} className="hit-group-title">
            {group.skill === null ? 'Tools' : <a href={skillHref(group.skill)}>{group.skill}</a>}
            <MatchCount count={group.hits.length} />
          </h2>
          <ol className="hits">
            {group.hits.map((hit) =>
              hit.tool === null ? <SectionHit key={`${hit.file}\n${hit.section}\n${hit.line}`} hit={hit} /> : <ToolHit key={`${hit.skill}\n${hit.tool.name}`} hit={hit} tool={hit.tool} />,
            )}
          </ol>
        </li>
      ))}
    </ol>
  );
}

function SkillRow({ skill }: { skill: SkillSummary }) {
  const broken = skill.status === 'error';
  return (
    <li className={`skill-row${broken ? ' skill-row-broken' : ''}`}>
      <div className="skill-row-head">
        <a className="skill-name" href={skillHref(skill.name)}>
          {skill.name}
        </a>
        {skill.version ? <span className="version">v{skill.version}</span> : null}
        <span className="badges">
          {broken ? <span className="badge badge-bad">broken</span> : skill.status === 'warnings' ? <span className="badge badge-warn">warnings</span> : null}
          <span className={`badge ${skill.trust === 'bundled' ? 'badge-info' : 'badge-neutral'}`}>{skill.trust}</span>
          {skill.role ? <span className="badge badge-neutral">{skill.role}</span> : null}
          {skill.lifecycle ? <span className="badge badge-neutral">{skill.lifecycle}</span> : null}
          {!skill.enabled ? <span className="badge badge-warn">turned off</span> : skill.offered ? null : <span className="badge badge-quiet">not offered in this mode</span>}
        </span>
        <SkillSwitch skill={skill} />
      </div>
      {skill.description ? <p className="skill-desc">{skill.description}</p> : null}
      <p className="skill-meta muted">
        {skill.tools.length === 0 ? 'no tools' : `${skill.tools.length} ${skill.tools.length === 1 ? 'tool' : 'tools'}: ${skill.tools.map((t) => t.name).join(', ')}`} · modes{' '}
        {skill.modes.join(', ') || 'none'} · {skill.root.kind} root
      </p>
      {broken ? <DiagnosticsList diagnostics={skill.diagnostics} dir={skill.path} label={`Diagnostics of ${skill.name}`} /> : null}
    </li>
  );
}

type Options = [string, string][];

interface SelectProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: Options | Record<string, Options>;
}

function Select({ label, value, onChange, options }: SelectProps) {
  const id = useId();
  const render = (list: Options) =>
    list.map(([v, text]) => (
      <option key={v} value={v}>
        {text}
      </option>
    ));
  return (
    <div className="field field-inline">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any</option>
        {Array.isArray(options)
          ? render(options)
          : Object.entries(options).map(([group, list]) => (
              <optgroup key={group} label={group}>
                {render(list)}
              </optgroup>
            ))}
      </select>
    </div>
  );
}

/** What the filters offer: the values the loaded skills have. */
type FilterChoices = ReturnType<typeof filterChoices>;

/** The filters over the list and the search's hits; below 600 px folded behind one button, so the first skills are on the first screen. */
function SkillFilters({ filter, choices, set }: { filter: SkillFilter; choices: FilterChoices; set: (patch: Partial<SkillFilter>) => void }) {
  const filtersId = useId();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtering = isFiltering(filter);
  return (
    <>
        <button
          type="button"
          className="button button-quiet filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls={filtersId}
          onClick={() => setFiltersOpen((open) => !open)}
        >
          Filters{filtering ? ` · ${activeFilters(filter)} on` : ''} <span aria-hidden="true">{filtersOpen ? '▴' : '▾'}</span>
        </button>
        <fieldset id={filtersId} className={`filters${filtersOpen ? ' filters-open' : ''}`}>
          <legend className="visually-hidden">Filters</legend>
          <label className="check">
            <input type="checkbox" checked={filter.offered} onChange={(e) => set({ offered: e.target.checked })} />
            Offered in this mode
          </label>
          <Select
            label="Source"
            value={filter.source}
            onChange={(source) => set({ source })}
            options={{
              Trust: [
                ['trust:bundled', 'bundled'],
                ['trust:user', 'user'],
              ],
              Root: choices.rootKinds.map((k): [string, string] => [k, `${k} root`]),
            }}
          />
          <Select label="Role" value={filter.role} onChange={(role) => set({ role })} options={choices.roles.map((r): [string, string] => [r, r])} />
          <Select label="Status" value={filter.status} onChange={(status) => set({ status })} options={choices.statuses.map((s): [string, string] => [s, s])} />
          <Select
            label="Health"
            value={filter.health}
            onChange={(health) => set({ health })}
            options={[
              ['ok', 'OK'],
              ['warnings', 'Warnings'],
              ['error', 'Broken'],
            ]}
          />
          {filtering ? (
            <button type="button" className="button button-quiet" onClick={() => set(NO_SKILL_FILTER)}>
              Clear filters
            </button>
          ) : null}
        </fieldset>
    </>
  );
}

export function SkillsScreen({
  initialQuery,
  initialFilter,
  initialUnknown = [],
}: {
  initialQuery: string;
  initialFilter: SkillFilter;
  initialUnknown?: readonly UnknownFilter[];
}) {
  const [query, setQuery] = useState(initialQuery);
  const [chosen, setFilter] = useState(initialFilter);
  // What the address said that means nothing, until the person sets the filters themselves.
  const [addressUnknown, setAddressUnknown] = useState(initialUnknown);
  const searchId = useId();
  const resultsRef = useRef<HTMLElement>(null);
  const list = useResource('skills', (client) => client.list({ limit: 10_000 }), (e) => e.type === 'skills.changed' || e.type === 'settings');
  const search = useSearch(query);
  const listUnknown = unknownInList(chosen, list.data?.skills);
  const filter = withoutUnknown(chosen, listUnknown);
  const unknown = [...addressUnknown, ...listUnknown];

  // The address follows the query and filters without adding history entries, so Back returns here as left.
  const address = routeHref({ screen: 'skills', query, filter });
  useEffect(() => {
    history.replaceState(history.state, '', address);
  }, [address]);

  const skills = list.data?.skills ?? [];
  const choices = filterChoices(skills);
  const shown = skills.filter((s) => matchesFilter(s, filter));
  const passing = new Set(shown.map((s) => s.name));
  const filtering = isFiltering(filter);
  const hits = filtering && list.data ? search.hits.filter((h) => passing.has(h.skill)) : search.hits;
  const set = (patch: Partial<SkillFilter>) => {
    setAddressUnknown([]);
    setFilter((prev) => ({ ...prev, ...patch }));
  };

  const toResults = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key !== 'ArrowDown') return;
    const first = resultsRef.current?.querySelector<HTMLElement>('a');
    if (first) {
      event.preventDefault();
      first.focus();
    }
  };

  const searching = query.trim() !== '';
  const emptyQuery = errorCode(search.error) === 'E004';
  return (
    <div className="page">
      <header className="page-head">
        <h1>Skills</h1>
        <p className="lede">{list.data ? `${list.data.total} skills loaded${filtering ? `, ${shown.length} match the filters` : ''}.` : 'Loading skills…'}</p>
      </header>

      <div role="search" className="search">
        <label htmlFor={searchId} className="visually-hidden">
          Search every skill
        </label>
        <input
          id={searchId}
          type="search"
          className="search-input"
          placeholder="Search every skill…"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={toResults}
          aria-describedby={`${searchId}-hint`}
        />
        <p id={`${searchId}-hint`} className="hint">
          Matches sections and files as you type (end with a space to match whole words); <kbd>↓</kbd> moves to the results.
        </p>
      </div>

      <SkillFilters filter={filter} choices={choices} set={set} />

      <UnknownFilters unknown={unknown} />
      {list.error ? <ErrorNote error={list.error} title="Skills could not be listed" /> : null}

      {searching ? (
        <section ref={resultsRef} className="results" aria-label="Search results" aria-busy={search.stale} data-results-for={search.query} data-results-mode={search.prefix ? 'prefix' : 'full'}>
          <p className="results-count" role="status">
            {search.stale && search.indexing !== null ? indexingText(search.indexing) : search.stale && search.query === '' ? 'Searching…' : emptyQuery ? 'Type a letter or digit to search.' : `${hits.length} ${hits.length === 1 ? 'result' : 'results'} for “${search.query}”`}
          </p>
          {search.error && !emptyQuery ? <ErrorNote error={search.error} title="Search failed" /> : search.query !== '' && !emptyQuery ? <Hits hits={hits} query={search.query} /> : null}
        </section>
      ) : (
        <section aria-label="All skills">
          <ul className="skill-list">
            {shown.map((skill) => (
              <SkillRow key={skill.name} skill={skill} />
            ))}
          </ul>
          {list.data && shown.length === 0 ? <p className="empty">No skill matches these filters.</p> : null}
        </section>
      )}
    </div>
  );
}
