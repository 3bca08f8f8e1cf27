/** A tool's typed form: submitting runs it through the same policy and approval as any other request. */
import { useId, useState, type FormEvent } from 'react';
import type { Tool, ToolParam } from '../../src-main/shared/model.js';
import type { RememberExpiry, RunReport, VerdictKind } from '../../src-main/shared/runs.js';
import { isMac } from '../approvals/approval-keys.js';
import { ApprovalCard } from '../approvals/approval-card.js';
import { answerInput } from '../approvals/answer.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient, useConnection } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { usePending } from '../app/pending.js';
import { outcomeText, RunProgressView, RunResultView } from '../runs/run-output.js';
import { useRunProgress } from '../runs/use-run-progress.js';
import { newTraceId, toolArgs, type FormValue } from './tool-args.js';
import { useRunFolder } from './use-run-folder.js';

const DECISION_TEXT: Record<string, string> = {
  'auto/policy': 'Ran without asking (policy allows it).',
  'auto/rule': 'Ran without asking (an allow rule matched).',
  'auto/remembered': 'Ran without asking: you always allow this tool (remembered).',
  'approved/user': 'Ran after approval.',
};

function ParamField({ param, value, onChange }: { param: ToolParam; value: FormValue | undefined; onChange: (value: FormValue) => void }) {
  const id = useId();
  const describedBy = param.description ? `${id}-desc` : undefined;
  const label = (
    <>
      <code>{param.name}</code>
      {param.required ? (
        <span className="required">
          <span aria-hidden="true">*</span>
          <span className="visually-hidden"> (required)</span>
        </span>
      ) : null}{' '}
      <span className="muted">{param.type}</span>
    </>
  );
  const description = param.description ? (
    <span id={describedBy} className="hint">
      {param.description}
    </span>
  ) : null;
  if (param.type === 'boolean') {
    return (
      <div className="field field-check">
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-describedby={describedBy} />
        <label htmlFor={id}>{label}</label>
        {description}
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {param.type === 'enum' ? (
        <select id={id} value={text} required={param.required} onChange={(e) => onChange(e.target.value)} aria-describedby={describedBy}>
          <option value="">{param.required ? 'Choose…' : '(default)'}</option>
          {param.enumValues.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={param.type === 'string' ? 'text' : 'number'}
          step={param.type === 'integer' ? 1 : param.type === 'number' ? 'any' : undefined}
          inputMode={param.type === 'integer' ? 'numeric' : param.type === 'number' ? 'decimal' : undefined}
          value={text}
          required={param.required}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={describedBy}
        />
      )}
      {description}
    </div>
  );
}

interface Attempt {
  traceId: string;
  report: RunReport | null;
  error: Error | null;
}

/** One submitted run: the approval inline while it waits for a person, live output, then the result. */
function ToolRun({ attempt }: { attempt: Attempt }) {
  const client = useClient();
  const connection = useConnection();
  const progress = useRunProgress({ traceId: attempt.traceId });
  const { entries } = usePending();
  const waiting = entries.find((e) => e.traceId === attempt.traceId);

  if (attempt.error) return <ErrorNote error={attempt.error} title="The run did not happen" />;
  if (attempt.report) {
    const { decision } = attempt.report;
    return (
      <div className="tool-run">
        <p className="decision">
          {DECISION_TEXT[`${decision.outcome}/${decision.by}`] ?? `${decision.outcome} (${decision.by})`} <span className="muted">{decision.reason}</span>
        </p>
        <RunResultView result={attempt.report.result} />
      </div>
    );
  }
  if (waiting) {
    const answer = async (verdict: VerdictKind, expires: RememberExpiry) => void (await client.answerApproval(answerInput(waiting.id, verdict, expires)));
    return <ApprovalCard entry={waiting} mac={isMac(connection.platform)} answered={null} onAnswer={answer} level={3} />;
  }
  return <RunProgressView progress={progress} onCancel={async () => void (progress.id !== null && (await client.cancelRun({ id: progress.id })))} />;
}

export function ToolForm({ skill, tool }: { skill: string; tool: Tool }) {
  const client = useClient();
  const announce = useAnnounce();
  const titleId = useId();
  const cwdId = useId();
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const [cwd, setCwd] = useRunFolder();
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const busy = attempt !== null && attempt.report === null && attempt.error === null;

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const traceId = newTraceId();
    setAttempt({ traceId, report: null, error: null });
    const input = { skill, tool: tool.name, args: toolArgs(tool.params, values), trace_id: traceId, ...(cwd.trim() === '' ? {} : { cwd: cwd.trim() }) };
    client.run(input).then(
      (report) => {
        announce(`${tool.name}: ${outcomeText(report.result)}`);
        setAttempt((prev) => (prev?.traceId === traceId ? { ...prev, report } : prev));
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        announce(`${tool.name} did not run: ${failure.message}`);
        setAttempt((prev) => (prev?.traceId === traceId ? { ...prev, error: failure } : prev));
      },
    );
  };

  return (
    <section className="card tool" aria-labelledby={titleId}>
      <h3 id={titleId} className="tool-name">
        <code>{tool.name}</code>
      </h3>
      {tool.description ? <p>{tool.description}</p> : null}
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
        <details className="advanced">
          <summary>Working directory{cwd.trim() === '' ? '' : `: ${cwd.trim()}`}</summary>
          <div className="field">
            <label htmlFor={cwdId}>Absolute directory to run in (remembered for every tool)</label>
            <input id={cwdId} type="text" value={cwd} placeholder="your home directory" spellCheck={false} onChange={(e) => setCwd(e.target.value)} />
          </div>
        </details>
        <div className="button-row">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Running…' : `Run ${tool.name}`}
          </button>
          <span className="hint">Runs go through the same policy and approval as an assistant's.</span>
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
