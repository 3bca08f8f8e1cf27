/**
 * What one assistant sees of Skilltray right now, for the person (Settings › Assistants, like Claude
 * Code's `/mcp`): its entry and whether it works, the credential it holds and the name that makes it,
 * the skills and tools offered to it — as `list` answers an assistant: turned on and offered in the
 * current mode — and its latest runs, recorded under that name.
 */
import type { AssistantView } from '../../shared/connect.js';
import type { SkillBrief } from '../../shared/model.js';
import type { RunQuery, RunSummary } from '../../shared/runs.js';
import type { AssistantConnections } from '../connect/connections.js';
import type { ListFilter } from '../skill-summary.js';

/** How many offered skills and recent runs a view carries (the counts cover every one). */
const VIEW_SKILLS = 200;
const VIEW_RUNS = 10;

/** What an assistant's `list` leaves in: skills the person left on, offered in the current mode (operations.ts's listFilter for an assistant caller). */
export const ASSISTANT_OFFER: ListFilter = { offeredOnly: true, enabledOnly: true };

export interface AssistantViewDeps {
  connections: Pick<AssistantConnections, 'inspect'>;
  skills: { listBriefs(filter: ListFilter): { skills: SkillBrief[]; total: number } };
  runs: { history(query: RunQuery): RunSummary[] };
}

/** What client `id` sees now; `test` completes its MCP handshake too (works, and the tools it lists). */
export async function assistantView(deps: AssistantViewDeps, id: string, options: { test?: boolean } = {}): Promise<AssistantView> {
  const holding = await deps.connections.inspect(id, options);
  const offered = deps.skills.listBriefs(ASSISTANT_OFFER).skills;
  return {
    ...holding,
    skills: offered.slice(0, VIEW_SKILLS),
    offered: { skills: offered.length, tools: offered.reduce((sum, skill) => sum + skill.tools.length, 0) },
    runs: holding.actsAs === null ? [] : deps.runs.history({ assistant: holding.actsAs, limit: VIEW_RUNS }),
  };
}
