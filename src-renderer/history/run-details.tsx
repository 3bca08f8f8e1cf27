/** One run in full: the request, the decision, what ran, and its output (live while it runs). */
import { useEffect, useRef, type RefObject } from 'react';
import type { RunResult } from '../../src-main/shared/model.js';
import type { RunRecord } from '../../src-main/shared/runs.js';
import { ArgumentList, VisibleText } from '../approvals/visible-text.js';
import { SURFACE_LABELS } from '../approvals/labels.js';
import type { RunChannel } from '../../src-main/shared/runs.js';

/** Where the request came from, as the run's record keeps it. */
const CHANNEL_WORDS: Record<RunChannel, string> = { voice: 'from a voice turn', keyboard: 'at the keyboard', assistant: 'by an assistant' };
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { formatDuration, formatTime } from '../app/format.js';
import { useResource } from '../app/use-resource.js';
import { RunProgressView, RunResultView } from '../runs/run-output.js';
import { resultOfRecord } from '../../src-main/shared/runs.js';
import { useRunProgress, type RunProgress } from '../runs/use-run-progress.js';
import { STATUS_TONES, decisionSentence } from '../runs/run-status.js';
import { LIMIT_HIT } from '../../src-main/shared/approval-text.js';
import { BoxLines } from '../approvals/box-lines.js';
import { sandboxBadges } from '../approvals/labels.js';
import { NetworkReach, RefusedConnections } from '../approvals/network-reach.js';

function Decision({ run }: { run: RunRecord }) {
  if (run.outcome === null) return <p className="muted">Waiting for a decision.</p>;
  return (
    <dl className="facts facts-grid">
      <div className="fact-wide">
        <dt>What happened</dt>
        <dd className="decision-sentence">{decisionSentence(run)}</dd>
      </div>
      <div>
        <dt>Outcome</dt>
        <dd>{run.outcome}</dd>
      </div>
      {run.decidedAt !== null ? (
        <div>
          <dt>Decided at</dt>
          <dd>{formatTime(run.decidedAt)}</dd>
        </div>
      ) : null}
      <div className="fact-wide">
        <dt>Reason</dt>
        <dd>
          {run.errorCode ? <code className="error-code">error[{run.errorCode}]</code> : null} {run.reason ?? '—'}
        </dd>
      </div>
    </dl>
  );
}

/** Which run this is, how it ended, who asked and when, and which version of the skill ran. */
function RunHead({ run, title }: { run: RunRecord; title: RefObject<HTMLHeadingElement | null> }) {
  return (
    <>
      <header className="approval-head">
        <div>
          <p className="eyebrow">Run {run.id}</p>
          <h2 id="run-title" ref={title} tabIndex={-1}>
            {run.skill}{' '}
            <span className="sep" aria-hidden="true">
              /
            </span>{' '}
            {run.tool}
          </h2>
        </div>
        <span className={`badge badge-${STATUS_TONES[run.status]}`}>{run.status}</span>
      </header>
      {run.limitHit === null ? null : <p className="approval-uncontained">Stopped at {LIMIT_HIT[run.limitHit]}.</p>}
      <dl className="facts facts-grid">
        <div>
          <dt>Asked by</dt>
          <dd>
            {SURFACE_LABELS[run.surface]}
            {run.assistant === null ? null : <span className="muted"> (assistant {run.assistant})</span>}
            {run.channel === null ? null : <span className="muted"> ({CHANNEL_WORDS[run.channel]})</span>}
          </dd>
        </div>
        <div>
          <dt>Requested</dt>
          <dd>{formatTime(run.requestedAt)}</dd>
        </div>
        <div>
          <dt>Trace</dt>
          <dd>
            <code>{run.traceId}</code>
          </dd>
        </div>
        <div>
          <dt>Skill version</dt>
          <dd>
            <code title={run.skillHash}>{run.skillHash.slice(0, 16)}</code>
          </dd>
        </div>
      </dl>
    </>
  );
}

