/** The agent gateway (ADR-001): ranked skills for an intent, and a skill applied to a target by running its tool. */
import type { AttachResult, DiscoverAnswer } from '../../shared/agent.js';
import type { Surface } from '../../shared/runs.js';
import { planAttach, type AttachRequest } from '../agent/attach.js';
import { Discovery, type DiscoverOptions } from '../agent/discover.js';
import type { CoreConfig } from '../config.js';
import type { RunOptions } from '../runs/run-service.js';
import type { SkillRegistry } from '../skills/registry.js';
import { getSettings } from '../store/settings.js';
import type { StateDb } from '../store/state-db.js';
import { isEnabled, listSwitches } from '../store/switches.js';
import type { RunDesk } from './run-desk.js';

export interface AgentCallsDeps {
  config: CoreConfig;
  registry: SkillRegistry;
  runs: RunDesk;
  db(): StateDb;
}

export class AgentCalls {
  private discovery: Discovery | undefined;

  constructor(private readonly deps: AgentCallsDeps) {}

  /** Ranked skills for an intent (sidecars only when role_filter asks for them), and better matches of the roles left out. */
  discover(intent: string, options: DiscoverOptions = {}): DiscoverAnswer {
    this.discovery ??= new Discovery(this.deps.config.nativeBinding);
    const db = this.deps.db();
    const mode = getSettings(db).mode;
    const switches = listSwitches(db);
    // A skill the person turned off is never offered, whatever it would match.
    const offered = this.deps.registry.list().filter((skill) => isEnabled(switches, skill.name, mode));
    return this.discovery.discover(intent, offered, mode, options);
  }

  /** Applies a skill to a target after validating it may (E801 with a reason otherwise), then runs its tool. */
  async attach(request: AttachRequest & { surface: Surface; assistant?: string; traceId?: string; cwd?: string }, options: RunOptions): Promise<AttachResult> {
    const { tool, args } = planAttach(this.deps.registry.get(request.skillId), request);
    const { traceId, cwd, assistant } = request;
    const execution = await this.deps.runs.run(
      {
        skill: request.skillId,
        tool: tool.name,
        args,
        surface: request.surface,
        ...(traceId === undefined ? {} : { traceId }),
        ...(cwd === undefined ? {} : { cwd }),
        ...(assistant === undefined ? {} : { assistant }),
      },
      options,
    );
    return { skill_id: request.skillId, target_type: request.targetType, target_ref: request.targetRef, execution, attached_at: new Date().toISOString() };
  }

  close(): void {
    this.discovery?.close();
  }
}
