/**
 * The copy of a system folder a run as root gets for /etc: it holds exactly what others may read
 * (and not a listed secret), each file as it was when read, and a copy made after the folder changed
 * holds the change — for generated trees of files, folders and links of every mode, changed at random.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyShown, othersMayRead } from '../../../src-main/core/process/sandbox/system-copy.js';

/** Opens every folder under `dir` again (never through a link), so what the test closed can be removed. */
function reopen(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir)) if (lstatSync(join(dir, entry)).isDirectory()) reopen(join(dir, entry));
}

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) {
    if (existsSync(dir)) reopen(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

type Node = { kind: 'file'; mode: number; text: string } | { kind: 'dir'; mode: number; entries: Record<string, Node> } | { kind: 'link'; target: string };

const MODES = [0o644, 0o640, 0o600, 0o604, 0o400, 0o444, 0o000];
const DIR_MODES = [0o755, 0o750, 0o700, 0o711, 0o751, 0o705];

const name = fc.constantFrom('a', 'b', 'c', 'passwd', 'shadow', 'group.lock', '.pwd.lock', 'x+', 'ssl');
const file = fc.record({ kind: fc.constant('file' as const), mode: fc.constantFrom(...MODES), text: fc.string({ maxLength: 12 }) });
const link = fc.record({ kind: fc.constant('link' as const), target: fc.constantFrom('a', '../a', '/etc/shadow', 'missing', 'ssl/a') });
const tree = fc.letrec<{ dir: Node; node: Node }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, file, link, tie('dir')),
  dir: fc.record({ kind: fc.constant('dir' as const), mode: fc.constantFrom(...DIR_MODES), entries: fc.dictionary(name, tie('node'), { maxKeys: 4 }) }),
})).dir as fc.Arbitrary<Extract<Node, { kind: 'dir' }>>;

/** Writes `node`'s entries under `dir` (folder modes last, so every entry can be made first). */
function write(dir: string, node: Extract<Node, { kind: 'dir' }>, secret: { n: number }): void {
  for (const [entry, child] of Object.entries(node.entries)) {
    const path = join(dir, entry);
    if (child.kind === 'file') {
      // What others may not read carries a marker: none may reach the copy.
      writeFileSync(path, othersMayRead(child.mode, false) ? `shown ${child.text}` : `SECRET-${secret.n++} ${child.text}`);
      chmodSync(path, child.mode);
    } else if (child.kind === 'link') symlinkSync(child.target, path);
    else {
      mkdirSync(path);
      write(path, child, secret);
      chmodSync(path, child.mode);
    }
  }
}

/** What a copy of `node` must hold, path by path: `file:<text>`, `link:<target>` or `dir`. */
function expected(node: Extract<Node, { kind: 'dir' }>, at: string, listed: ReadonlySet<string>, out: Map<string, string>, root: string): Map<string, string> {
  for (const [entry, child] of Object.entries(node.entries)) {
    const path = join(at, entry);
    if (listed.has(join(root, path))) continue;
    if (child.kind === 'link') out.set(path, `link:${child.target}`);
    else if (child.kind === 'file') {
      if (othersMayRead(child.mode, false)) out.set(path, `file:shown ${child.text}`);
    } else if (othersMayRead(child.mode, true)) {
      out.set(path, 'dir');
      expected(child, path, listed, out, root);
    }
  }
  return out;
}

/** What a copy holds, path by path, in the same form (never through a link). */
function held(dir: string, at = '', out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(join(dir, at))) {
    const rel = join(at, entry);
    const path = join(dir, rel);
    const stat = lstatSync(path);
    out.set(rel, stat.isSymbolicLink() ? `link:${readlinkSync(path)}` : stat.isDirectory() ? 'dir' : `file:${readFileSync(path, 'utf8')}`);
    if (stat.isDirectory()) held(dir, rel, out);
  }
  return out;
}

/** Every path of `node`, relative. */
function paths(node: Extract<Node, { kind: 'dir' }>, at = ''): string[] {
  return Object.entries(node.entries).flatMap(([entry, child]) => [join(at, entry), ...(child.kind === 'dir' ? paths(child, join(at, entry)) : [])]);
}

/** A change to make to the tree on disk (and its model) before the next copy: made unreadable or readable, rewritten, removed, or made another kind. */
const change = fc.record({ pick: fc.nat(), what: fc.constantFrom('chmod-hide', 'chmod-show', 'rewrite', 'remove', 'to-dir', 'to-file', 'to-link') });

