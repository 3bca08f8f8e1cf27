/**
 * The one service every surface calls: CLI, HTTP, MCP and Electron IPC translate to and from these
 * methods and nothing else, so every surface has the same operations and the same errors.
 * It is also the composition root of the core: the registry and the gateway come from the skill
 * library it extends (library.ts); state.db, the approval broker and the run service are created
 * here. state.db is opened on first use: `--help` and option errors never touch the disk, while
 * listing skills does (it reads the current mode).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { CheckReport, Mode, ResourceLimits, RootStatus, ShadowReport, SkillBrief, SkillSummary } from '../shared/model.js';
import { describeRoots, unreadableRoot, type CoreConfig } from './config.js';
import type { SkilltrayError } from '../shared/skilltray-error.js';
import { policyErrors } from '../shared/error-messages/policy.js';
import { runnerErrors } from '../shared/error-messages/runner.js';
import { skillcErrors } from '../shared/error-messages/skillc.js';
import { ApprovalBroker } from './policy/approval-broker.js';
import type { DryRun, HistoryUsage, MaintenanceReport, Notice, PendingEntry, RememberExpiry, RememberScope, Remembered, Retention, Rule, RunQuery, RunRecord, RunReport, RunSummary, SandboxStatus, Settings, Surface, VerdictKind } from '../shared/runs.js';
import { listRemembered, revoke } from './store/approvals.js';
import { listUnsandboxed, setSandboxed } from './store/unsandboxed.js';
import { platformSandbox } from './process/sandbox/platform-sandbox.js';
import type { Sandbox } from './process/sandbox/sandbox.js';
import { addRule, removeRule } from './store/rules.js';
import { pinsFor } from './policy/pins.js';
import { rulesInForce, runProfile } from './runs/prepare-run.js';
import { getRun, listRuns } from './store/run-queries.js';
import { getSettings, setLimitCeiling, setMode, setPaletteShortcut, setPaused, setRetention } from './store/settings.js';
import type { StateDb } from './store/state-db.js';
import { StateStore } from './store/state-store.js';
import { dismissNotice, listNotices } from './store/notices.js';
import { historyUsage } from './store/retention.js';
import { RunService, type RunInput, type RunOptions } from './runs/run-service.js';
import { reclaimOrphanedRuns, type Orphan } from './runs/interrupted-runs.js';
import { LiveOutput, pendingNotice } from './runs/run-notices.js';
import { DEFAULT_KILL_GRACE_MS } from './process/run-process.js';
import { skillsToCheck } from './skills/locate.js';
import { emitSafely } from './events.js';
import { SkillLibrary, type LibraryOptions } from './library.js';
import { Discovery, type DiscoverOptions } from './agent/discover.js';
import { planAttach, type AttachRequest } from './agent/attach.js';
import type { AttachResult, DiscoverResult } from '../shared/agent.js';
import { emptyFolder } from './runs/empty-folder.js';
import { briefOf, checkReport, filterSummaries, shadowReport, summarize, type ListFilter } from './skill-summary.js';
import { resolvePrompt } from './template/render-command.js';
import type { Confirmation, PackProgress, PackService } from './packs/service.js';
import { packPolicy } from './packs/policy-view.js';
import type { PackRequest } from './packs/source.js';
import type { TrustedKey } from './packs/trusted-keys.js';
import { revokeForSkill } from './store/approvals.js';
import { clearSwitches, isEnabled, listSwitches, setSwitch } from './store/switches.js';
import { runtimeDir } from './gateway/runtime-dir.js';
import { removeIndexes } from './search/skill-index.js';
import { parseMode } from './policy/modes.js';
import type { PackChange, PackInfo, ScanReport, SkillSwitch, UpdateReport } from '../shared/packs.js';
import type { AssistantChange, AssistantStatus, AssistantTest } from '../shared/connect.js';
import type { AssistantConnections, ConnectOptions } from './connect/connections.js';
import type { McpEndpoint } from './connect/clients.js';
import { ProjectTrust } from './connect/project-trust.js';
import type { ProjectInspection, TrustedProject } from '../shared/model.js';

export interface CoreOptions extends LibraryOptions {
  /** The sandbox runs go through; default this platform's (tests inject one that is unavailable). */
  sandbox?: Sandbox;
  /**
   * Check every page of state.db (PRAGMA quick_check) when opening it; default true. A one-shot CLI
   * command turns it off (about 0.1 s per 100 MiB, on every command) and relies on SQLITE_CORRUPT.
   */
  checkStateDb?: boolean;
}

