/**
 * The one service every surface calls: CLI, HTTP, MCP and Electron IPC translate to and from these
 * methods and nothing else, so every surface has the same operations and the same errors.
 * It is also the composition root of the core: the registry, state.db, the approval broker and the
 * run service are created here (lazily, so reading skills never touches state.db).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CheckReport, Mode, ShadowReport, Skill, SkillRoot, SkillSummary } from '../shared/model.js';
import type { CoreConfig } from './config.js';
import { SkilltrayError, skillcErrors } from './errors.js';
import { ApprovalBroker, type PendingEntry, type VerdictKind } from './policy/approval-broker.js';
import type { Rule } from './policy/rules.js';
import { listRemembered, revoke, type Remembered } from './store/approvals.js';
import { addRule, listRules, removeRule } from './store/rules.js';
import { getRun, listRuns, type RunQuery, type RunRecord, type RunSummary } from './store/runs.js';
import { getSettings, setMode, setPaused, type Settings } from './store/settings.js';
import { openStateDb, type StateDb } from './store/state-db.js';
import { RunService, type DryRun, type RunInput, type RunOptions, type RunReport } from './runs/run-service.js';
import { skillsToCheck } from './skills/check.js';
import { SkillRegistry } from './skills/registry.js';
import { checkReport, shadowReport, summarize } from './skills/summary.js';
import { resolvePrompt } from './template/render-command.js';

export class SkilltrayCore {
  readonly registry: SkillRegistry;
  private stateDb: StateDb | undefined;
  private runService: RunService | undefined;
  /** Pending approvals of this process (meaningful in the process that owns runs). */
  readonly broker = new ApprovalBroker();

  constructor(readonly config: CoreConfig) {
    this.registry = new SkillRegistry(config.roots).load();
  }

  /** state.db, opened on first use. */
  get db(): StateDb {
    this.stateDb ??= openStateDb(join(this.config.home, 'state.db'), this.config.nativeBinding === undefined ? {} : { nativeBinding: this.config.nativeBinding });
    return this.stateDb;
  }

  /** The run service, created on first use. */
  get runs(): RunService {
    this.runService ??= new RunService({
      db: this.db,
      registry: this.registry,
      broker: this.broker,
      env: this.config.env,
      defaultCwd: this.config.env.HOME || homedir(),
    });
    return this.runService;
  }

  // ── skills ──────────────────────────────────────────────────────────────

  /** Every loaded skill, with the skills other roots lose to them. */
  listSkills(): { skills: SkillSummary[]; shadowed: ShadowReport[] } {
    return { skills: this.registry.list().map(summarize), shadowed: shadowReport(this.registry.shadowed()) };
  }

  /** A loaded skill by name (E001 when there is none). */
  getSkill(name: string): Skill {
    const skill = this.registry.get(name);
    if (!skill) throw skillcErrors.skillNotFound(name);
    return skill;
  }

  /** Diagnostics of a skill, a skill directory or a directory of skills. */
  check(target: string, cwd: string): CheckReport {
    return checkReport(skillsToCheck(target, cwd, this.registry));
  }

  /** The skill roots in precedence order, and whether each exists. */
  roots(): { home: string; roots: (SkillRoot & { exists: boolean })[] } {
    return { home: this.config.home, roots: this.config.roots.map((r) => ({ ...r, exists: existsSync(r.path) })) };
  }

  /** A Kode prompt skill's body with `$ARGUMENTS` filled in. */
  resolvePrompt(name: string, args: readonly string[]): string {
    return resolvePrompt(this.getSkill(name), args);
  }

  // ── runs ────────────────────────────────────────────────────────────────

  /** The rendered request and the policy decision, without running. */
  dryRun(input: RunInput): DryRun {
    return this.runs.dryRun(input);
  }

  /** Runs a tool, asking a person when policy says so. */
  run(input: RunInput, options: RunOptions): Promise<RunReport> {
    return this.runs.run(input, options);
  }

  /** Cancels a running run or withdraws a pending one. */
  cancelRun(id: string): void {
    this.runs.cancel(id);
  }

  /** Run history, newest first. */
  history(query: RunQuery = {}): RunSummary[] {
    return listRuns(this.db, query);
  }

  /** One run with its output (E702 when unknown). */
  getRun(id: string): RunRecord {
    const run = getRun(this.db, id);
    if (!run) throw new SkilltrayError('E702', `no run '${id}'`, { details: { id } });
    return run;
  }

  // ── approvals ───────────────────────────────────────────────────────────

  /** Runs waiting for a person, oldest first. */
  pendingApprovals(): PendingEntry[] {
    return this.broker.list();
  }

  /** Answers a pending approval: once, always (remembered, pinned to hash and program path) or deny. */
  answerApproval(id: string, verdict: VerdictKind, actor: string): void {
    this.broker.resolve(id, verdict, actor);
  }

  /** Remembered approvals in force. */
  remembered(): Remembered[] {
    return listRemembered(this.db);
  }

  /** Revokes a remembered approval: the tool asks again next time. */
  revokeRemembered(id: number): void {
    revoke(this.db, id);
  }

  // ── rules and settings ──────────────────────────────────────────────────

  rules(): Rule[] {
    return listRules(this.db);
  }

  /** Adds an allow or deny rule (`skill:<glob>`, `skill:*`, `tool:<skill>/<tool>`). */
  addRule(pattern: string, effect: string): Rule {
    return addRule(this.db, pattern, effect);
  }

  removeRule(id: number): void {
    removeRule(this.db, id);
  }

  settings(): Settings {
    return getSettings(this.db);
  }

  /** Switches mode (Global, Dev, Meeting): tools of skills outside it are not offered and cannot run. */
  setMode(mode: string): Mode {
    return setMode(this.db, mode);
  }

  /** Pauses or resumes every run. */
  setPaused(paused: boolean): Settings {
    setPaused(this.db, paused);
    return getSettings(this.db);
  }

  /** Stops watchers and closes databases. */
  async close(): Promise<void> {
    await this.registry.close();
    this.stateDb?.close();
    this.stateDb = undefined;
  }
}
