/**
 * The folder a run of a skill starts in, as its form proposes it: the one the person typed, else
 * the folder the skill's last recorded run used (history), else nothing — and then the form asks.
 */
import { useState } from 'react';
import type { RunSummary } from '../../src-main/shared/runs.js';
import { useResource } from '../app/use-resource.js';

/** Runs looked at for the last folder: enough to skip a few that never got a command. */
const RECENT_RUNS = 20;

/** The working directory of the newest run that has one. */
function lastFolder(runs: readonly Pick<RunSummary, 'command'>[]): string | null {
  return runs.find((run) => run.command !== null)?.command?.cwd ?? null;
}

/** The folder for `skill`'s runs (null while history is still loading) and its setter. */
export function useRunFolder(skill: string): [folder: string | null, setFolder: (folder: string) => void] {
  const recent = useResource(`run-folder\n${skill}`, (client) => client.history({ skill, limit: RECENT_RUNS }));
  const [typed, setTyped] = useState<string | null>(null);
  if (typed !== null) return [typed, setTyped];
  if (recent.data === undefined && recent.error === null) return [null, setTyped];
  return [lastFolder(recent.data ?? []) ?? '', setTyped];
}
