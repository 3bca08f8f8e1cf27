/**
 * The command palette: type an intent or a name, pick a tool, skill or section from what discover
 * and the search over every skill answered, and — for a tool — fill its form and run it, with the
 * approval and the output in place. Everything from the keyboard; the core decides everything.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { roleWords, type DiscoverResult } from '../../src-main/shared/agent.js';
import type { SearchHit } from '../../src-main/shared/gateway.js';
import { isMac } from '../approvals/approval-keys.js';
import { useConnection } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { skillHref } from '../app/route.js';
import { useResource } from '../app/use-resource.js';
import { previewBlocks } from '../runs/run-preview.js';
import { RunPreviewLine } from '../runs/run-preview-line.js';
import { useRunPreview } from '../runs/use-run-preview.js';
import { ToolRun, useToolAttempt } from '../runs/tool-run.js';
import { SkillMarkdown } from '../skills/markdown.js';
import { ParamField } from '../skills/param-field.js';
import { Snippet } from '../skills/snippet.js';
import { toolArgs, type FormValue } from '../skills/tool-args.js';
import { FolderField, useFolderChoice } from '../skills/folder-field.js';
import { paletteGroups, type PaletteItem, type PaletteTool } from './palette-items.js';
import { moveActive, submitsForm } from './palette-keys.js';
import { usePaletteSearch } from './use-palette-search.js';

/** A tool the palette can open straight away (the Run action of a search hit). */
export interface PaletteTarget {
  skill: string;
  tool: string;
}

/** Where a section hit leads: the section, or its file for text before the first heading. */
function hitHref(hit: SearchHit): string {
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
function AlsoLines({ also, onOpen }: { also: readonly DiscoverResult[]; onOpen: () => void }) {
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

/** A tool's form inside the palette: defaults as placeholders, what the policy will do, Run, then the run in place. */
function ToolPane({ skill, tool, onBack }: { skill: string; tool: PaletteTool; onBack: () => void }) {
  const connection = useConnection();
  const mac = isMac(connection.platform);
  const titleId = useId();
  const previewId = useId();
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const { attempt, busy, start } = useToolAttempt(skill, tool.name);
  // The folder the skill last ran in; a skill that never ran asks for one, as on its page.
  const { cwd, setFolder, needsFolder } = useFolderChoice(skill);
  const args = toolArgs(tool.params, values);
  const preview = useRunPreview(skill, tool.name, args, cwd);
  const blocked = previewBlocks(preview) || needsFolder;
  const runButton = useRef<HTMLButtonElement>(null);
  const runArea = useRef<HTMLDivElement>(null);

  // With no field to fill, Enter should run at once: the Run button takes focus.
  useEffect(() => {
    if (tool.params.length === 0) runButton.current?.focus();
  }, [tool.params.length]);

  const run = (): void => {
    if (!blocked && !busy) start(args, cwd);
  };

  return (
    <section className="palette-tool" aria-labelledby={titleId}>
      <header className="palette-tool-head">
        <button type="button" className="button button-quiet palette-back" onClick={onBack}>
          <span aria-hidden="true">←</span> Results <kbd aria-hidden="true">Esc</kbd>
        </button>
        <h2 id={titleId}>
          <span className="palette-skill">{skill}</span>{' '}
          <span className="sep" aria-hidden="true">
            /
          </span>{' '}
          <code>{tool.name}</code>
        </h2>
      </header>
      {tool.description ? <SkillMarkdown skill={skill} file="SKILL.md" text={tool.description} /> : null}
      <form
        className="tool-form palette-form"
        aria-label={`Run ${tool.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
        onKeyDown={(event) => {
          if (!submitsForm(event, mac)) return;
          event.preventDefault();
          run();
        }}
      >
        {tool.params.map((param, i) => (
          <ParamField
            key={param.name}
            param={param}
            value={values[param.name]}
            autoFocus={i === 0}
            onChange={(value) => setValues((prev) => ({ ...prev, [param.name]: value }))}
          />
        ))}
        {tool.params.length === 0 ? <p className="muted">This tool takes no parameters.</p> : null}
        <FolderField skill={skill} cwd={cwd} setFolder={setFolder} needsFolder={needsFolder} />
        <RunPreviewLine preview={preview} id={previewId} />
        <div className="button-row">
          <button ref={runButton} type="submit" className="button button-primary" disabled={busy || blocked} aria-describedby={previewId}>
            {busy ? 'Running…' : `Run ${tool.name}`}
            <kbd aria-hidden="true">{mac ? '⌘↩' : 'Ctrl+Enter'}</kbd>
          </button>
          <a className="button button-quiet" href={skillHref(skill)}>
            Open {skill}
          </a>
        </div>
      </form>
      {attempt ? (
        <div className="tool-attempt" ref={runArea}>
          <ToolRun key={attempt.traceId} attempt={attempt} level={3} />
          <FocusOnArrival container={runArea} />
        </div>
      ) : null}
    </section>
  );
}

/** Moves focus to an approval card or a finished run's output as it appears, so the keyboard can answer or read it. */
function FocusOnArrival({ container }: { container: { current: HTMLElement | null } }) {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    const focusNew = (): void => {
      const target = root.querySelector<HTMLElement>('article.approval, pre.output[aria-label="Standard output"], .note-error');
      if (target && !target.contains(document.activeElement) && target.dataset.arrived !== 'yes') {
        target.dataset.arrived = 'yes';
        // Its top in view (the sentence says what would run; the answers stick to the bottom), not just its nearest edge.
        target.focus({ preventScroll: true });
        target.scrollIntoView({ block: 'start' });
      }
    };
    focusNew();
    const observer = new MutationObserver(focusNew);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [container]);
  return null;
}

/** Runs the empty palette looks at for the tools used lately. */
const RECENT_RUNS = 50;

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
  const list = skills.data?.skills ?? [];
  const groups = paletteGroups({ query: search.query, discovered: search.discovered, hits: search.hits, skills: list, recent: history.data ?? [] });
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

  let index = 0;
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
        <div className="palette-body">
          <p className="empty">
            No tool {open.skill}/{open.tool} is loaded.{' '}
            <button type="button" className="button button-quiet" onClick={back}>
              Back to results
            </button>
          </p>
        </div>
      ) : (
        <div className="palette-body" hidden={open !== null}>
          {search.error ? <ErrorNote error={search.error} title="The palette could not search" /> : null}
          {answered ? <AlsoLines also={search.also} onOpen={onClose} /> : null}
          {skills.error ? <ErrorNote error={skills.error} title="Skills could not be listed" /> : null}
          <div
            id={listId}
            role="listbox"
            aria-label="Results"
            className="palette-results"
            data-results-for={answered ? search.query : undefined}
            aria-busy={!answered}
          >
            {groups.map((group) => (
              <div key={group.label} role="group" aria-labelledby={`${listId}-${group.label}`} className="palette-group">
                <div id={`${listId}-${group.label}`} role="presentation" className="palette-group-label">
                  {search.query === '' && group.label === 'Tools' ? 'Tools offered in this mode' : group.label}
                </div>
                {group.items.map((item) => {
                  const i = index++;
                  return <Option key={item.key} item={item} id={`${optionId}-${i}`} active={i === current} onPick={() => pick(item)} />;
                })}
              </div>
            ))}
          </div>
          {answered && items.length === 0 && search.query !== '' ? <p className="empty">Nothing matches “{search.query}”. Try fewer or other words.</p> : null}
        </div>
      )}
      <footer className="palette-foot" aria-hidden="true">
        {open ? (
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
    </div>
  );
}
