/**
 * The runs of this process and their records: the run service, created on first use (this process
 * is about to own runs, so it first finishes what owners that died left unfinished), what its live
 * runs have printed so far, and history.
 */
import type { ServerEvent } from '../../shared/contract.js';
import type { DryRun, RunQuery, RunRecord, RunReport, RunSummary } from '../../shared/runs.js';
import type { CoreConfig } from '../config.js';
import type { ProjectTrust } from '../connect/project-trust.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import type { ApprovalBroker } from '../policy/approval-broker.js';
import { DEFAULT_KILL_GRACE_MS } from '../process/run-process.js';
import type { Sandbox } from '../process/sandbox/sandbox.js';
import { emptyFolder } from '../runs/empty-folder.js';
import { reclaimOrphanedRuns, type Orphan } from '../runs/interrupted-runs.js';
import { LiveOutput } from '../runs/run-notices.js';
import { RunService, type RunInput, type RunOptions } from '../runs/run-service.js';
import type { SkillRegistry } from '../skills/registry.js';
import { getRun, listRuns } from '../store/run-queries.js';
import type { StateDb } from '../store/state-db.js';
import { runnerErrors } from '../../shared/error-messages/runner.js';

export interface RunDeskDeps {
  config: CoreConfig;
  registry: SkillRegistry;
  broker: ApprovalBroker;
  sandbox: Sandbox;
  session: string;
  projects: ProjectTrust;
  db(): StateDb;
  /** What a surface reports for an error (a damaged state.db is recovered: E901). */
  failure(error: unknown): SkilltrayError;
  emit(event: ServerEvent): void;
}

export class RunDesk {
  private runService: RunService | undefined;
  /** Dead owners' runs being finished (their leftover tools killed); awaited before the core closes. */
  private reclaiming: Promise<Orphan[]> | undefined;
  /** What this process's live runs have printed so far: events only say how much. */
  private readonly liveOutput = new LiveOutput();

  constructor(private readonly deps: RunDeskDeps) {}

  /**
   * The run service, created on first use: this process is about to own runs, so it first finishes
   * what owners that died left unfinished (see reclaimOrphanedRuns).
   */
  get service(): RunService {
    if (this.runService === undefined) {
      const { deps } = this;
      this.reclaimOrphanedRuns().catch((error: unknown) => {
        // A damaged state.db is recovered on the spot (its notice is told as an event); anything else is a warning.
        const coded = deps.failure(error);
        if (coded.code !== 'E901') process.emitWarning(`finishing the runs of an owner that died failed: ${coded.message}`);
      });
      this.runService = new RunService({
        // Read on every use: a damaged state.db may be replaced by a recovered one while the core runs.
        get db() {
          return deps.db();
        },
        registry: deps.registry,
        broker: deps.broker,
        env: deps.config.env,
        defaultCwd: emptyFolder(),
        home: deps.config.home,
        sandbox: deps.sandbox,
        enterCgroup: deps.config.enterCgroup,
        session: deps.session,
      });
      // Once, at creation: every run event reaches the 'event' stream exactly once.
      this.runService.on('run', (event) => deps.emit({ type: 'run', event: this.liveOutput.notice(event) }));
      this.runService.on('remembered', () => deps.emit({ type: 'policy.changed' }));
    }
    return this.runService;
  }

  /** The rendered request and the policy decision, without running. */
  dryRun(input: RunInput): DryRun {
    this.deps.projects.check(input.skill);
    return this.service.dryRun(input);
  }

  /** Runs a tool, asking a person when policy says so. */
  async run(input: RunInput, options: RunOptions): Promise<RunReport> {
    this.deps.projects.check(input.skill);
    return this.service.run(input, options);
  }

  /**
   * Marks the runs of owners that died (killed, crashed) as interrupted, and kills their tools that
   * are still running as the very processes recorded; runs of live owners are left alone. Every
   * process that owns runs does this once, when it starts to.
   */
  reclaimOrphanedRuns(): Promise<Orphan[]> {
    this.reclaiming ??= reclaimOrphanedRuns(this.deps.db(), DEFAULT_KILL_GRACE_MS);
    return this.reclaiming;
  }

  /** Run history, newest first. */
  history(query: RunQuery = {}): RunSummary[] {
    return listRuns(this.deps.db(), query);
  }

  /** One run with its output (E702 when unknown); while it runs here, the output it has streamed so far. */
  getRun(id: string): RunRecord {
    const run = getRun(this.deps.db(), id);
    if (!run) throw runnerErrors.runNotFound(id);
    const live = run.endedAt === null ? this.liveOutput.of(id) : null;
    return live === null ? run : { ...run, ...live };
  }

  /** Stops live runs (recorded as interrupted, `why`) and waits for the reclaiming of dead owners' runs. */
  async close(why?: string): Promise<void> {
    await this.runService?.shutdown(why);
    await this.reclaiming?.catch(() => undefined);
  }
}
