/**
 * Which project folders' own skills load (see project-skills.ts): the folders the person trusted,
 * each only while its skills are what the person confirmed. It keeps the registry's roots the
 * configured ones plus those folders' skill folders — at the owner's start, after each trust
 * change, and whenever a skill changes on disk — and refuses a run of a project skill that changed
 * before the registry caught up.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ProjectInspection, SkillRoot, TrustedProject } from '../../shared/model.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { readProjectSkills } from '../skills/project-skills.js';
import type { SkillRegistry } from '../skills/registry.js';
import type { StateDb } from '../store/state-db.js';
import { listTrustedProjects, trustProject, untrustProject } from '../store/trusted-projects.js';
import { connectErrors } from '../../shared/error-messages/connect.js';

export interface ProjectTrustDeps {
  /** state.db, read on every use (a damaged one may be replaced while the core runs). */
  db(): StateDb;
  registry: SkillRegistry;
  /** The roots of the configuration: the project folders' come after them. */
  configured: readonly SkillRoot[];
  closed(): boolean;
  /** Told once a folder is trusted or no longer trusted, its roots applied. */
  onChanged(): void;
}

/** An existing absolute directory, else E022. */
function projectFolder(path: string): string {
  const folder = resolve(path);
  try {
    if (isAbsolute(path) && statSync(folder).isDirectory()) return folder;
  } catch {
    // missing or unreadable: not a folder to trust
  }
  throw skillcErrors.directoryNotFound(path);
}

export class ProjectTrust {
  /** The last change of roots: one at a time, each after the one before. */
  private applying: Promise<void> = Promise.resolve();
  private following = false;

  constructor(private readonly deps: ProjectTrustDeps) {}

  /** What a project folder's skills are now, and whether the person trusts them as they are. */
  inspect(path: string): ProjectInspection {
    const found = readProjectSkills(projectFolder(path));
    const trusted = listTrustedProjects(this.deps.db()).find((p) => p.path === found.path);
    return {
      path: found.path,
      folders: found.roots.map((root) => root.path),
      skills: found.skills,
      digest: found.digest,
      trusted: trusted?.digest === found.digest,
    };
  }

  /** The trusted project folders, each `trusted` while its skills are what the person confirmed, else `changed`. */
  list(): TrustedProject[] {
    return listTrustedProjects(this.deps.db()).map((row) => {
      const now = readProjectSkills(row.path);
      return { path: row.path, state: now.digest === row.digest ? 'trusted' : 'changed', skills: now.skills, digest: now.digest, trustedAt: row.trustedAt };
    });
  }

  /** Trusts a folder's skills as the person saw them (`confirm`: inspect's digest; E856 when they changed since). */
  async trust(path: string, confirm: string): Promise<TrustedProject> {
    const found = readProjectSkills(projectFolder(path));
    if (found.digest !== confirm) throw connectErrors.projectChanged(found.path, 'are not the ones you were shown');
    const trustedAt = Date.now();
    trustProject(this.deps.db(), found.path, found.digest, trustedAt);
    await this.apply();
    this.deps.onChanged();
    return { path: found.path, state: 'trusted', skills: found.skills, digest: found.digest, trustedAt };
  }

  /** Stops trusting a folder (E857 when it was not trusted). */
  async untrust(path: string): Promise<void> {
    const folder = resolve(path);
    if (!untrustProject(this.deps.db(), folder)) throw connectErrors.projectNotTrusted(folder);
    await this.apply();
    this.deps.onChanged();
  }

  /** Brings the registry's roots up to date with the trusted folders whose skills are unchanged; from the first call on, again after every change on disk. */
  apply(): Promise<void> {
    const { registry, configured } = this.deps;
    this.applying = this.applying.then(async () => {
      if (this.deps.closed()) return;
      const trusted = listTrustedProjects(this.deps.db()).flatMap((row) => {
        const now = readProjectSkills(row.path);
        return now.digest === row.digest ? now.roots : [];
      });
      const roots = [...configured, ...trusted.filter((root) => !configured.some((r) => r.path === root.path))];
      if (!isDeepStrictEqual(roots, registry.roots)) await registry.setRoots(roots);
      if (!this.following) {
        this.following = true;
        registry.on('change', () => {
          if (listTrustedProjects(this.deps.db()).length > 0) void this.apply().catch(() => undefined);
        });
      }
    });
    return this.applying;
  }

  /** Refuses (E856) a project skill whose folder's skills are not what the person trusted: the registry may not have caught up with an edit yet. */
  check(name: string): void {
    const skill = this.deps.registry.get(name);
    if (skill?.root.kind !== 'project') return;
    // A project root is <project>/.claude/skills or <project>/.agents/skills.
    const project = resolve(skill.root.path, '..', '..');
    const row = listTrustedProjects(this.deps.db()).find((p) => p.path === project);
    if (row === undefined || readProjectSkills(project).digest !== row.digest)
      throw connectErrors.projectChanged(skill.root.path, 'changed since you trusted them');
  }

  /** Resolves once the last change of roots is done (or failed). */
  settled(): Promise<void> {
    return this.applying.catch(() => undefined);
  }
}
