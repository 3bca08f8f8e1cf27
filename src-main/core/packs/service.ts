/**
 * Installing, updating, listing and removing packs: the one place that puts fetch, scan, lock and
 * commit together. Every change runs under the packs lock (one process at a time) and leaves the
 * old pack or the new one whole (transaction.ts). Nothing is installed that was not scanned and
 * confirmed: a confirmation names the digest of the report the person saw (or is `yes`, the CLI's
 * `--yes`), and a source that changed since then is refused (E310).
 */
import { randomBytes, createHash } from 'node:crypto';
import { existsSync, mkdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { packErrors } from '../../shared/error-messages/packs.js';
import type { LockEntry, PackChange, PackInfo, ScanReport, UpdateReport } from '../../shared/packs.js';
import type { SkillRegistry } from '../skills/registry.js';
import { hashFile } from '../files/hash.js';
import { isInside } from '../files/paths.js';
import { diffScans } from './diff.js';
import { sortFindings, UNEXTRACTABLE, worstOf } from './findings.js';
import { checkPackName, packsDir } from './layout.js';
import { readLock } from './lock-file.js';
import { scanPack, type PackScan, type PolicyView } from './scan.js';
import { fetchSource, layOut, type PackRequest } from './source.js';
import { commit, withPacksLock, workDir, type CommitStep } from './transaction.js';
import { listTree } from './tree.js';
import type { TrustedKey } from './trusted-keys.js';

/** What a long pack operation reports as it goes (the CLI's --verbose, and the kill tests). */
export type PackProgress = { step: 'fetch' | 'scan' | 'confirmed' } | { step: 'file'; path: string } | { step: CommitStep };

/** How the person answered the scan report: the digest they saw, or `yes` for "whatever it is" (--yes). */
export interface Confirmation {
  confirm?: string | null;
  /** Install despite high-severity findings (--force). */
  force?: boolean;
}

/** What the pack service works with: the home, the registry it checks names against, the policy's profile rule, and what to do after a change. */
export interface PackServiceDeps {
  home: string;
  env: NodeJS.ProcessEnv;
  registry: SkillRegistry;
  policy: PolicyView;
  /** Called after a change with the skills it touched, and whether they are gone (uninstall) or changed. */
  onChanged(change: { pack: string; changed: string[]; removed: string[]; revokeTools: Map<string, string[] | null> }): { skill: string; tool: string }[];
}

interface Prepared {
  report: ScanReport;
  work: string;
  /** The staged pack's folder (its skills), when it was extracted. */
  dir: string | null;
  scan: PackScan | null;
  entry: LockEntry | null;
}

const digestOf = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** Installs, updates, lists and removes packs; the core's pack operations call it. */
export class PackService {
  constructor(private readonly deps: PackServiceDeps) {}

  /** Trusts a public key (SSH or GPG) to sign packs. */
  async trustKey(key: string, principal: string | null): Promise<TrustedKey> {
    const { trustKey } = await import('./trusted-keys.js');
    return trustKey(this.deps.home, this.deps.env, key, principal);
  }

  private get home(): string {
    return this.deps.home;
  }

  /** Fetches, lays out and scans `request` in a fresh work folder (the caller holds the lock and removes the folder; a failure removes it here). */
  private async prepare(request: PackRequest, cwd: string, onProgress: (p: PackProgress) => void, keepPack: string | null = null): Promise<Prepared> {
    const work = workDir(this.home, `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`);
    mkdirSync(work, { recursive: true });
    try {
      return await this.fetchAndScan(request, cwd, onProgress, keepPack, work);
    } catch (error) {
      rmSync(work, { recursive: true, force: true });
      throw error;
    }
  }

  private async fetchAndScan(
    request: PackRequest,
    cwd: string,
    onProgress: (p: PackProgress) => void,
    keepPack: string | null,
    work: string,
  ): Promise<Prepared> {
    onProgress({ step: 'fetch' });
    const fetched = await fetchSource(request, { home: this.home, env: this.deps.env, cwd, work, onFile: (path) => onProgress({ step: 'file', path }) });
    onProgress({ step: 'scan' });
    if (fetched.tree === null) {
      const findings = sortFindings([...fetched.findings]);
      const report: ScanReport = {
        pack: keepPack ?? '',
        origin: fetched.origin,
        skills: [],
        findings,
        files: 0,
        bytes: 0,
        worst: worstOf(findings),
        extracted: false,
        digest: digestOf({ origin: fetched.origin, findings }),
      };
      return { report, work, dir: null, scan: null, entry: null };
    }
    const staged = layOut(fetched.tree, request, fetched.origin, work);
    const pack = keepPack ?? checkPackName(staged.pack, 'pack name');
    const scan = scanPack(staged.dir, this.deps.policy, staged.renamed);
    for (const skill of scan.skills) skill.clash = this.clashOf(skill.name, pack);
    const findings = sortFindings([...fetched.findings, ...scan.findings]);
    const origin = fetched.origin;
    const entry: LockEntry = {
      origin,
      installedAt: Date.now(),
      skills: Object.fromEntries(scan.skills.map((s) => [s.name, { dir: s.dir, hash: s.hash, originalName: s.originalName }])),
      files: scan.files,
    };
    const { signature: _signature, ...identity } = origin;
    const report: ScanReport = {
      pack,
      origin,
      skills: scan.skills,
      findings,
      files: Object.keys(scan.files).length,
      bytes: scan.bytes,
      worst: worstOf(findings),
      extracted: true,
      digest: digestOf({ pack, identity, files: scan.files, skills: scan.skills.map((s) => [s.name, s.originalName]) }),
    };
    return { report, work, dir: staged.dir, scan, entry };
  }

  /** The loaded skill (or one it hides) that has `name` and is not part of `pack`, if any. */
  private clashOf(name: string, pack: string): { path: string; root: string } | null {
    const loaded = this.deps.registry.get(name);
    if (loaded === undefined) return null;
    const own = join(packsDir(this.home), pack);
    const other = [{ dir: loaded.dir, root: loaded.root }, ...loaded.shadows].find((s) => !isInside(own, s.dir));
    return other === undefined ? null : { path: other.dir, root: other.root.kind };
  }

  /** The scan report of `request`, written nowhere but `.staging` and removed again. */
  async preview(request: PackRequest, cwd: string, onProgress: (p: PackProgress) => void = () => undefined): Promise<ScanReport> {
    return withPacksLock(this.home, async () => {
      const prepared = await this.prepare(request, cwd, onProgress);
      rmSync(prepared.work, { recursive: true, force: true });
      return prepared.report;
    });
  }

  /** Refuses what may not be installed as confirmed: unextractable or high findings, clashes, no or a stale confirmation. */
  private gate(prepared: Prepared, answer: Confirmation): void {
    const { report } = prepared;
    const details = { report } as Record<string, unknown>;
    if (prepared.scan === null || report.findings.some((f) => UNEXTRACTABLE.has(f.code))) {
      throw packErrors.unsafeToExtract(
        report.origin.source,
        report.findings.filter((f) => UNEXTRACTABLE.has(f.code)).map((f) => f.code),
        details,
      );
    }
    const clashes = report.skills.filter((s) => s.clash !== null);
    if (clashes.length > 0) {
      const list = clashes.map((s) => `'${s.name}' (${s.clash?.root} skill at ${s.clash?.path})`).join(', ');
      throw packErrors.nameClash(report.pack, list, details);
    }
    if (report.worst === 'high' && answer.force !== true) {
      const high = report.findings.filter((f) => f.severity === 'high');
      throw packErrors.refused(report.pack, high.length, [...new Set(high.map((f) => f.code))], details);
    }
    const confirm = answer.confirm ?? null;
    if (confirm === null) throw packErrors.confirmationRequired(report.pack, details);
    if (confirm !== 'yes' && confirm !== report.digest) {
      throw packErrors.changedSinceScan(report.pack, details);
    }
  }

  /** Installs (or reinstalls) a pack after its scan report is confirmed. */
  async install(request: PackRequest, cwd: string, answer: Confirmation, onProgress: (p: PackProgress) => void = () => undefined): Promise<PackChange> {
    return withPacksLock(this.home, async () => {
      const prepared = await this.prepare(request, cwd, onProgress);
      return this.apply(prepared, answer, onProgress, 'install');
    });
  }

  private apply(prepared: Prepared, answer: Confirmation, onProgress: (p: PackProgress) => void, kind: 'install' | 'update'): PackChange {
    try {
      this.gate(prepared, answer);
    } catch (error) {
      rmSync(prepared.work, { recursive: true, force: true });
      throw error;
    }
    onProgress({ step: 'confirmed' });
    const { report } = prepared;
    const entry = prepared.entry as LockEntry;
    const previous = readLock(this.home).packs[report.pack] ?? null;
    const before = previous === null ? null : this.installedScan(report.pack);
    const id = prepared.work.slice(prepared.work.lastIndexOf('/') + 1);
    commit(this.home, { op: 'install', pack: report.pack, id, entry }, (step) => onProgress({ step }));
    const revokeTools = new Map<string, string[] | null>();
    const removed: string[] = [];
    if (before !== null && prepared.scan !== null) {
      // Only which skills changed or left matters here; the new version is already in place.
      for (const skill of diffScans(before, prepared.scan, this.deps.policy, { before: null, after: join(packsDir(this.home), report.pack) })) {
        if (skill.change === 'removed') removed.push(skill.name);
        // The hash pins every remembered approval of a changed skill; revoking says so out loud.
        if (skill.change === 'changed' || skill.change === 'removed') revokeTools.set(skill.name, null);
      }
    }
    const revoked = this.deps.onChanged({ pack: report.pack, changed: report.skills.map((s) => s.name), removed, revokeTools });
    const same = previous !== null && JSON.stringify(previous.files) === JSON.stringify(entry.files);
    const action = previous === null ? 'installed' : kind === 'update' ? (same ? 'unchanged' : 'updated') : 'reinstalled';
    return { pack: report.pack, action, skills: report.skills.map((s) => s.name), revoked, report };
  }

  /** The installed pack scanned as it is on disk, or null when its folder is gone. */
  private installedScan(pack: string): PackScan | null {
    const dir = join(packsDir(this.home), pack);
    return existsSync(dir) ? scanPack(dir, this.deps.policy) : null;
  }

  private entryOf(pack: string): LockEntry {
    const entry = readLock(this.home).packs[pack];
    if (entry === undefined) throw packErrors.packNotFound(pack);
    return entry;
  }

  /** The request that fetches `pack` again from where it came. */
  private requestOf(pack: string, entry: LockEntry): PackRequest {
    const renamed = Object.entries(entry.skills).find(([, s]) => s.originalName !== null);
    return { source: entry.origin.source, ref: entry.origin.ref, path: entry.origin.path, as: renamed === undefined ? null : renamed[0] };
  }

  /** What updating `pack` would change: fetched again, scanned, and compared with what is installed. */
  async previewUpdate(pack: string, onProgress: (p: PackProgress) => void = () => undefined): Promise<UpdateReport> {
    return withPacksLock(this.home, async () => {
      const prepared = await this.prepare(this.requestOf(pack, this.entryOf(pack)), this.home, onProgress, pack);
      try {
        return this.updateReport(pack, prepared);
      } finally {
        rmSync(prepared.work, { recursive: true, force: true });
      }
    });
  }

  private updateReport(pack: string, prepared: Prepared): UpdateReport {
    const entry = this.entryOf(pack);
    const installed = join(packsDir(this.home), pack);
    const before = this.installedScan(pack) ?? { skills: [], findings: [], files: {}, bytes: 0 };
    const skills =
      prepared.scan === null || prepared.dir === null
        ? []
        : diffScans(before, prepared.scan, this.deps.policy, { before: existsSync(installed) ? installed : null, after: prepared.dir });
    return {
      pack,
      from: { commit: entry.origin.commit, installedAt: entry.installedAt },
      scan: prepared.report,
      upToDate:
        prepared.scan !== null && JSON.stringify(entry.files) === JSON.stringify(prepared.scan.files) && entry.origin.commit === prepared.report.origin.commit,
      skills,
      widened: skills.some((s) => s.tools.some((t) => t.widened) || s.scripts.some((f) => f.mayDoMore)),
    };
  }

  /** Updates `pack` once its update report is confirmed (the digest is the report's scan digest). */
  async update(pack: string, answer: Confirmation, onProgress: (p: PackProgress) => void = () => undefined): Promise<PackChange> {
    return withPacksLock(this.home, async () => {
      const prepared = await this.prepare(this.requestOf(pack, this.entryOf(pack)), this.home, onProgress, pack);
      return this.apply(prepared, answer, onProgress, 'update');
    });
  }

  /**
   * Puts `pack` back to exactly what its lock records: fetched again from its origin (a git source at
   * the locked commit) and installed only when every file is the locked one, so no new confirmation
   * is asked: it is what the person confirmed. Anything else is E312, naming the files that differ.
   */
  async repair(pack: string, onProgress: (p: PackProgress) => void = () => undefined): Promise<PackChange> {
    return withPacksLock(this.home, async () => {
      const entry = this.entryOf(pack);
      const request = { ...this.requestOf(pack, entry), ref: entry.origin.commit ?? entry.origin.ref };
      const prepared = await this.prepare(request, this.home, onProgress, pack);
      const fetched = prepared.scan?.files ?? {};
      const differ = [...new Set([...Object.keys(entry.files), ...Object.keys(fetched)])].filter((path) => entry.files[path] !== fetched[path]).sort();
      if (differ.length > 0) {
        rmSync(prepared.work, { recursive: true, force: true });
        throw packErrors.notRepairable(pack, differ, prepared.report);
      }
      const id = prepared.work.slice(prepared.work.lastIndexOf('/') + 1);
      commit(this.home, { op: 'install', pack, id, entry }, (step) => onProgress({ step }));
      const skills = Object.keys(entry.skills).sort();
      const revoked = this.deps.onChanged({ pack, changed: skills, removed: [], revokeTools: new Map() });
      return { pack, action: 'repaired' as const, skills, revoked, report: prepared.report };
    });
  }

  /** Removes `pack`: its files and its lock entry; the caller's onChanged drops indexes, approvals and switches. */
  async uninstall(pack: string, onProgress: (p: PackProgress) => void = () => undefined): Promise<PackChange> {
    return withPacksLock(this.home, () => {
      const entry = this.entryOf(pack);
      const id = `remove-${randomBytes(4).toString('hex')}`;
      mkdirSync(workDir(this.home, id), { recursive: true });
      commit(this.home, { op: 'remove', pack, id, entry: null }, (step) => onProgress({ step }));
      const skills = Object.keys(entry.skills);
      const revoked = this.deps.onChanged({ pack, changed: [], removed: skills, revokeTools: new Map(skills.map((s) => [s, null])) });
      return { pack, action: 'uninstalled' as const, skills, revoked, report: null };
    });
  }

  /** Installed packs with their origin and whatever on disk differs from the lock. */
  list(): PackInfo[] {
    const lock = readLock(this.home);
    return Object.entries(lock.packs).map(([name, entry]) => {
      const dir = join(packsDir(this.home), name);
      return {
        name,
        dir,
        origin: entry.origin,
        installedAt: entry.installedAt,
        skills: Object.keys(entry.skills).sort(),
        modified: modifiedFiles(dir, entry.files),
      };
    });
  }
}

/** Files of an installed pack that differ from its lock entry (hidden ones included). */
function modifiedFiles(dir: string, locked: Record<string, string>): PackInfo['modified'] {
  if (!existsSync(dir)) return Object.keys(locked).map((path) => ({ path, change: 'removed' as const }));
  const out: PackInfo['modified'] = [];
  const seen = new Set<string>();
  for (const entry of listTree(dir)) {
    if (entry.type === 'directory') continue;
    seen.add(entry.rel);
    const digest = entry.type === 'file' ? hashFile(entry.abs) : entry.type === 'symlink' ? `link:${readlinkSafe(entry.abs)}` : 'other';
    if (locked[entry.rel] === undefined) out.push({ path: entry.rel, change: 'added' });
    else if (locked[entry.rel] !== digest) out.push({ path: entry.rel, change: 'changed' });
  }
  for (const path of Object.keys(locked)) if (!seen.has(path)) out.push({ path, change: 'removed' });
  return out;
}

function readlinkSafe(abs: string): string {
  try {
    return readlinkSync(abs);
  } catch {
    return '';
  }
}
