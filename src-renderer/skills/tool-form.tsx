/** A tool on its skill's page: what it does (Markdown), its typed form, what the policy will do, and the run in place. */
import { useId, useState, type FormEvent } from 'react';
import type { Diagnostic, Tool } from '../../src-main/shared/model.js';
import { previewBlocks } from '../runs/run-preview.js';
import { RunPreviewLine } from '../runs/run-preview-line.js';
import { useRunPreview } from '../runs/use-run-preview.js';
import { ToolRun, useToolAttempt } from '../runs/tool-run.js';
import { DiagnosticsList } from './diagnostics-list.js';
import { SkillMarkdown } from './markdown.js';
import { ParamField } from './param-field.js';
import { toolArgs, type FormValue } from './tool-args.js';
import { useRunFolder } from './use-run-folder.js';

export function ToolForm({ skill, skillDir, tool, diagnostics }: { skill: string; skillDir: string; tool: Tool; diagnostics: readonly Diagnostic[] }) {
  const titleId = useId();
  const cwdId = useId();
  const previewId = useId();
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const [folder, setFolder] = useRunFolder(skill);
  const cwd = folder ?? '';
  const { attempt, busy, start } = useToolAttempt(skill, tool.name);
  const args = toolArgs(tool.params, values);
  const preview = useRunPreview(skill, tool.name, args, cwd);
  // No folder known for this skill yet: the form asks for one rather than run in the home folder.
  const needsFolder = folder !== null && cwd.trim() === '';
  const blocked = previewBlocks(preview) || needsFolder;

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (!blocked) start(args, cwd);
  };

  return (
    <section className={`card tool${blocked && diagnostics.length > 0 ? ' tool-broken' : ''}`} aria-labelledby={titleId}>
      <h3 id={titleId} className="tool-name">
        <code>{tool.name}</code>
      </h3>
      {tool.description ? <SkillMarkdown skill={skill} file="SKILL.md" text={tool.description} /> : null}
      {diagnostics.length > 0 ? <DiagnosticsList diagnostics={diagnostics} dir={skillDir} label={`Diagnostics of ${tool.name}`} /> : null}
      <details className="command-template">
        <summary>Command template</summary>
        <pre>
          <code>{tool.command}</code>
        </pre>
      </details>
      <form className="tool-form" onSubmit={submit} aria-label={`Run ${tool.name}`}>
        {tool.params.length === 0 ? <p className="muted">This tool takes no parameters.</p> : null}
        {tool.params.map((param) => (
          <ParamField key={param.name} param={param} value={values[param.name]} onChange={(value) => setValues((prev) => ({ ...prev, [param.name]: value }))} />
        ))}
        <details className="advanced" open={needsFolder || undefined}>
          <summary>Folder to run in{cwd.trim() === '' ? '' : `: ${cwd.trim()}`}</summary>
          <div className="field">
            <label htmlFor={cwdId}>Folder to run in (an absolute path; the last one used for {skill} comes back next time)</label>
            <input id={cwdId} type="text" value={cwd} required placeholder="/home/you/code/project" spellCheck={false} onChange={(e) => setFolder(e.target.value)} />
          </div>
          {needsFolder ? <p className="hint">{skill} has not run yet: choose the folder it runs in first.</p> : null}
        </details>
        <RunPreviewLine preview={preview} id={previewId} />
        <div className="button-row">
          <button type="submit" className="button button-primary" disabled={busy || blocked} aria-describedby={previewId}>
            {busy ? 'Running…' : `Run ${tool.name}`}
          </button>
        </div>
      </form>
      {attempt ? (
        <div className="tool-attempt">
          <ToolRun key={attempt.traceId} attempt={attempt} />
        </div>
      ) : null}
    </section>
  );
}
