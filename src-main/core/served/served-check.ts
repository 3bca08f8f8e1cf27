/**
 * What the `mcp` root checks of each skill it loads (a RootCheck, as the packs root checks its lock).
 * The folder must hold exactly the files the person approved — its content hash is the manifest of
 * the approved `{path, sha256}` set — or the skill is an error (E460) and nothing of it runs. And
 * until the person approved what it declares too, every frontmatter field that would widen its runs
 * (reads, writes, limits, network, allowed-tools) is taken out before policy or the box see it (W460):
 * for them it was never written.
 */
import { basename, dirname, join } from 'node:path';
import type { Skill } from '../../shared/model.js';
import { compareBytewise } from '../files/paths.js';
import type { DiagnosticList } from '../skills/diagnostics.js';
import { ManifestHasher, type SkillFile } from '../skills/walk.js';
import type { FileRecord } from './served-entry.js';
import { readState } from './source-files.js';
import { declaredWidening } from './served-state.js';

/** The content hash a folder holding exactly `files` has (walk.ts's manifest over `path NUL sha256`). */
export function approvedHash(files: readonly FileRecord[]): string {
  const manifest = new ManifestHasher();
  for (const file of [...files].sort((a, b) => compareBytewise(a.path, b.path))) manifest.add(file.path, file.digest);
  return manifest.digest();
}

/** Takes out what a served skill declares that would widen its runs. */
function withoutWidening(skill: Skill): void {
  skill.box = { reads: [], writes: [], limits: {} };
  skill.network = false;
  skill.hosts = [];
  skill.allowedTools = null;
}

/** The RootCheck of the `mcp` root (its folder is `<home>/mcp/skills`, each skill's `<source>.<skill>`). */
export function checkServedSkill(skill: Skill, _files: readonly SkillFile[], diags: DiagnosticList): void {
  const folder = basename(skill.dir);
  const dot = folder.indexOf('.');
  const [source, name] = [folder.slice(0, dot), folder.slice(dot + 1)];
  const approved = dot <= 0 ? undefined : readState(join(dirname(skill.root.path), 'sources', source, 'state.json')).approved[name];
  if (approved === undefined || approvedHash(approved.files) !== skill.hash) {
    diags.add(
      'E460',
      `the files of served skill '${folder}' are not the ones you approved; it does not run (skilltray sources refresh-mcp ${source})`,
      skill.file,
      1,
    );
    withoutWidening(skill);
    return;
  }
  if (approved.grants) return;
  const declared = Object.keys(declaredWidening(skill.frontmatter));
  if (declared.length === 0) return;
  withoutWidening(skill);
  diags.add(
    'W460',
    `served skill '${folder}' declares ${declared.join(', ')}; ignored until you approve what it declares (skilltray sources approve-mcp ${folder} --grants)`,
    skill.file,
    1,
  );
}
