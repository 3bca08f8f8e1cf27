/**
 * What the policy says a run would do, before it is asked for: the core's dry run with the form's
 * current values (rendered, decided, nothing started), refreshed as the form, the settings, the
 * rules or the skill change. The page shows the core's answer; it decides nothing itself.
 */
import { useResource } from '../app/use-resource.js';
import type { RunPreview } from './run-preview.js';

/** The dry run of `tool` with `args` (and `cwd`), kept current. */
export function useRunPreview(skill: string, tool: string, args: Record<string, unknown>, cwd: string): RunPreview {
  const input = { skill, tool, args, ...(cwd.trim() === '' ? {} : { cwd: cwd.trim() }) };
  const preview = useResource(
    `dryRun\n${JSON.stringify(input)}`,
    (client) => client.dryRun(input),
    (e) => e.type === 'settings' || e.type === 'policy.changed' || (e.type === 'skills.changed' && e.name === skill),
  );
  return { dryRun: preview.data ?? null, error: preview.error };
}