/**
 * The core facade: the skill library (library.ts) with state.db, policy, runs and packs. Its
 * 'event' stream is what the UI follows (over IPC or server-sent events): approvals added and
 * resolved, run progress, skills changed on disk, settings changed.
 */
export class SkilltrayCore extends SkillLibrary {
  private readonly state: StateStore;
  private runService: RunService | undefined;
  private discovery: Discovery | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  /** Dead owners' runs being finished (their leftover tools killed); awaited before the core closes. */
  private reclaiming: Promise<Orphan[]> | undefined;
  /** Pending approvals of this process (meaningful in the process that owns runs). */
  readonly broker = new ApprovalBroker();
  /** What this process's live runs have printed so far: events only say how much. */
  private readonly liveOutput = new LiveOutput();
  private packService: Promise<PackService> | undefined;
  private connections: Promise<AssistantConnections> | undefined;
  /** Where this process serves MCP over HTTP, while it owns runs (see serveMcpAt). */
  private mcpEndpoint: (() => McpEndpoint) | null = null;
  /** Which project folders' own skills load. */
  private readonly projects: ProjectTrust;
  /** This process's session: an "Always, for this session" answer given here lasts while it runs. */
  readonly session = randomUUID();
  /** Contains every run this core starts. */
  readonly sandbox: Sandbox;

  constructor(config: CoreConfig, options: CoreOptions = {}) {
    super(config, options);
    this.sandbox = options.sandbox ?? platformSandbox(process.platform, config.env, config.netRelay);
    this.state = new StateStore(join(config.home, 'state.db'), {
      ...(config.nativeBinding === undefined ? {} : { nativeBinding: config.nativeBinding }),
      quickCheck: options.checkStateDb ?? true,
      onNotice: (notice) => emitSafely(this, 'event', { type: 'notice', notice }),
    });
    this.projects = new ProjectTrust({ db: () => this.db, registry: this.registry, configured: config.roots, closed: () => this.closed });
    this.broker.on('added', (entry) => emitSafely(this, 'event', { type: 'approval.added', entry: pendingNotice(entry) }));
    this.broker.on('resolved', (resolution) => emitSafely(this, 'event', { type: 'approval.resolved', id: resolution.id, outcome: resolution.kind }));
  }

  /** state.db, opened (checked, and recovered if damaged) on first use, and never again once the core is closed. */
  get db(): StateDb {
    if (this.closed) throw skillcErrors.internal('the Skilltray core is closed');
    return this.state.db;
  }

  /**
   * What a surface reports for an error a call threw: a damaged state.db is replaced at once and the
   * call fails with E901 (try again); anything else keeps its code.
   */
  failure(error: unknown): SkilltrayError {
    return this.state.failure(error);
  }

  /**
   * The run service, created on first use: this process is about to own runs, so it first finishes
   * what owners that died left unfinished (see reclaimOrphanedRuns).
   */
  get runs(): RunService {
    if (this.runService === undefined) {
      const currentDb = (): StateDb => this.db;
      this.reclaimOrphanedRuns().catch((error: unknown) => {
        // A damaged state.db is recovered on the spot (its notice is told as an event); anything else is a warning.
        const coded = this.failure(error);
        if (coded.code !== 'E901') process.emitWarning(`finishing the runs of an owner that died failed: ${coded.message}`);
      });
      this.runService = new RunService({
        // Read on every use: a damaged state.db may be replaced by a recovered one while the core runs.
        get db() {
          return currentDb();
        },
        registry: this.registry,
        broker: this.broker,
        env: this.config.env,
        defaultCwd: emptyFolder(),
        home: this.config.home,
        sandbox: this.sandbox,
        session: this.session,
      });
      // Once, at creation: every run event reaches the 'event' stream exactly once.
      this.runService.on('run', (event) => emitSafely(this, 'event', { type: 'run', event: this.liveOutput.notice(event) }));
      this.runService.on('remembered', () => emitSafely(this, 'event', { type: 'policy.changed' }));
    }
    return this.runService;
  }

  // ── skills ──────────────────────────────────────────────────────────────

  /** Loaded skills (filtered and paged as ADR-001's list), with the skills other roots lose to them. */
  listSkills(filter: ListFilter = {}): { skills: SkillSummary[]; shadowed: ShadowReport[]; total: number } {
    const mode = this.settings().mode;
    const switches = listSwitches(this.db);
    const all = this.registry.list().map((skill) => summarize(skill, mode, switches));
    return { ...filterSummaries(all, filter), shadowed: shadowReport(this.registry.shadowed()) };
  }

