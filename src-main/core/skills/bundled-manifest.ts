/**
 * The manifest of the bundled skills: each skill's name, its content hash (the RFC-0001 hash the
 * loader computes and approvals are pinned to) and the sha256 of each of its files. The build makes
 * it (scripts/bundled-manifest.js) and the app ships it; a checkout carries the one checked in.
 * Trust in the bundled folder comes from it, not from the folder: a skill found there is bundled
 * only when it is listed with the very hash it has now (core/skills/identity.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { changedFiles } from './changed-files.js';
import { hashFile } from '../files/hash.js';
import { ManifestHasher, walkSkill } from './walk.js';
import { skillDirNames } from './root-layout.js';

/** One bundled skill as shipped. */
export interface ShippedSkill {
  hash: string;
  /** sha256 of each file by its path in the skill (`/`-separated), as the content hash covers them. */
  files: Record<string, string>;
}

/** The manifest file's whole content. */
export interface BundledManifest {
  version: 1;
  skills: Record<string, ShippedSkill>;
}

/** The manifest of the skills in `dir` as they are on disk: what the build writes. */
export function bundledManifestOf(dir: string): BundledManifest {
  const skills: Record<string, ShippedSkill> = {};
  for (const name of skillDirNames(dir)) {
    const hasher = new ManifestHasher();
    const files: Record<string, string> = {};
    for (const file of walkSkill(join(dir, name)).files) {
      const digest = hashFile(file.abs);
      files[file.rel] = digest;
      hasher.add(file.rel, digest);
    }
    skills[name] = { hash: hasher.digest(), files };
  }
  return { version: 1, skills };
}

/** The manifest as written to disk: stable key order, one trailing newline. */
export function manifestText(manifest: BundledManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function isShippedSkill(value: unknown): value is ShippedSkill {
  if (typeof value !== 'object' || value === null) return false;
  const { hash, files } = value as Record<string, unknown>;
  return typeof hash === 'string' && typeof files === 'object' && files !== null && Object.values(files).every((d) => typeof d === 'string');
}

function parseManifest(text: string): BundledManifest | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { version, skills } = parsed as Record<string, unknown>;
  if (version !== 1 || typeof skills !== 'object' || skills === null || !Object.values(skills).every(isShippedSkill)) return null;
  return { version: 1, skills: skills as Record<string, ShippedSkill> };
}

// Every loaded skill consults the manifest: read it again only when the file changed.
let cached: { path: string; stamp: string; manifest: BundledManifest | null } | null = null;

/** The manifest at `path`, or null when it is missing or not a valid manifest (then nothing in the bundled folder is bundled). */
export function readBundledManifest(path: string): BundledManifest | null {
  let stamp: string;
  try {
    const st = statSync(path);
    stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return null;
  }
  if (cached !== null && cached.path === path && cached.stamp === stamp) return cached.manifest;
  let manifest: BundledManifest | null;
  try {
    manifest = parseManifest(readFileSync(path, 'utf8'));
  } catch {
    manifest = null;
  }
  cached = { path, stamp, manifest };
  return manifest;
}

/** The files of a skill that are not as shipped: changed, added or removed, by path. */
export function filesNotAsShipped(dir: string, shipped: ShippedSkill): string[] {
  return changedFiles(walkSkill(dir).files, shipped.files, '');
}
