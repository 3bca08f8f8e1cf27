/**
 * The one answer to "who is this skill": the root it was found in, its folder, its content hash and,
 * for the bundled folder, whether the manifest shipped with Skilltray lists that very content. Trust
 * follows from it and from nothing else: a skill is bundled only when it lies in the bundled folder
 * and matches the manifest. So do the warnings every view shows (check, list, the skill browser, the
 * approval): W420 for a skill in the bundled folder that Skilltray did not ship as it is, W421 for a
 * skill that hides another of its name, and E433/E434 for declarations that reach a secret place on
 * this machine (declared-places.ts). A skill too big to hash whole (W413) cannot be vouched for
 * either. Rules and remembered approvals are pinned to what this returns (core/policy/pins.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_WORDS } from '../../shared/identity-text.js';
import type { Diagnostic, Skill, SkillIdentity } from '../../shared/model.js';
import type { KnownPlaces } from '../files/secret-places.js';
import { filesNotAsShipped, type BundledManifest } from './bundled-manifest.js';
import { declaredSecrets } from './declared-places.js';
import { DiagnosticList, stateOf } from './diagnostics.js';

/** The codes this module adds: recomputed on every call, never carried over. */
const OWN_CODES: ReadonlySet<string> = new Set(['W420', 'W421', 'E433', 'E434']);

/** What the manifest says about a skill of the bundled folder, and the warning when it is not as shipped. */
function againstManifest(skill: Skill, manifest: BundledManifest | null): Pick<SkillIdentity, 'manifest' | 'unverified'> {
  if (manifest === null) {
    return { manifest: 'unreadable', unverified: `the manifest of Skilltray's bundled skills cannot be read, so '${skill.name}' in the bundled folder cannot be verified` };
  }
  const shipped = manifest.skills[skill.name];
  if (shipped === undefined) {
    return {
      manifest: 'absent',
      unverified: `'${skill.name}' is in Skilltray's bundled folder but Skilltray did not ship it; keep your own skills in your skills folder (skilltray roots)`,
    };
  }
  if (shipped.hash === skill.hash) return { manifest: 'match', unverified: null };
  const changed = filesNotAsShipped(skill.dir, shipped);
  const shown = changed.slice(0, 5).join(', ');
  return {
    manifest: 'differs',
    unverified: `bundled skill '${skill.name}' is not as Skilltray shipped it: ${shown || 'its files differ'}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''}; reinstall Skilltray to restore it`,
  };
}

/** Where a skill and the one it hides are of two formats (SKILL.md, gibb.eri.sh tool packs), the words that say which won; else nothing. */
function formatsDiffer(skill: Skill, hiddenDir: string): string {
  const packs = skill.packs !== undefined;
  const hiddenPacks = !existsSync(join(hiddenDir, 'SKILL.md'));
  if (packs === hiddenPacks) return '';
  return packs ? '; the tool packs here win over that SKILL.md' : '; this SKILL.md wins over the tool packs there';
}

/**
 * Who `skill` is, set on it (with its trust and warnings), and returned. `manifest` is the bundled
 * manifest as read (null: none could be read); leave it out where nobody asked (a skill parsed on its
 * own): a skill of the bundled folder is then not bundled, without a warning. The shadowed skills are
 * taken from `skill.shadows`; `places` is what is known of this machine (only the platform: its
 * declarations are judged as written). Its diagnostics array is replaced, never changed in place: a
 * parse cache may hold the same one.
 */
export function identify(skill: Skill, manifest?: BundledManifest | null, places: KnownPlaces = { platform: process.platform }): Skill {
  const inBundled = skill.root.kind === 'bundled';
  const checked = inBundled && manifest !== undefined ? againstManifest(skill, manifest) : { manifest: null, unverified: null };
  // An installed pack's files are checked against its lock by the packs root's check (packs/verify.ts, handed to the registry by library.ts).
  const lock = skill.diagnostics.find((d) => d.code === 'W416');
  // A hash that stopped short (W413) cannot vouch for the files it did not read.
  const tooBig = skill.diagnostics.find((d) => d.code === 'W413');
  skill.identity = {
    rootKind: skill.root.kind,
    path: skill.dir,
    hash: skill.hash,
    manifest: checked.manifest,
    trust: inBundled && checked.manifest === 'match' ? 'bundled' : 'user',
    unverified: checked.unverified ?? lock?.message ?? tooBig?.message ?? null,
    hides: skill.shadows.map((s) => ({ path: s.dir, rootKind: s.root.kind })),
  };
  skill.trust = skill.identity.trust;
  const declared = declaredSecrets(skill, places);
  // The common case, a skill as shipped (or not bundled) that hides nothing, keeps its diagnostics as they are.
  if (checked.unverified === null && skill.shadows.length === 0 && declared.length === 0 && !skill.diagnostics.some((d) => OWN_CODES.has(d.code))) return skill;
  const diags = new DiagnosticList();
  if (checked.unverified !== null) diags.add('W420', `${checked.unverified}: it is trusted as a user skill and never runs unasked`, skill.file, 1);
  for (const hidden of skill.shadows) {
    diags.add(
      'W421',
      `'${skill.name}' hides the skill of the same name in ${ROOT_WORDS[hidden.root.kind]} (${hidden.dir}): rules and approvals given to that one do not apply to this one${formatsDiffer(skill, hidden.dir)}`,
      skill.file,
      1,
    );
  }
  const diagnostics: Diagnostic[] = [...skill.diagnostics.filter((d) => !OWN_CODES.has(d.code)), ...declared, ...diags.items];
  skill.diagnostics = diagnostics;
  skill.state = stateOf(diagnostics, skill.tools, skill.packs);
  return skill;
}