  /** The same list in brief (name, one line, tool names, trust, sandbox): an assistant's first look, `describe` for the rest. */
  listBriefs(filter: ListFilter = {}): { skills: SkillBrief[]; total: number } {
    const { skills, total } = this.listSkills(filter);
    const unsandboxed = new Set(listUnsandboxed(this.db));
    return { skills: skills.map((s) => briefOf(s, this.getSkill(s.name), unsandboxed.has(s.name))), total };
  }

  /** Diagnostics of a skill, a skill directory or a directory of skills, and the roots that cannot be read. */
  check(target: string, cwd: string): CheckReport {
    const unreadable = this.registry.roots.flatMap((root) => {
      const why = unreadableRoot(root.path);
      return why === null ? [] : [{ path: root.path, why }];
    });
    return checkReport(skillsToCheck(target, cwd, this.registry), unreadable);
  }

  /** The skill roots in precedence order (trusted project folders last), whether each exists and can be read, and how this process watches it (null: it does not). */
  roots(): { home: string; roots: RootStatus[] } {
    return describeRoots({ ...this.config, roots: [...this.registry.roots] }, (path) => this.registry.watchStatus(path));
  }

  /** A Kode prompt skill's body with `$ARGUMENTS` filled in. */
  resolvePrompt(name: string, args: readonly string[]): string {
    return resolvePrompt(this.getSkill(name), args);
  }

  // ── runs ────────────────────────────────────────────────────────────────

  /** The rendered request and the policy decision, without running. */
  dryRun(input: RunInput): DryRun {
    this.projects.check(input.skill);
    return this.runs.dryRun(input);
  }

  /** Runs a tool, asking a person when policy says so. */
  async run(input: RunInput, options: RunOptions): Promise<RunReport> {
    this.projects.check(input.skill);
    return this.runs.run(input, options);
  }

  /** Cancels a running run or withdraws a pending one. */
  cancelRun(id: string): void {
    this.runs.cancel(id);
  }

  /**
   * Marks the runs of owners that died (killed, crashed) as interrupted, and kills their tools that
   * are still running as the very processes recorded; runs of live owners are left alone. Every
   * process that owns runs does this once, when it starts to.
   */
  reclaimOrphanedRuns(): Promise<Orphan[]> {
    this.reclaiming ??= reclaimOrphanedRuns(this.db, DEFAULT_KILL_GRACE_MS);
    return this.reclaiming;
  }

  /** Run history, newest first. */
  history(query: RunQuery = {}): RunSummary[] {
    return listRuns(this.db, query);
  }

  /** One run with its output (E702 when unknown); while it runs here, the output it has streamed so far. */
  getRun(id: string): RunRecord {
    const run = getRun(this.db, id);
    if (!run) throw runnerErrors.runNotFound(id);
    const live = run.endedAt === null ? this.liveOutput.of(id) : null;
    return live === null ? run : { ...run, ...live };
  }

  // ── approvals ───────────────────────────────────────────────────────────

  /** Runs waiting for a person, oldest first. */
  pendingApprovals(): PendingEntry[] {
    return this.broker.list();
  }

  /**
   * Answers a pending approval: once, always (remembered, pinned to the skill's identity and hash,
   * the program path, the sandbox profile and the run's folder or any folder, until revoked or for
   * this session) or deny.
   */
  answerApproval(id: string, verdict: VerdictKind, actor: string, expires?: RememberExpiry, scope?: RememberScope): void {
    this.broker.resolve(id, verdict, actor, expires, scope);
  }

  /** Remembered approvals in force (this session's included). */
  remembered(): Remembered[] {
    return listRemembered(this.db, this.session);
  }

  /** Revokes a remembered approval: the tool asks again next time. */
  revokeRemembered(id: number): void {
    revoke(this.db, id, this.session);
    emitSafely(this, 'event', { type: 'policy.changed' });
  }

  /** What this machine can contain, and which skills the person took out of the sandbox. */
  sandboxStatus(): SandboxStatus {
    const why = this.sandbox.unavailable();
    return { mechanism: why === null ? this.sandbox.mechanism : null, available: why === null, why, unsandboxed: listUnsandboxed(this.db) };
  }