function apply(root: string, model: Extract<Node, { kind: 'dir' }>, pick: number, what: string, secret: { n: number }): void {
  const all = paths(model);
  if (all.length === 0) return;
  const rel = all[pick % all.length] as string;
  const parts = rel.split('/');
  let parent = model;
  for (const part of parts.slice(0, -1)) parent = parent.entries[part] as Extract<Node, { kind: 'dir' }>;
  const last = parts.at(-1) as string;
  const node = parent.entries[last] as Node;
  const path = join(root, rel);
  // A folder above may be closed to its owner too (mode 0): opened for the change, closed again after.
  const above = parts.slice(0, -1).map((_, i) => join(root, ...parts.slice(0, i + 1)));
  const modes = above.map((dir) => lstatSync(dir).mode & 0o7777);
  for (const dir of above) chmodSync(dir, 0o755);
  if (what === 'remove') {
    rmSync(path, { recursive: true, force: true });
    delete parent.entries[last];
  } else if (what.startsWith('to-')) {
    if (node.kind === 'dir') chmodSync(path, 0o755);
    rmSync(path, { recursive: true, force: true });
    const made: Node =
      what === 'to-dir'
        ? { kind: 'dir', mode: 0o755, entries: { a: { kind: 'file', mode: 0o644, text: 'in' } } }
        : what === 'to-file'
          ? { kind: 'file', mode: 0o644, text: 'now' }
          : { kind: 'link', target: 'a' };
    parent.entries[last] = made;
    write(join(root, ...parts.slice(0, -1)), { kind: 'dir', mode: 0o755, entries: { [last]: made } }, secret);
  } else if (node.kind === 'file') {
    if (what === 'rewrite') node.text = `${node.text}!`;
    else node.mode = what === 'chmod-hide' ? 0o600 : 0o644;
    chmodSync(path, 0o600);
    writeFileSync(path, othersMayRead(node.mode, false) ? `shown ${node.text}` : `SECRET-${secret.n++} ${node.text}`);
    chmodSync(path, node.mode);
  } else if (node.kind === 'dir' && what !== 'rewrite') {
    node.mode = what === 'chmod-hide' ? 0o700 : 0o755;
    chmodSync(path, node.mode);
  }
  above.forEach((dir, i) => chmodSync(dir, modes[i] as number));
}

describe('the copy of a system folder a run as root gets', () => {
  it('holds exactly what others may read and no listed path, each file as read, and is kept in step with every change (generated trees and changes)', () => {
    fc.assert(
      fc.property(
        tree,
        fc.array(fc.constantFrom('shadow', 'ssl', 'ssl/a', 'b/shadow'), { maxLength: 2 }),
        fc.array(change, { maxLength: 4 }),
        (model, listedNames, changes) => {
          const root = mkdtempSync(join(tmpdir(), 'skilltray-copy-test-'));
          scratch.push(root);
          const secret = { n: 0 };
          write(root, model, secret);
          const listed = new Set(listedNames.map((entry) => join(root, entry)));
          const first = copyShown(root, listed);
          expect(first).not.toBeNull();
          const copied = held(first?.dir as string);
          expect(copied).toEqual(expected(model, '', listed, new Map(), root));
          for (const text of copied.values()) expect(text).not.toContain('SECRET-');
          for (const { pick, what } of changes) apply(root, model, pick, what, secret);
          // Kept in step: the same folder, holding the changes and nothing hidden since.
          const again = copyShown(root, listed);
          expect(again?.dir).toBe(first?.dir);
          const copiedAgain = held(again?.dir as string);
          expect(copiedAgain).toEqual(expected(model, '', listed, new Map(), root));
          for (const text of copiedAgain.values()) expect(text).not.toContain('SECRET-');
        },
      ),
      { numRuns: 150 },
    );
  });

  it("removes the copies a process killed before its exit left (they are memory), and no live one's", async () => {
    const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
    const gone = spawnSync('true').pid as number;
    const left = join(base, `skilltray-system-${gone}-test`);
    const live = join(base, `skilltray-system-${process.ppid}-test`);
    scratch.push(left, live);
    mkdirSync(join(left, 'copy-x'), { recursive: true });
    mkdirSync(live);
    const root = mkdtempSync(join(tmpdir(), 'skilltray-copy-test-'));
    scratch.push(root);
    // A fresh module is a process's first copy.
    vi.resetModules();
    const fresh = await import('../../../src-main/core/process/sandbox/system-copy.js');
    expect(fresh.copyShown(root, new Set())).not.toBeNull();
    expect(existsSync(left)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('leaves out an entry that vanishes, and is null for a folder that is not there', () => {
    const root = mkdtempSync(join(tmpdir(), 'skilltray-copy-test-'));
    scratch.push(root);
    writeFileSync(join(root, 'group.lock'), 'SECRET', { mode: 0o600 });
    writeFileSync(join(root, 'passwd'), 'shown');
    expect(held((copyShown(root, new Set()) as { dir: string }).dir)).toEqual(new Map([['passwd', 'file:shown']]));
    unlinkSync(join(root, 'group.lock'));
    unlinkSync(join(root, 'passwd'));
    expect(held((copyShown(root, new Set()) as { dir: string }).dir)).toEqual(new Map());
    expect(copyShown(join(root, 'gone'), new Set())).toBeNull();
  });
});
