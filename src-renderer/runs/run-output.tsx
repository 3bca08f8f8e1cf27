/** A run's output and result as a person reads them: live while it runs, then exit code, duration and what was dropped. */
import { useEffect, useRef, useState } from 'react';
import type { RunResult } from '../../src-main/shared/model.js';
import { formatBytes, formatDuration } from '../app/format.js';
import type { OutputChunk, RunProgress } from './use-run-progress.js';

/** Output in a scrollable, keyboard-focusable box that keeps following the end while you are at the end. */
export function OutputBox({ label, chunks, empty }: { label: string; chunks: OutputChunk[]; empty: string }) {
  const box = useRef<HTMLPreElement>(null);
  const atEnd = useRef(true);
  useEffect(() => {
    const el = box.current;
    if (el && atEnd.current) el.scrollTop = el.scrollHeight;
  }, [chunks]);
  const hasText = chunks.some((c) => c.text !== '');
  return (
    <pre
      ref={box}
      className="output"
      tabIndex={0}
      aria-label={label}
      onScroll={(e) => {
        const el = e.currentTarget;
        atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      {hasText ? (
        chunks.map((c, i) =>
          c.stream === 'stderr' ? (
            <span key={i} className="stderr">
              {c.text}
            </span>
          ) : (
            <span key={i}>{c.text}</span>
          ),
        )
      ) : (
        <span className="muted">{empty}</span>
      )}
    </pre>
  );
}

/** One sentence for how a run ended. */
export function outcomeText(result: RunResult): string {
  if (result.cancelled) return 'Cancelled';
  if (result.timedOut) return 'Timed out';
  if (result.exitCode === 0) return 'Succeeded';
  if (result.exitCode !== null) return `Failed with exit code ${result.exitCode}`;
  return result.signal ? `Ended by signal ${result.signal}` : 'Ended without an exit code';
}

/** The tone of a finished run's badge. */
export function outcomeTone(result: RunResult): 'ok' | 'bad' | 'warn' {
  if (result.exitCode === 0 && !result.timedOut && !result.cancelled) return 'ok';
  return result.cancelled ? 'warn' : 'bad';
}

/** Exit code, duration and dropped bytes, then stdout and stderr. */
export function RunResultView({ result }: { result: RunResult }) {
  const dropped = result.droppedBytes.stdout + result.droppedBytes.stderr;
  return (
    <div className="run-result">
      <dl className="facts facts-inline">
        <div>
          <dt>Result</dt>
          <dd>
            <span className={`badge badge-${outcomeTone(result)}`}>{outcomeText(result)}</span>
          </dd>
        </div>
        <div>
          <dt>Exit code</dt>
          <dd>
            <code>{result.exitCode ?? '—'}</code>
            {result.signal ? (
              <>
                {' '}
                (signal <code>{result.signal}</code>)
              </>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(result.durationMs)}</dd>
        </div>
        <div>
          <dt>Dropped</dt>
          <dd>{dropped === 0 ? 'nothing' : `stdout ${formatBytes(result.droppedBytes.stdout)}, stderr ${formatBytes(result.droppedBytes.stderr)}`}</dd>
        </div>
      </dl>
      <p className="output-title">Standard output</p>
      <OutputBox label="Standard output" chunks={[{ stream: 'stdout', text: result.stdout }]} empty="(no output)" />
      {result.stderr !== '' ? (
        <>
          <p className="output-title">Standard error</p>
          <OutputBox label="Standard error" chunks={[{ stream: 'stderr', text: result.stderr }]} empty="(nothing)" />
        </>
      ) : null}
    </div>
  );
}

/** A followed run: live output with Cancel while it runs, the result once it ends. */
export function RunProgressView({ progress, onCancel }: { progress: RunProgress; onCancel: () => Promise<void> }) {
  const [cancelling, setCancelling] = useState(false);
  if (progress.phase === 'finished' && progress.result) return <RunResultView result={progress.result} />;
  return (
    <div className="run-live">
      <div className="run-live-head">
        <span className="status-line" role="status">
          <span className="spinner" aria-hidden="true" />
          {progress.phase === 'running' ? 'Running…' : 'Starting…'}
        </span>
        {progress.id !== null ? (
          <button
            type="button"
            className="button button-danger-quiet"
            disabled={cancelling}
            onClick={() => {
              setCancelling(true);
              onCancel().catch(() => setCancelling(false));
            }}
          >
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : null}
      </div>
      <OutputBox label="Live output" chunks={progress.output} empty="Waiting for output…" />
      {progress.outputCut ? <p className="hint">Live output is cut here; the full captured output appears when the run ends.</p> : null}
    </div>
  );
}