  /**
   * Takes a loaded skill out of the sandbox (`sandboxed: false`, its runs then always ask unless a
   * rule allows them) or puts it back. Only the person does this; a skill's frontmatter cannot.
   */
  setSkillSandboxed(skill: string, sandboxed: boolean): SandboxStatus {
    // Putting a skill back needs no loaded skill: one removed from disk can still be cleaned up.
    const name = sandboxed ? skill : this.getSkill(skill).name;
    if (setSandboxed(this.db, name, sandboxed)) emitSafely(this, 'event', { type: 'policy.changed' });
    return this.sandboxStatus();
  }

  // ── rules and settings ──────────────────────────────────────────────────

  /** The rules, each allow rule with the skills it covers (a rule from before pins is pinned first: docs/policy.md). */
  rules(): Rule[] {
    return rulesInForce(this.db, this.registry);
  }

  /**
   * Adds an allow or deny rule (`skill:<glob>`, `skill:*`, `tool:<skill>/<tool>`). An allow rule is
   * pinned to the loaded skills it covers as they are now (who each is, and its sandbox profile);
   * one that covers none is E625.
   */
  addRule(pattern: string, effect: string): Rule {
    const { db } = this;
    const pins = effect === 'allow' ? pinsFor(pattern, this.registry.list(), (skill) => runProfile(db, skill)) : [];
    if (effect === 'allow' && pins.length === 0) {
      throw policyErrors.ruleCoversNothing(pattern.trim());
    }
    const rule = addRule(db, pattern, effect, Date.now(), pins);
    emitSafely(this, 'event', { type: 'policy.changed' });
    return rule;
  }

  removeRule(id: number): void {
    removeRule(this.db, id);
    emitSafely(this, 'event', { type: 'policy.changed' });
  }

  settings(): Settings {
    return getSettings(this.db);
  }

  /** Switches mode (Global, Dev, Meeting): tools of skills outside it are not offered and cannot run. */
  setMode(mode: string): Mode {
    const set = setMode(this.db, mode);
    emitSafely(this, 'event', { type: 'settings', settings: getSettings(this.db) });
    return set;
  }

  /** Pauses or resumes every run. */
  setPaused(paused: boolean): Settings {
    setPaused(this.db, paused);
    const settings = getSettings(this.db);
    emitSafely(this, 'event', { type: 'settings', settings });
    return settings;
  }

  /** Sets the desktop app's global shortcut for the command palette ('' for none); E617 for one that cannot be. */
  setPaletteShortcut(shortcut: string): Settings {
    setPaletteShortcut(this.db, shortcut);
    const settings = getSettings(this.db);
    emitSafely(this, 'event', { type: 'settings', settings });
    return settings;
  }

  /** Sets history retention (E100 for a value out of range) and returns every setting. */
  setRetention(change: Partial<Retention>): Settings {
    setRetention(this.db, change);
    const settings = getSettings(this.db);
    emitSafely(this, 'event', { type: 'settings', settings });
    return settings;
  }

  /** Sets the ceiling on what a skill may ask for in `limits:` (E100 for a value out of range) and returns every setting. */
  setLimitCeiling(change: Partial<ResourceLimits>): Settings {
    setLimitCeiling(this.db, change);
    const settings = getSettings(this.db);
    emitSafely(this, 'event', { type: 'settings', settings });
    return settings;
  }

  /** What history holds now, and the last maintenance pass of this process. */
  historyUsage(): HistoryUsage & { lastMaintenance: MaintenanceReport | null } {
    return { ...historyUsage(this.db), lastMaintenance: this.state.lastMaintenance };
  }

  /** Applies retention to run output and vacuums state.db now. */
  maintainHistory(): Promise<MaintenanceReport> {
    if (this.closed) return Promise.reject(skillcErrors.internal('the Skilltray core is closed'));
    return this.state.maintain();
  }

  /** For the long-running owner of runs: history maintained a minute after start, then every `everyMs` (an hour). */
  startMaintenance(everyMs = 60 * 60 * 1000, firstAfterMs = 60 * 1000): void {
    this.state.startMaintenance(everyMs, firstAfterMs);
  }

  /** Notices not dismissed yet (a recovered state.db). */
  notices(): Notice[] {
    return listNotices(this.db);
  }

  /** Dismisses a notice: it is not shown again. */
  dismissNotice(id: number): void {
    dismissNotice(this.db, id);
    emitSafely(this, 'event', { type: 'notice.dismissed', id });
  }

  // ── skill switches and installed packs ──────────────────────────────────

