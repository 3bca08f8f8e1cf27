/**
 * `#/history`: runs, newest first, filtered by skill, status and surface; one run's details beside
 * them, or, in a narrow window, instead of them (Back, or All runs, returns to the run picked).
 */
import { useEffect, useId, useRef } from 'react';
import { RUN_STATUSES, SURFACES, type RunSummary } from '../../src-main/shared/runs.js';
import { ErrorNote } from '../app/error-note.js';
import { formatDuration, formatShort, formatTime } from '../app/format.js';
import { routeHref, type HistoryFilter, type UnknownFilter } from '../app/route.js';
import { UnknownFilters } from '../app/unknown-filters.js';
import { useResource } from '../app/use-resource.js';
import { RunDetails } from './run-details.js';
import { STATUS_TONES, decisionShort } from '../runs/run-status.js';

/** Runs shown per page of history. */
export const HISTORY_LIMIT = 200;

function FilterSelect({ label, value, values, onChange }: { label: string; value: string; values: readonly string[]; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field field-inline">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </div>
  );
}

/** One run in the list: when, what, from where, how it ended; its name opens it beside the list. */
function RunRow({ r, current, href, onPick }: { r: RunSummary; current: boolean; href: string; onPick: () => void }) {
  return (
    <tr data-run={r.id} aria-current={current ? 'true' : undefined}>
      <td className="nowrap" data-label="Requested">
        <time dateTime={new Date(r.requestedAt).toISOString()} title={formatTime(r.requestedAt)}>
          {formatShort(r.requestedAt)}
        </time>
      </td>
      <td className="stack-title" data-label="Skill / tool">
        <a href={href} onClick={onPick}>
          {r.skill} / {r.tool}
        </a>
      </td>
      <td data-label="Surface">{r.surface}</td>
      <td data-label="Status">
        <span className={`badge badge-${STATUS_TONES[r.status]}`}>{r.status}</span>
      </td>
      <td data-label="Decided by">{decisionShort(r)}</td>
      <td data-label="Exit">
        <code>{r.exitCode ?? '—'}</code>
      </td>
      <td className="nowrap" data-label="Duration">
        {r.durationMs === null ? '—' : formatDuration(r.durationMs)}
      </td>
    </tr>
  );
}

/** The list's filters: a skill, a status, a surface. */
function HistoryFilters({ filter, skillNames, refilter }: { filter: HistoryFilter; skillNames: string[]; refilter: (patch: Partial<HistoryFilter>) => void }) {
  return (
    <fieldset className="filters">
      <legend className="visually-hidden">Filters</legend>
      <FilterSelect label="Skill" value={filter.skill} values={skillNames} onChange={(skill) => refilter({ skill })} />
      <FilterSelect
        label="Status"
        value={filter.status ?? ''}
        values={RUN_STATUSES}
        onChange={(status) => refilter({ status: RUN_STATUSES.find((s) => s === status) ?? null })}
      />
      <FilterSelect
        label="Surface"
        value={filter.surface ?? ''}
        values={SURFACES}
        onChange={(surface) => refilter({ surface: SURFACES.find((s) => s === surface) ?? null })}
      />
    </fieldset>
  );
}

export function HistoryScreen({ filter, run, unknown = [] }: { filter: HistoryFilter; run: string | null; unknown?: readonly UnknownFilter[] }) {
  const key = JSON.stringify(filter);
  const runs = useResource(
    `history\n${key}`,
    (client) =>
      client.history({
        limit: HISTORY_LIMIT,
        ...(filter.skill === '' ? {} : { skill: filter.skill }),
        ...(filter.status === null ? {} : { status: filter.status }),
        ...(filter.surface === null ? {} : { surface: filter.surface }),
      }),
    (e) => e.type === 'run' && e.event.type !== 'output',
  );
  const skills = useResource(
    'skills',
    (client) => client.list({ limit: 10_000 }),
    (e) => e.type === 'skills.changed',
  );
  const skillNames = [...new Set([...(skills.data?.skills.map((s) => s.name) ?? []), ...(filter.skill === '' ? [] : [filter.skill])])].sort();

  // Filters live in the address; replace() changes it without piling up history entries.
  const refilter = (patch: Partial<HistoryFilter>): void => location.replace(routeHref({ screen: 'history', run, filter: { ...filter, ...patch } }));
  const listHref = routeHref({ screen: 'history', run: null, filter });

  // The run last opened from this list: back on the list, its row is where the person left it, with focus.
  const picked = useRef<string | null>(null);
  const table = useRef<HTMLTableElement>(null);
  const listed = runs.data !== undefined;
  useEffect(() => {
    // Beside the list, the row picked stays in sight as the list narrows around the details.
    const current = table.current?.querySelector<HTMLElement>('tr[aria-current="true"]');
    if (run !== null && current && current.offsetParent !== null) current.scrollIntoView({ block: 'nearest' });
    if (run !== null || picked.current === null || !listed) return;
    const link = table.current?.querySelector<HTMLElement>(`tr[data-run="${CSS.escape(picked.current)}"] a`);
    picked.current = null;
    if (!link) return;
    link.focus({ preventScroll: true });
    link.scrollIntoView({ block: 'center' });
  }, [run, listed]);

  return (
    <div className={`page history-page${run ? ' history-has-run' : ''}`}>
      <header className="page-head">
        <h1>History</h1>
        <p className="lede">Every run request, whoever asked and whatever was decided.</p>
      </header>
      <HistoryFilters filter={filter} skillNames={skillNames} refilter={refilter} />
      <UnknownFilters unknown={unknown} />
      {runs.error ? <ErrorNote error={runs.error} title="History could not be loaded" /> : null}
      <div className={run ? 'history-layout' : undefined}>
        <div className="table-wrap history-list">
          <table ref={table} className="runs stack-narrow">
            <caption className="visually-hidden">Runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Requested</th>
                <th scope="col">Skill / tool</th>
                <th scope="col">Surface</th>
                <th scope="col">Status</th>
                <th scope="col">Decided by</th>
                <th scope="col">Exit</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {(runs.data ?? []).map((r) => (
                <RunRow
                  key={r.id}
                  r={r}
                  current={r.id === run}
                  href={routeHref({ screen: 'history', run: r.id, filter })}
                  onPick={() => (picked.current = r.id)}
                />
              ))}
            </tbody>
          </table>
          {runs.data && runs.data.length === 0 ? <p className="empty">No runs match.</p> : null}
          {runs.data && runs.data.length === HISTORY_LIMIT ? (
            <p className="hint">Showing the newest {HISTORY_LIMIT}; narrow the filters to see older runs.</p>
          ) : null}
        </div>
        {run ? (
          <div className="history-detail">
            <a
              className="history-back"
              href={listHref}
              onClick={(event) => {
                // Opened from this list: going back returns to it as it was, without a new entry in Back.
                if (picked.current !== run) return;
                event.preventDefault();
                history.back();
              }}
            >
              <span aria-hidden="true">←</span> All runs
            </a>
            <RunDetails key={run} id={run} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
