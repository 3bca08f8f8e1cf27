/**
 * A tool's form inside the palette, from the keyboard: defaults as placeholders, what the policy will
 * do, Run (Ctrl+Enter or ⌘↩ from any field), then the approval and the run in place, focused as they arrive.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useConnection } from '../app/connection-context.js';
import { isMac } from '../app/platform.js';
import { skillHref } from '../app/route.js';
import { previewBlocks } from '../runs/run-preview.js';
import { RunPreviewLine } from '../runs/run-preview-line.js';
import { useRunPreview } from '../runs/use-run-preview.js';
import { SkillMarkdown } from '../skills/markdown.js';
import { FolderField, useFolderChoice } from '../tools/folder-field.js';
import { ParamField } from '../tools/param-field.js';
import { toolArgs, type FormValue } from '../tools/tool-args.js';
import { ToolRun, useToolAttempt } from '../tools/tool-run.js';
import type { PaletteTool } from './palette-items.js';
import { submitsForm } from './palette-keys.js';

/** A tool's form inside the palette: defaults as placeholders, what the policy will do, Run, then the run in place. */
export function ToolPane({ skill, tool, onBack }: { skill: string; tool: PaletteTool; onBack: () => void }) {
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
