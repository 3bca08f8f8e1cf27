/**
 * The loaded skills as the surfaces list them: summaries filtered and paged (ADR-001), briefs for an
 * assistant's first look, diagnostics, the roots, a prompt skill's body, and turning a skill on or off.
 */
import { join, resolve } from 'node:path';
import type { CheckReport, RootStatus, ShadowReport, SkillBrief, SkillSummary } from '../../shared/model.js';
import type { ServerEvent } from '../../shared/contract.js';
import type { SkillSwitch } from '../../shared/packs.js';
import { describeRoots, unreadableRoot, type CoreConfig } from '../config.js';
import { parseMode } from '../policy/modes.js';
import type { SkillLibrary } from '../library.js';
import { skillsToCheck } from '../skills/locate.js';
import { defaultToolName, writeScaffold } from '../skills/scaffold.js';
import { briefOf, checkReport, filterSummaries, shadowReport, summarize, type ListFilter } from '../skill-summary.js';
import type { StateDb } from '../store/state-db.js';
import { getSettings } from '../store/settings.js';
import { isEnabled, listSwitches, setSwitch } from '../store/switches.js';
import { listUnsandboxed } from '../store/unsandboxed.js';
import { resolvePrompt } from '../template/render-command.js';

export interface SkillListingDeps {
  config: CoreConfig;
  library: SkillLibrary;
  db(): StateDb;
  emit(event: ServerEvent): void;
}

/** What `new` wrote: where, the tool it made, whether a root loads it, and its check. */
export interface NewSkill {
  name: string;
  tool: string;
  /** The skill's folder. */
  path: string;
  file: string;
  /** Whether the folder it went in is a skill root, so Skilltray loads it. */
  loaded: boolean;
  check: CheckReport;
}

export class SkillListing {
  constructor(private readonly deps: SkillListingDeps) {}

  /** Loaded skills (filtered and paged as ADR-001's list), with the skills other roots lose to them. */
  listSkills(filter: ListFilter = {}): { skills: SkillSummary[]; shadowed: ShadowReport[]; total: number } {
    const { registry } = this.deps.library;
    const db = this.deps.db();
    const mode = getSettings(db).mode;
    const switches = listSwitches(db);
    const all = registry.list().map((skill) => summarize(skill, mode, switches));
    return { ...filterSummaries(all, filter), shadowed: shadowReport(registry.shadowed()) };
  }

  /** The same list in brief (name, one line, tool names, trust, sandbox): an assistant's first look, `describe` for the rest. */
  listBriefs(filter: ListFilter = {}): { skills: SkillBrief[]; total: number } {
    const { skills, total } = this.listSkills(filter);
    const unsandboxed = new Set(listUnsandboxed(this.deps.db()));
    return { skills: skills.map((s) => briefOf(s, this.deps.library.getSkill(s.name), unsandboxed.has(s.name))), total };
  }

  /**
   * Diagnostics of a skill, a skill directory or a directory of skills, and the roots that cannot be
   * read. `asWritten` reads each from disk as it is now (`check --watch`), never a parse kept from before.
   */
  check(target: string, cwd: string, options: { asWritten?: boolean } = {}): CheckReport {
    const { registry } = this.deps.library;
    const unreadable = registry.roots.flatMap((root) => {
      const why = unreadableRoot(root.path);
      return why === null ? [] : [{ path: root.path, why }];
    });
    return checkReport(skillsToCheck(target, cwd, registry, options.asWritten === true), unreadable);
  }

  /**
   * `new`: writes a skill that checks clean into the person's skills folder (`<home>/skills`) or
   * `dir`, and checks it. E150 for a bad name, E151 for a folder that exists or a name already loaded.
   */
  newSkill(name: string, options: { tool?: string; dir?: string }, cwd: string): NewSkill {
    const { registry } = this.deps.library;
    const parent = options.dir === undefined ? join(this.deps.config.home, 'skills') : resolve(cwd, options.dir);
    const tool = options.tool ?? defaultToolName(name);
    const path = writeScaffold(parent, name, tool, (candidate) => registry.dirOf(candidate));
    const loaded = registry.roots.some((root) => resolve(root.path) === parent);
    return { name, tool, path, file: join(path, 'SKILL.md'), loaded, check: this.check(path, cwd) };
  }

  /**
   * The skill roots in precedence order (trusted project folders last), whether each exists and can be read, and how this process watches it (null: it does
   * not).
   */
  roots(): { home: string; roots: RootStatus[] } {
    const { registry } = this.deps.library;
    return describeRoots({ ...this.deps.config, roots: [...registry.roots] }, (path) => registry.watchStatus(path));
  }

  /** Null when the person left skill `name` on in the current mode; otherwise that mode (the skill is not an assistant's to see). */
  turnedOffIn(name: string): string | null {
    const db = this.deps.db();
    const { mode } = getSettings(db);
    return isEnabled(listSwitches(db), name, mode) ? null : mode;
  }

  /** A Kode prompt skill's body with `$ARGUMENTS` filled in. */
  resolvePrompt(name: string, args: readonly string[]): string {
    return resolvePrompt(this.deps.library.getSkill(name), args);
  }

  /** Turns a skill on or off, everywhere or in one mode (E001 for a skill not loaded, E610 for an unknown mode). */
  setSkillEnabled(skill: string, enabled: boolean, mode: string | null = null): SkillSwitch[] {
    this.deps.library.getSkill(skill);
    const db = this.deps.db();
    setSwitch(db, skill, enabled, mode === null ? null : parseMode(mode));
    this.deps.emit({ type: 'skills.changed', kind: 'changed', name: skill });
    return listSwitches(db).filter((s) => s.skill === skill);
  }
}
