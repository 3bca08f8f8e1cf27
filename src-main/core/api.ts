/**
 * The composition root of the core: it creates the skill library (registry and gateway), state.db,
 * the approval broker and the domain services, and joins their events into one 'event' stream (what
 * the UI follows over IPC or server-sent events: approvals added and resolved, run progress, skills
 * changed on disk, settings changed). Every surface — CLI, HTTP, MCP, Electron IPC — reaches the
 * services through the operations table (operations.ts), so every surface has the same operations and
 * the same errors. state.db is opened on first use: `--help` and option errors never touch the disk,
 * while listing skills does (it reads the current mode).
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ServerEvent } from '../shared/contract.js';
import type { CoreConfig } from './config.js';
import type { AssistantConnections } from './connect/connections.js';
import { ProjectTrust } from './connect/project-trust.js';
import type { SkilltrayError } from '../shared/skilltray-error.js';
import { skillcErrors } from '../shared/error-messages/skillc.js';
import { emitSafely } from './events.js';
import { runtimeDir } from './gateway/runtime-dir.js';
import { SkillLibrary, type LibraryOptions } from './library.js';
import { packPolicy } from './packs/policy-view.js';
import type { PackService } from './packs/service.js';
import { ApprovalBroker, type CodeSource } from './policy/approval-broker.js';
import { platformSandbox } from './process/sandbox/platform-sandbox.js';
import type { Sandbox } from './process/sandbox/sandbox.js';
import type { DoctorReport } from '../shared/doctor.js';
import { pendingNotice } from './runs/run-notices.js';
import { removeIndexes } from './search/skill-index.js';
import type { GatewayService } from './gateway/service.js';
import type { SkillRegistry } from './skills/registry.js';
import { AgentCalls } from './services/agent-calls.js';
import { PolicyService } from './services/policy-service.js';
import { Preferences } from './services/preferences.js';
import { RunDesk } from './services/run-desk.js';
import { SkillListing } from './services/skill-listing.js';
import { SkillServing } from './services/skill-serving.js';
import { McpSources } from './served/mcp-sources.js';
import { revokeForSkill } from './store/approvals.js';
import type { StateDb } from './store/state-db.js';
import { StateStore } from './store/state-store.js';
import { clearSwitches } from './store/switches.js';
import { EspeakSynthesiser } from './voice/espeak.js';
import { PocketsphinxRecogniser } from './voice/pocketsphinx.js';
import type { Recogniser, Synthesiser } from './voice/recogniser.js';
import { VoiceDesk } from './voice/voice-desk.js';

// What the surfaces pass to and get from the services, and the helpers only a process holding the core uses.
export { ownerStopping } from './runs/interrupted-runs.js';
export { isInside } from './files/paths.js';
export type { PackProgress } from './packs/service.js';
export type { Approver } from './runs/run-service.js';
export type { IndexingWork } from './search/catalog.js';

export interface CoreOptions extends LibraryOptions {
  /** The sandbox runs go through; default this platform's (tests inject one that is unavailable). */
  sandbox?: Sandbox;
  /**
   * Check every page of state.db (PRAGMA quick_check) when opening it; default true. A one-shot CLI
   * command turns it off (about 0.1 s per 100 MiB, on every command) and relies on SQLITE_CORRUPT.
   */
  checkStateDb?: boolean;
  /** Draws each pending request's approval code; default at random (tests fix them). */
  approvalCode?: CodeSource;
  /** What hears spoken answers and says prompts; default pocketsphinx and espeak-ng from PATH. */
  recogniser?: Recogniser;
  synthesiser?: Synthesiser;
}

/** The core: the skill library with state.db, policy, runs, packs and assistants, each a service of its own. */
export class SkilltrayCore extends EventEmitter<{ event: [ServerEvent] }> {
  /** Loaded skills and the gateway over them. */
  readonly library: SkillLibrary;
  readonly registry: SkillRegistry;
  readonly gateway: GatewayService;
  /** Pending approvals of this process (meaningful in the process that owns runs). */
  readonly broker: ApprovalBroker;
  /** This process's session: an "Always, for this session" answer given here lasts while it runs. */
  readonly session = randomUUID();
  /** Contains every run this core starts. */
  readonly sandbox: Sandbox;
  /** Which project folders' own skills load. */
  readonly projects: ProjectTrust;
  readonly skills: SkillListing;
  /** Its own skills as the Skills extension (SEP-2640) serves them. */
  readonly serving: SkillServing;
  /** MCP servers as sources of skills, and their skills as the person approved them. */
  readonly sources: McpSources;
  readonly runs: RunDesk;
  readonly policy: PolicyService;
  readonly preferences: Preferences;
  readonly agent: AgentCalls;
  /** Spoken prompts and answers, the approval hotkeys. */
  readonly voice: VoiceDesk;
  private readonly state: StateStore;
  /** Whether this process owns runs and watches the roots (the app, serve). */
  private watching = false;
  private closed = false;
  private closing: Promise<void> | undefined;
  private packService: Promise<PackService> | undefined;
  private assistantConnections: Promise<AssistantConnections> | undefined;
  /** The URL of `/mcp` this process serves, while it owns runs (see serveMcpAt). */
  private mcpUrl: string | null = null;