  /** Turns a skill on or off, everywhere or in one mode (E001 for a skill not loaded, E610 for an unknown mode). */
  setSkillEnabled(skill: string, enabled: boolean, mode: string | null = null): SkillSwitch[] {
    this.getSkill(skill);
    setSwitch(this.db, skill, enabled, mode === null ? null : parseMode(mode));
    emitSafely(this, 'event', { type: 'skills.changed', kind: 'changed', name: skill });
    return listSwitches(this.db).filter((s) => s.skill === skill);
  }

  /** The pack service, loaded on first use: fetching and reading archives pull in execa, tar and yauzl, which nothing else needs. */
  private packs(): Promise<PackService> {
    this.packService ??= import('./packs/service.js').then(
      ({ PackService }) =>
        new PackService({
          home: this.config.home,
          env: this.config.env,
          registry: this.registry,
          policy: packPolicy,
          onChanged: ({ changed, removed, revokeTools }) => {
            const revoked = [...revokeTools].flatMap(([skill, tools]) => revokeForSkill(this.db, skill, tools));
            for (const skill of removed) {
              removeIndexes(runtimeDir(this.config.home, skill));
              clearSwitches(this.db, skill);
            }
            for (const skill of [...changed, ...removed]) this.registry.reload(skill);
            if (revoked.length > 0) emitSafely(this, 'event', { type: 'policy.changed' });
            return revoked;
          },
        }),
    );
    return this.packService;
  }

  /** Installed packs with their origin, signature and any file changed behind the lock's back. */
  async listPacks(): Promise<PackInfo[]> {
    return (await this.packs()).list();
  }

  /** Fetches and scans a source without installing anything: the report a person confirms. */
  async scanPack(request: PackRequest, cwd: string, onProgress?: (p: PackProgress) => void): Promise<ScanReport> {
    return (await this.packs()).preview(request, cwd, onProgress);
  }

  /** Installs a pack whose scan report was confirmed (E304/E310 otherwise; E303 for high findings without force). */
  async installPack(request: PackRequest, cwd: string, answer: Confirmation, onProgress?: (p: PackProgress) => void): Promise<PackChange> {
    return (await this.packs()).install(request, cwd, answer, onProgress);
  }

  /** What updating a pack would change, tool by tool. */
  async checkPackUpdate(pack: string, onProgress?: (p: PackProgress) => void): Promise<UpdateReport> {
    return (await this.packs()).previewUpdate(pack, onProgress);
  }

  /** Updates a pack whose update report was confirmed; remembered approvals of what changed are revoked. */
  async updatePack(pack: string, answer: Confirmation, onProgress?: (p: PackProgress) => void): Promise<PackChange> {
    return (await this.packs()).update(pack, answer, onProgress);
  }

  /** Restores a pack's files to what its lock records, fetched again from its origin (E312 when the source no longer holds them). */
  async repairPack(pack: string, onProgress?: (p: PackProgress) => void): Promise<PackChange> {
    return (await this.packs()).repair(pack, onProgress);
  }

  /** Removes a pack: files, lock entry, search indexes, remembered approvals and switches; history stays. */
  async uninstallPack(pack: string, onProgress?: (p: PackProgress) => void): Promise<PackChange> {
    return (await this.packs()).uninstall(pack, onProgress);
  }

  /** Trusts a public key (SSH or GPG) to sign packs. */
  async trustKey(key: string, principal: string | null): Promise<TrustedKey> {
    const { trustKey } = await import('./packs/trusted-keys.js');
    return trustKey(this.config.home, this.config.env, key, principal);
  }

  // ── connecting assistants (MCP clients' config files) ───────────────────

  /** Loaded on first use: the config formats, the diff and the MCP client are needed by nothing else. */
  private assistantConnections(): Promise<AssistantConnections> {
    this.connections ??= import('./connect/connections.js').then(({ AssistantConnections }) => new AssistantConnections(this.config, { endpoint: () => this.mcpEndpoint?.() ?? null }));
    return this.connections;
  }

  /** Said by the owner's HTTP server once it serves `/mcp` (null when it stops): `connect --transport http` writes this URL. */
  serveMcpAt(endpoint: (() => McpEndpoint) | null): void {
    this.mcpEndpoint = endpoint;
  }

  /** The MCP clients Skilltray connects: found here or not, connected or not, and with `test` whether the connection works. */
  async assistants(options: { test?: boolean } = {}): Promise<AssistantStatus[]> {
    return (await this.assistantConnections()).list(options);
  }

  /** Adds Skilltray to a client's config (checked with a handshake first; E850 for a file that does not parse, left untouched). */
  async connectAssistant(client: string, options: ConnectOptions = {}): Promise<AssistantChange> {
    return (await this.assistantConnections()).connect(client, options);
  }

