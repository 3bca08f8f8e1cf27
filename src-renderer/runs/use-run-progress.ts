/**
 * Follows one run through its `run` events: decided → started → output… → finished. Events say only
 * that output came; the output itself is fetched by the run's id (getRun), one fetch at a time.
 */
import { useEffect, useReducer, useRef } from 'react';
import type { RunResult } from '../../src-main/shared/model.js';
import { resultOfRecord, type OutputStream, type RunDecisionView, type RunNotice, type RunRecord } from '../../src-main/shared/runs.js';
import { useClient, useServerEvent, useStream } from '../app/connection-context.js';

/** Consecutive output of one stream. */
export interface OutputChunk {
  stream: OutputStream;
  text: string;
}

export interface RunProgress {
  /** Learned from the first event when the run is followed by its trace id. */
  id: string | null;
  phase: 'waiting' | 'running' | 'finished';
  decision: RunDecisionView | null;
  programPath: string | null;
  /** Live output as last fetched (stdout, then stderr), cut at LIVE_OUTPUT_LIMIT characters. */
  output: OutputChunk[];
  outputCut: boolean;
  result: RunResult | null;
}

/** Most characters of live output kept on screen; the result carries the whole (capped) output. */
export const LIVE_OUTPUT_LIMIT = 256 * 1024;

type Action = { type: 'event'; event: RunNotice } | { type: 'record'; record: RunRecord };

const initial: RunProgress = { id: null, phase: 'waiting', decision: null, programPath: null, output: [], outputCut: false, result: null };

/** A running run's output so far, as the live view shows it. */
function liveOutput(record: RunRecord): Pick<RunProgress, 'output' | 'outputCut'> {
  const output: OutputChunk[] = [];
  let room = LIVE_OUTPUT_LIMIT;
  let outputCut = false;
  for (const stream of ['stdout', 'stderr'] as const) {
    const text = record[stream] ?? '';
    if (text === '') continue;
    const kept = text.slice(0, Math.max(0, room));
    room -= kept.length;
    outputCut ||= kept.length < text.length;
    if (kept !== '') output.push({ stream, text: kept });
  }
  return { output, outputCut };
}

function reduce(state: RunProgress, action: Action): RunProgress {
  if (action.type === 'record') {
    if (state.phase === 'finished') return state;
    const result = resultOfRecord(action.record);
    if (result) return { ...state, phase: 'finished', result };
    return action.record.startedAt !== null ? { ...state, phase: 'running', ...liveOutput(action.record) } : state;
  }
  const { event } = action;
  switch (event.type) {
    case 'decided':
      return { ...state, id: event.id, decision: event.decision };
    case 'started':
      return { ...state, id: event.id, phase: state.phase === 'finished' ? 'finished' : 'running', programPath: event.programPath };
    case 'output':
      return state;
    case 'finished':
      // The result with its output comes with the record, fetched on this event.
      return { ...state, id: event.id };
  }
}

/**
 * Progress of the run with `id`, or of the run whose trace id is `traceId` (a run this window
 * started: its id is learned from its first event). Mount it before the run can start so no
 * event is missed; after the stream reconnects, the recorded state fills any gap.
 */
export function useRunProgress(match: { id?: string | null; traceId?: string | null }): RunProgress {
  const client = useClient();
  const { epoch } = useStream();
  const [state, dispatch] = useReducer(reduce, initial);
  // Learned synchronously: several events can arrive in one chunk, before React renders the first.
  const learned = useRef<string | null>(null);
  const id = state.id ?? match.id ?? null;
  // One fetch of the record at a time; events that come meanwhile ask for one more after it.
  const fetching = useRef<{ busy: boolean; again: boolean; mounted: boolean }>({ busy: false, again: false, mounted: true });

  useEffect(() => {
    const flags = fetching.current;
    flags.mounted = true;
    return () => {
      flags.mounted = false;
    };
  }, []);

  const fetchRecord = (runId: string): void => {
    const flags = fetching.current;
    if (flags.busy) {
      flags.again = true;
      return;
    }
    flags.busy = true;
    client
      .getRun({ id: runId })
      .then(
        (record) => flags.mounted && dispatch({ type: 'record', record }),
        () => undefined, // Not recorded yet: its events are still to come.
      )
      .finally(() => {
        flags.busy = false;
        if (flags.again && flags.mounted) {
          flags.again = false;
          fetchRecord(runId);
        }
      });
  };

  useServerEvent((server) => {
    if (server.type !== 'run') return;
    const { event } = server;
    if (learned.current === null && match.traceId !== undefined && match.traceId !== null && 'traceId' in event && event.traceId === match.traceId)
      learned.current = event.id;
    const known = learned.current ?? match.id ?? null;
    if (known === null || event.id !== known) return;
    dispatch({ type: 'event', event });
    if (event.type === 'output' || event.type === 'finished') fetchRecord(event.id);
  });

  const finished = state.phase === 'finished';
  useEffect(() => {
    if (id === null || finished) return;
    let current = true;
    client.getRun({ id }).then(
      (record) => current && dispatch({ type: 'record', record }),
      () => undefined, // Not recorded yet: its events are still to come.
    );
    return () => {
      current = false;
    };
  }, [client, id, finished, epoch]);

  return id === state.id ? state : { ...state, id };
}
