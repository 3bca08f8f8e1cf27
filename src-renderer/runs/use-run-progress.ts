/** Follows one run through its `run` events: decided → started → output… → finished. */
import { useEffect, useReducer, useRef } from 'react';
import type { RenderedCommand, RunResult } from '../../src-main/shared/model.js';
import type { OutputStream, RunDecisionView, RunEvent, RunRecord } from '../../src-main/shared/runs.js';
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
  command: RenderedCommand | null;
  programPath: string | null;
  /** Live output as it streamed in, cut at LIVE_OUTPUT_LIMIT characters. */
  output: OutputChunk[];
  outputCut: boolean;
  result: RunResult | null;
}

/** Most characters of live output kept on screen; the result carries the whole (capped) output. */
export const LIVE_OUTPUT_LIMIT = 256 * 1024;

type Action = { type: 'event'; event: RunEvent } | { type: 'record'; record: RunRecord };

const initial: RunProgress = { id: null, phase: 'waiting', decision: null, command: null, programPath: null, output: [], outputCut: false, result: null };

function appendOutput(state: RunProgress, stream: OutputStream, text: string): RunProgress {
  const used = state.output.reduce((n, c) => n + c.text.length, 0);
  const room = LIVE_OUTPUT_LIMIT - used;
  if (room <= 0) return state.outputCut ? state : { ...state, outputCut: true };
  const kept = text.length > room ? text.slice(0, room) : text;
  const last = state.output[state.output.length - 1];
  const output = last && last.stream === stream ? [...state.output.slice(0, -1), { stream, text: last.text + kept }] : [...state.output, { stream, text: kept }];
  return { ...state, output, outputCut: kept.length < text.length };
}

/** A finished run's record in the shape of a live result. */
export function resultOfRecord(record: RunRecord): RunResult | null {
  if (record.endedAt === null) return null;
  return {
    exitCode: record.exitCode,
    signal: record.signal,
    timedOut: record.timedOut,
    cancelled: record.cancelled,
    stdout: record.stdout ?? '',
    stderr: record.stderr ?? '',
    droppedBytes: { stdout: record.droppedStdout, stderr: record.droppedStderr },
    durationMs: record.durationMs ?? 0,
  };
}

function reduce(state: RunProgress, action: Action): RunProgress {
  if (action.type === 'record') {
    if (state.phase === 'finished') return state;
    const result = resultOfRecord(action.record);
    if (result) return { ...state, phase: 'finished', result };
    return action.record.startedAt !== null ? { ...state, phase: 'running' } : state;
  }
  const { event } = action;
  switch (event.type) {
    case 'decided':
      return { ...state, id: event.id, decision: event.decision };
    case 'started':
      return { ...state, id: event.id, phase: state.phase === 'finished' ? 'finished' : 'running', command: event.command, programPath: event.programPath };
    case 'output':
      return appendOutput(state, event.stream, event.text);
    case 'finished':
      return { ...state, id: event.id, phase: 'finished', result: event.result };
  }
}

/**
 * Progress of the run with `id`, or of the run whose trace id is `traceId` (a run this window
 * started: its id is learned from its first event). Mount it before the run can start so no
 * output is missed; after the stream reconnects, the recorded state fills any gap.
 */
export function useRunProgress(match: { id?: string | null; traceId?: string | null }): RunProgress {
  const client = useClient();
  const { epoch } = useStream();
  const [state, dispatch] = useReducer(reduce, initial);
  // Learned synchronously: several events can arrive in one chunk, before React renders the first.
  const learned = useRef<string | null>(null);
  const id = state.id ?? match.id ?? null;

  useServerEvent((server) => {
    if (server.type !== 'run') return;
    const { event } = server;
    if (learned.current === null && match.traceId !== undefined && match.traceId !== null && 'traceId' in event && event.traceId === match.traceId) learned.current = event.id;
    const known = learned.current ?? match.id ?? null;
    if (known !== null && event.id === known) dispatch({ type: 'event', event });
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
