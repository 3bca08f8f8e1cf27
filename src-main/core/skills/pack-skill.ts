/**
 * A folder of gibb.eri.sh tool packs as one Skill: the folder is the skill (named as the folder,
 * hashed and copied for a run like any skill's), each pack in it (`*.tool.json` or `toolpack.json`,
 * at any depth) one of its tools with its own policy. A pack with an error is reported and left out;
 * the packs beside it load and run. The skill's own policy is the widest of its tools' (what `list`
 * and a rule's pin show), each tool's is its pack's.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MODES, type Skill, type SkillRoot, type Tool } from '../../shared/model.js';
import { ANY_HOST } from '../../shared/network-reach.js';
import { errnoText } from './entry-kinds.js';
import { stateOf, type DiagnosticList } from './diagnostics.js';
import { identify } from './identity.js';
import { isPackFile } from './pack-files.js';
import { MAX_PACK_BYTES, readToolPack } from './tool-pack.js';
import type { SkillWalk } from './walk.js';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A folder skill's description is its tools' (Agent Skills' limit). */
const MAX_DESCRIPTION = 1024;

/** The relative paths of a walk's tool packs, in the walk's (bytewise) order. */
export function packFilesOf(walk: Pick<SkillWalk, 'files'>): string[] {
  return walk.files.filter((file) => isPackFile(file.rel.slice(file.rel.lastIndexOf('/') + 1))).map((file) => file.rel);
}

/** Reads a pack's bytes, at most one more than a pack may have (E451 says it is too big), or why it cannot be read. */
function readPackBytes(abs: string): Buffer | string {
  let fd: number | null = null;
  try {
    fd = openSync(abs, 'r');
    const buffer = Buffer.alloc(MAX_PACK_BYTES + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    return buffer.subarray(0, length);
  } catch (error) {
    return errnoText(error);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** What a folder of tool packs says of itself: each tool's description, under the folder's name. */
function describe(tools: readonly Tool[]): string {
  const only = tools[0];
  if (tools.length === 1 && only !== undefined) return only.description;
  const text = `gibb.eri.sh tool packs: ${tools.map((tool) => `${tool.name} (${tool.description})`).join('; ')}`;
  return [...text].length > MAX_DESCRIPTION ? `${[...text].slice(0, MAX_DESCRIPTION - 1).join('')}…` : text;
}

/**
 * The tool-pack skill in `dir`: `skill` is it before reading (blankSkill, hashed by the caller),
 * `walk` its files, `bytes` each pack's bytes as the hash read them (so a parse is of the hashed version).
 */
export function readPackSkill(skill: Skill, root: SkillRoot, walk: Pick<SkillWalk, 'files'>, diags: DiagnosticList, bytes: Map<string, Buffer | string>): Skill {
  const rels = packFilesOf(walk);
  const first = rels[0];
  skill.file = first === undefined ? join(skill.dir, 'toolpack.json') : join(skill.dir, first);
  skill.syntax = 'braces';
  if (!SLUG.test(skill.name)) {
    diags.add('E405', `the folder's name '${skill.name}' is the skill's name and must be lowercase letters, digits and single inner hyphens`, skill.dir, 1);
  }
  const tools: Tool[] = [];
  for (const rel of rels) {
    const file = join(skill.dir, rel);
    const read = bytes.get(rel) ?? readPackBytes(file);
    if (typeof read === 'string') {
      diags.add('E451', `the tool pack cannot be read (${read})`, file, 1);
      continue;
    }
    const { tool } = readToolPack(read, file, diags);
    if (tool === null) continue;
    if (tools.some((t) => t.name === tool.name)) {
      diags.addAt('E419', `tool '${tool.name}' is declared twice (also by ${basename((tools.find((t) => t.name === tool.name) as Tool).file as string)})`, file, {
        line: tool.line,
        pointer: '/name',
      });
    } else {
      tools.push(tool);
    }
  }
  if (rels.length === 0) diags.add('E451', 'the folder holds no tool pack any more', skill.file, 1);
  skill.tools = tools;
  // A tool without modes is offered where a SKILL.md without them is: Global.
  for (const tool of tools) tool.modes ??= ['Global'];
  skill.modes = MODES.filter((mode) => tools.some((tool) => tool.modes?.includes(mode)));
  skill.description = describe(tools);
  const policies = tools.map((tool) => tool.policy ?? {});
  skill.readOnly = tools.length > 0 && policies.every((p) => p.readOnly === true);
  skill.alwaysAsk = tools.length > 0 && policies.every((p) => p.alwaysAsk === true);
  skill.timeoutSec = Math.max(skill.timeoutSec, ...policies.map((p) => p.timeoutSec ?? 0));
  skill.network = policies.some((p) => p.network === true);
  skill.hosts = skill.network ? [ANY_HOST] : [];
  skill.packs = rels.map((rel) => join(skill.dir, rel));
  // A broken pack is only its own tool's loss: the skill is in error only for what no tool escapes.
  skill.state = stateOf(diags.items, tools, skill.packs);
  return identify(skill);
}
