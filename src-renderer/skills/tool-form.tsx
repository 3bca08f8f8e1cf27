/** A tool on its skill's page: what it does (Markdown), its typed form, what the policy will do, and the run in place. */
import { useId, useState, type FormEvent } from 'react';
import type { Diagnostic, Tool } from '../../src-main/shared/model.js';
import { previewBlocks } from '../runs/run-preview.js';
import { RunPreviewLine } from '../runs/run-preview-line.js';
import { useRunPreview } from '../runs/use-run-preview.js';
import { ToolRun, useToolAttempt } from '../tools/tool-run.js';
import { DiagnosticsList } from './diagnostics-list.js';
import { SkillMarkdown } from './markdown.js';
import { ParamField } from '../tools/param-field.js';
import { toolArgs, type FormValue } from '../tools/tool-args.js';
import { FolderField, useFolderChoice } from '../tools/folder-field.js';

export function ToolForm({
  skill,
  skillDir,
  tool,
  diagnostics,
  policy = [],
}: {
  skill: string;
  skillDir: string;
  tool: Tool;
  diagnostics: readonly Diagnostic[];
  /** Where the tool's own policy differs from its skill's ("read-only", "always asks"), shown as badges. */
  policy?: readonly string[];
}) {
  const titleId = useId();
  const previewId = useId();
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const { cwd, setFolder, needsFolder } = useFolderChoice(skill);
  const { attempt, busy, start } = useToolAttempt(skill, tool.name);
  const args = toolArgs(tool.params, values);
  const preview = useRunPreview(skill, tool.name, args, cwd);
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
      {policy.length > 0 ? (
        <p className="badges" aria-label={`Policy of ${tool.name}, over its skill's`}>
          {policy.map((word) => (
            <span key={word} className={`badge ${word === 'read-only' || word === 'no network' || word === 'always asks' ? 'badge-ok' : 'badge-neutral'}`}>
              {word}
            </span>
          ))}
        </p>
      ) : null}
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
        <FolderField skill={skill} cwd={cwd} setFolder={setFolder} needsFolder={needsFolder} />
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