  /** Removes exactly Skilltray's entry from a client's config. */
  async disconnectAssistant(client: string, options: { dryRun?: boolean } = {}): Promise<AssistantChange> {
    return (await this.assistantConnections()).disconnect(client, options);
  }

  /** Whether what `connect` writes for a client completes an MCP handshake here. */
  async testAssistant(client: string, options: ConnectOptions = {}): Promise<AssistantTest> {
    return (await this.assistantConnections()).test(client, options);
  }

  // ── project folders' own skills ─────────────────────────────────────────

  /** What a project folder's skills are now (.claude/skills, .agents/skills), and whether the person trusts them as they are. */
  inspectProject(path: string): ProjectInspection {
    return this.projects.inspect(path);
  }

  /** The trusted project folders, each `trusted` while its skills are what the person confirmed, else `changed`. */
  trustedProjects(): TrustedProject[] {
    return this.projects.list();
  }

  /**
   * Trusts a project folder's skills as the person saw them (`confirm`: the digest inspectProject
   * gave; E856 when they changed since): they load as user-trust roots after every other root.
   */
  async trustProject(path: string, confirm: string): Promise<TrustedProject> {
    const trusted = await this.projects.trust(path, confirm);
    emitSafely(this, 'event', { type: 'policy.changed' });
    return trusted;
  }

  /** Stops trusting a project folder: its skills are no longer loaded (E857 when it was not trusted). */
  async untrustProject(path: string): Promise<void> {
    await this.projects.untrust(path);
    emitSafely(this, 'event', { type: 'policy.changed' });
  }

  /** Loads the skills of the trusted project folders that are unchanged (and drops the rest), now and after every change on disk: the owner calls it at start. */
  applyProjectRoots(): Promise<void> {
    return this.projects.apply();
  }

  // ── agent gateway (ADR-001) ─────────────────────────────────────────────

  /** Ranked skills for an intent (sidecars only when role_filter asks for them). */
  discover(intent: string, options: DiscoverOptions = {}): DiscoverResult[] {
    this.discovery ??= new Discovery(this.config.nativeBinding);
    const mode = this.settings().mode;
    const switches = listSwitches(this.db);
    // A skill the person turned off is never offered, whatever it would match.
    const offered = this.registry.list().filter((skill) => isEnabled(switches, skill.name, mode));
    return this.discovery.discover(intent, offered, mode, options);
  }

  /** Applies a skill to a target after validating it may (E801 with a reason otherwise), then runs its tool. */
  async attach(request: AttachRequest & { surface: Surface; traceId?: string; cwd?: string }, options: RunOptions): Promise<AttachResult> {
    const { tool, args } = planAttach(this.registry.get(request.skillId), request);
    const { traceId, cwd } = request;
    const execution = await this.run(
      { skill: request.skillId, tool: tool.name, args, surface: request.surface, ...(traceId === undefined ? {} : { traceId }), ...(cwd === undefined ? {} : { cwd }) },
      options,
    );
    return { skill_id: request.skillId, target_type: request.targetType, target_ref: request.targetRef, execution, attached_at: new Date().toISOString() };
  }

  /**
   * For the long-running owner of runs (the app, `serve`): maintain history on a schedule, watch the
   * roots and keep search current so a person in the UI never meets E002 — the catalog synced from
   * now on in the background, without holding up start-up (and again on the first search after a
   * change; a search over every skill waits for it), each changed skill's index rebuilt as soon as the
   * watcher reports the change, and any other index built on first use (building every index at
   * start would cost minutes at 10,000 skills).
   */
  async startWatching(): Promise<void> {
    this.startMaintenance();
    await this.applyProjectRoots();
    await this.registry.watch();
    this.registry.on('change', (change) => {
      if (this.closed || change.kind === 'removed') return;
      try {
        this.gateway.refreshIndex(change.name);
      } catch {
        // An index that cannot be built (E003 collision) is reported when someone searches it.
      }
    });
    if (!this.closed) void this.catalogCurrent();
  }

  /**
   * Stops live runs (recorded as interrupted, `why`: the owner is stopping), watchers and databases.
   * Calling it again waits for the first call.
   */
  override close(why?: string): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      this.state.stopMaintenance();
      await this.runService?.shutdown(why);
      await this.reclaiming?.catch(() => undefined);
      await this.projects.settled();
      this.discovery?.close();
      await this.closeLibrary();
      await this.state.close();
    })();
    return this.closing;
  }
}
