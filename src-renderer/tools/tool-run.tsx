/** Running one tool by hand (skill page, palette): the run request, then its approval, live output and result in place. */
import { useCallback, useState } from 'react';
import type { RememberExpiry, RememberScope, RunReport, VerdictKind } from '../../src-main/shared/runs.js';
import { isMac } from '../app/platform.js';
import { ApprovalCard } from '../approvals/approval-card.js';
import { answerInput } from '../approvals/answer.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient, useConnection } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { usePending } from '../app/pending.js';
import { outcomeText, RunProgressView, RunResultView } from '../runs/run-output.js';
import { useRunProgress } from '../runs/use-run-progress.js';
import { newTraceId } from '../app/trace-id.js';

const DECISION_TEXT: Record<string, string> = {
  'auto/policy': 'Ran without asking (policy allows it).',
  'auto/rule': 'Ran without asking (an allow rule matched).',
  'auto/remembered': 'Ran without asking: you always allow this tool (remembered).',
  'approved/user': 'Ran after approval.',
};

/** One submitted run as it goes: the report once it ends, or why it did not happen. */
export interface Attempt {
  traceId: string;
  report: RunReport | null;
  error: Error | null;
}

/** Starts runs of one tool and keeps the latest attempt; `busy` while it has not ended. */
export function useToolAttempt(
  skill: string,
  tool: string,
): { attempt: Attempt | null; busy: boolean; start: (args: Record<string, unknown>, cwd: string) => void } {
  const client = useClient();
  const announce = useAnnounce();
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const start = useCallback(
    (args: Record<string, unknown>, cwd: string): void => {
      const traceId = newTraceId();
      setAttempt({ traceId, report: null, error: null });
      client.run({ skill, tool, args, trace_id: traceId, ...(cwd.trim() === '' ? {} : { cwd: cwd.trim() }) }).then(
        (report) => {
          announce(`${tool}: ${outcomeText(report.result)}`);
          setAttempt((prev) => (prev?.traceId === traceId ? { ...prev, report } : prev));
        },
        (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          announce(`${tool} did not run: ${failure.message}`);
          setAttempt((prev) => (prev?.traceId === traceId ? { ...prev, error: failure } : prev));
        },
      );
    },
    [client, announce, skill, tool],
  );
  return { attempt, busy: attempt !== null && attempt.report === null && attempt.error === null, start };
}

/** One submitted run: the approval inline while it waits for a person, live output, then the result. */
export function ToolRun({ attempt, level = 3 }: { attempt: Attempt; level?: 2 | 3 }) {
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
    const answer = async (verdict: VerdictKind, expires: RememberExpiry, scope: RememberScope) =>
      void (await client.answerApproval(answerInput(waiting.id, verdict, expires, scope)));
    return <ApprovalCard entry={waiting} mac={isMac(connection.platform)} answered={null} onAnswer={answer} level={level} />;
  }
  return <RunProgressView progress={progress} onCancel={async () => void (progress.id !== null && (await client.cancelRun({ id: progress.id })))} />;
}
