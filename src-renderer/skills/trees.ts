/** Flat outline and sources listings (in document / walk order) turned into trees to render. */
import type { OutlineHeading, SourceEntry } from '../../src-main/shared/gateway.js';

export interface OutlineNode {
  heading: OutlineHeading;
  children: OutlineNode[];
}

/** Headings grouped by file (first appearance order), each file's headings nested by level. */
export function outlineTree(headings: readonly OutlineHeading[]): { file: string; nodes: OutlineNode[] }[] {
  const files = new Map<string, { roots: OutlineNode[]; stack: OutlineNode[] }>();
  for (const heading of headings) {
    let file = files.get(heading.file);
    if (!file) {
      file = { roots: [], stack: [] };
      files.set(heading.file, file);
    }
    const node: OutlineNode = { heading, children: [] };
    while (file.stack.length > 0 && (file.stack[file.stack.length - 1] as OutlineNode).heading.level >= heading.level) file.stack.pop();
    const parent = file.stack[file.stack.length - 1];
    (parent ? parent.children : file.roots).push(node);
    file.stack.push(node);
  }
  return [...files].map(([file, { roots }]) => ({ file, nodes: roots }));
}

export interface SourceNode {
  entry: SourceEntry;
  children: SourceNode[];
}

/** A pre-order listing with depths (1 = top level) as nested nodes. */
export function sourceTree(entries: readonly SourceEntry[]): SourceNode[] {
  const roots: SourceNode[] = [];
  const stack: SourceNode[] = [];
  for (const entry of entries) {
    const node: SourceNode = { entry, children: [] };
    while (stack.length >= entry.depth) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.children : roots).push(node);
    stack.push(node);
  }
  return roots;
}