/** What the run printed: its result, its output live while it runs, or why there is none. */
function RunOutput({ run, result, progress }: { run: RunRecord; result: RunResult | null; progress: RunProgress }) {
  const client = useClient();
  const live = run.startedAt !== null && result === null;
  return (
    <>
      <h3>Output</h3>
      {run.outputDroppedAt !== null ? (
        <p className="muted">History retention dropped this run’s output on {formatTime(run.outputDroppedAt)}; the record above is kept.</p>
      ) : null}
      {result ? (
        <RunResultView result={result} />
      ) : live ? (
        <RunProgressView
          progress={{ ...progress, phase: progress.phase === 'finished' ? 'finished' : 'running' }}
          onCancel={async () => void (await client.cancelRun({ id: run.id }))}
        />
      ) : (
        <p className="muted">Nothing ran{run.status === 'pending' ? ' yet' : ''}.</p>
      )}
    </>
  );
}

export function RunDetails({ id }: { id: string }) {
  const title = useRef<HTMLHeadingElement>(null);
  const loaded = useResource(
    `run\n${id}`,
    (c) => c.getRun({ id }),
    (e) => e.type === 'run' && e.event.id === id && e.event.type !== 'output',
  );
  // Followed from the start, so output a live run prints while its record loads is not missed.
  const progress = useRunProgress({ id });
  const run = loaded.data;
  const shown = run !== undefined;
  // The run just picked takes focus once it has loaded, scrolled into view only when it is out of sight (beside the list it stays put).
  useEffect(() => {
    const heading = title.current;
    if (!shown || !heading) return;
    heading.focus({ preventScroll: true });
    const box = heading.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) heading.scrollIntoView({ block: 'start' });
  }, [shown]);
  if (loaded.error) return <ErrorNote error={loaded.error} title="This run could not be loaded" />;
  if (!run) return <p className="muted">Loading run…</p>;
  const result = resultOfRecord(run);
  return (
    <article className="card run-details" aria-labelledby="run-title">
      <RunHead run={run} title={title} />

      <h3>Decision</h3>
      <Decision run={run} />

      <h3>Command</h3>
      {run.command ? (
        <>
          <p className="program">
            <VisibleText value={run.programPath ?? run.command.program} />
          </p>
          <ArgumentList argv={run.command.args} supplied={run.command.supplied} />
          <dl className="facts facts-grid">
            <div>
              <dt>Working directory</dt>
              <dd>
                <VisibleText value={run.command.cwd} />
              </dd>
            </div>
            <div>
              <dt>Timeout</dt>
              <dd>{formatDuration(run.command.timeoutMs)}</dd>
            </div>
            <div>
              <dt>Environment passed</dt>
              <dd>{run.command.env.length === 0 ? <span className="muted">only the standard allow-list</span> : run.command.env.join(', ')}</dd>
            </div>
            {run.sandbox ? (
              <div className="fact-wide">
                <dt>Sandbox</dt>
                <dd>
                  <span className="badges">
                    {sandboxBadges(run.sandbox).map((badge) => (
                      <span key={badge.text} className={`badge badge-${badge.tone}`} title={badge.title}>
                        {badge.text}
                      </span>
                    ))}
                  </span>{' '}
                  <span className="muted">{run.sandbox.contained ? `${run.sandbox.name} profile, ${run.sandbox.mechanism ?? ''}` : run.sandbox.why}</span>
                  <NetworkReach sandbox={run.sandbox} />
                  <BoxLines sandbox={run.sandbox} />
                </dd>
              </div>
            ) : null}
            {run.networkDenied.length > 0 ? (
              <div className="fact-wide">
                <dt>Connections refused</dt>
                <dd>
                  <RefusedConnections denied={run.networkDenied} />
                </dd>
              </div>
            ) : null}
            {run.swept.length > 0 ? (
              <div className="fact-wide">
                <dt>Hidden paths removed</dt>
                <dd>
                  <span className="muted">made by the run without declaring them:</span> {run.swept.join(', ')}
                </dd>
              </div>
            ) : null}
          </dl>
        </>
      ) : (
        <p className="muted">The request could not be rendered into a command.</p>
      )}
      <details>
        <summary>Arguments as requested</summary>
        <pre className="file-text">{JSON.stringify(run.args, null, 2)}</pre>
      </details>

      <RunOutput run={run} result={result} progress={progress} />
    </article>
  );
}
