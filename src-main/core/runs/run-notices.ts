/**
 * What the 'event' stream says of runs and approvals: references and small summaries, built once
 * per event however many subscribers hear it. A run's output never travels in an event: the output
 * of a live run is kept here (as much as the runner streams live) for `getRun` to fetch by id.
 */
import type { OutputStream, PendingEntry, PendingNotice, RunEvent, RunNotice } from '../../shared/runs.js';

/** Most characters of a decision's reason an event carries; the run's record has all of it. */
export const NOTICE_REASON_CHARS = 1000;

/** The approval a run waits for, as events tell of it. */
export function pendingNotice(entry: PendingEntry): PendingNotice {
  const { id, traceId, surface, skill, tool, requestedAt, expiresAt } = entry;
  return { id, traceId, surface, skill, tool, requestedAt, expiresAt };
}

/** The live output of the runs of this process, while they run. */
export class LiveOutput {
  private readonly runs = new Map<string, Record<OutputStream, { chunks: string[]; bytes: number }>>();

  /** Takes one run event; returns what subscribers hear of it. */
  notice(event: RunEvent): RunNotice {
    switch (event.type) {
      case 'decided': {
        const { reason } = event.decision;
        if (reason.length <= NOTICE_REASON_CHARS) return event;
        return { ...event, decision: { ...event.decision, reason: `${reason.slice(0, NOTICE_REASON_CHARS)}…` } };
      }
      case 'started': {
        const { id, traceId, skill, tool, programPath, sandbox } = event;
        this.runs.set(id, { stdout: { chunks: [], bytes: 0 }, stderr: { chunks: [], bytes: 0 } });
        return { type: 'started', id, traceId, skill, tool, programPath, sandbox };
      }
      case 'output': {
        const stream = this.runs.get(event.id)?.[event.stream];
        if (stream !== undefined) {
          stream.chunks.push(event.text);
          stream.bytes += Buffer.byteLength(event.text);
        }
        return { type: 'output', id: event.id, stream: event.stream, bytes: stream?.bytes ?? Buffer.byteLength(event.text) };
      }
      case 'finished': {
        // Recorded before it is told: from here on getRun reads the output from history.
        this.runs.delete(event.id);
        const { stdout: _stdout, stderr: _stderr, ...result } = event.result;
        return { type: 'finished', id: event.id, traceId: event.traceId, skill: event.skill, tool: event.tool, result };
      }
    }
  }

  /** The output run `id` has streamed so far, or null when it is not running here. */
  of(id: string): Record<OutputStream, string> | null {
    const run = this.runs.get(id);
    if (run === undefined) return null;
    // Joined once, kept joined: a UI that follows a chatty run fetches it again and again.
    const joined = (stream: OutputStream): string => {
      const chunks = run[stream].chunks;
      if (chunks.length > 1) chunks.splice(0, chunks.length, chunks.join(''));
      return chunks[0] ?? '';
    };
    return { stdout: joined('stdout'), stderr: joined('stderr') };
  }
}