  constructor(
    readonly config: CoreConfig,
    options: CoreOptions = {},
  ) {
    super();
    const emit = (event: ServerEvent): void => emitSafely(this, 'event', event);
    const db = (): StateDb => this.db;
    this.broker = new ApprovalBroker({ ...(options.approvalCode === undefined ? {} : { code: options.approvalCode }), home: config.env.HOME ?? homedir() });
    this.library = new SkillLibrary(config, options);
    this.library.on('event', emit);
    this.registry = this.library.registry;
    this.gateway = this.library.gateway;
    this.sandbox = options.sandbox ?? platformSandbox(process.platform, config.env, config.netRelay);
    this.state = new StateStore(join(config.home, 'state.db'), {
      ...(config.nativeBinding === undefined ? {} : { nativeBinding: config.nativeBinding }),
      quickCheck: options.checkStateDb ?? true,
      onNotice: (notice) => emit({ type: 'notice', notice }),
    });
    this.projects = new ProjectTrust({
      db,
      registry: this.registry,
      configured: config.roots,
      closed: () => this.closed,
      onChanged: () => emit({ type: 'policy.changed' }),
    });
    this.broker.on('added', (entry) => emit({ type: 'approval.added', entry: pendingNotice(entry) }));
    this.broker.on('resolved', (resolution) => emit({ type: 'approval.resolved', id: resolution.id, outcome: resolution.kind }));
    const { library, registry, broker, session, sandbox, projects } = this;
    this.skills = new SkillListing({ config, library, db, emit });
    this.serving = new SkillServing({ library, db });
    this.sources = new McpSources({
      home: config.home,
      env: config.env,
      registry,
      onChanged: (names) => {
        for (const name of names) registry.reload(name);
      },
    });
    this.runs = new RunDesk({ config, registry, broker, sandbox, session, projects, db, failure: (error) => this.failure(error), emit });
    this.policy = new PolicyService({ library, sandbox, session, db, emit });
    this.preferences = new Preferences({ state: this.state, db, closed: () => this.closed, emit });
    this.agent = new AgentCalls({ config, registry, runs: this.runs, db });
    this.voice = new VoiceDesk({
      db,
      broker,
      recogniser: options.recogniser ?? new PocketsphinxRecogniser(config.env),
      synthesiser: options.synthesiser ?? new EspeakSynthesiser(config.env),
      emit,
    });
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

  /** The pack service, loaded on first use: fetching and reading archives pull in execa, tar and yauzl, which nothing else needs. */
  packs(): Promise<PackService> {
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

  /** The MCP clients Skilltray connects, loaded on first use: the config formats, the diff and the MCP client are needed by nothing else. */
  connections(): Promise<AssistantConnections> {
    this.assistantConnections ??= import('./connect/connections.js').then(
      ({ AssistantConnections }) => new AssistantConnections(this.config, { mcpUrl: () => this.mcpUrl }),
    );
    return this.assistantConnections;
  }

  /**
   * What this machine has for Skilltray (core/doctor/): containment, the roots and how this process
   * watches each, the assistants and whether each one's entry works, voice, Node. Read-only.
   */
  async doctor(): Promise<DoctorReport> {
    const { doctorReport } = await import('./doctor/doctor.js');
    return doctorReport({
      platform: process.platform,
      env: this.config.env,
      sandbox: this.sandbox,
      relay: this.config.netRelay,
      enterCgroup: this.config.enterCgroup,
      roots: this.skills.roots().roots,
      owner: this.watching,
      assistants: async () => (await this.connections()).list({ test: true }),
      nodeVersion: process.version,
    });
  }

  /** Said by the owner's HTTP server once it serves `/mcp` (null when it stops): `connect --transport http` writes this URL. */
  serveMcpAt(url: string | null): void {
    this.mcpUrl = url;
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
    this.watching = true;
    this.preferences.startMaintenance();
    await this.projects.apply();
    await this.registry.watch();
    this.registry.on('change', (change) => {
      if (this.closed || change.kind === 'removed') return;
      try {
        this.gateway.refreshIndex(change.name);
      } catch {
        // An index that cannot be built (E003 collision) is reported when someone searches it.
      }
    });
    if (!this.closed) void this.library.catalogCurrent();
    // What each MCP source serves now, fetched again in the background: a skill whose files changed waits for the person again.
    if (!this.closed && this.sources.files.sources().length > 0) void this.sources.refresh().catch(() => undefined);
  }

  /**
   * Stops live runs (recorded as interrupted, `why`: the owner is stopping), watchers and databases.
   * Calling it again waits for the first call.
   */
  close(why?: string): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      this.state.stopMaintenance();
      this.sources.close();
      await this.runs.close(why);
      await this.projects.settled();
      this.agent.close();
      await this.voice.close();
      await this.library.close();
      await this.state.close();
    })();
    return this.closing;
  }
}
