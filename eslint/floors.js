/**
 * A floor order as a lint rule: each folder (or file) directly under a root (src-main/core, src-renderer)
 * stands on a floor and may import only what stands on a lower floor, so no import runs back up and
 * no two parts lean on each other. The root and its floors are the rule's options (eslint.config.js).
 */
import { basename, dirname, resolve, sep } from 'node:path';

/** The part of `root` that `file` belongs to (`skills` for core/skills/x.ts, `api` for core/api.ts), or null outside it. */
function partOf(file, root) {
  const marker = `${sep}${root.split('/').join(sep)}${sep}`;
  const at = file.lastIndexOf(marker);
  if (at === -1) return null;
  const first = file.slice(at + marker.length).split(sep)[0];
  return first.replace(/\.(ts|tsx|js)$/, '');
}

export const floorOrder = {
  meta: {
    type: 'problem',
    docs: { description: 'a root (src-main/core, src-renderer) imports only downward through its floor order' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, floors: { type: 'array', items: { type: 'array', items: { type: 'string' } } } },
        required: ['root', 'floors'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        '{{name}}/{{from}} (floor {{fromFloor}}) imports {{name}}/{{to}} (floor {{toFloor}}): an import may only run down the floor order; move what it needs down, or the importer up (floors: eslint.config.js)',
      unplaced: '{{name}}/{{part}} stands on no floor: place it in the floor order in eslint.config.js',
    },
  },
  create(context) {
    const { root, floors } = context.options[0];
    const name = basename(root);
    const floorOf = new Map();
    floors.forEach((parts, index) => parts.forEach((part) => floorOf.set(part, index + 1)));
    const from = partOf(context.filename, root);
    if (from === null) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = partOf(resolve(dirname(context.filename), source), root);
      if (to === null || to === from) return;
      for (const part of [from, to]) {
        if (!floorOf.has(part)) context.report({ node, messageId: 'unplaced', data: { name, part } });
      }
      const fromFloor = floorOf.get(from);
      const toFloor = floorOf.get(to);
      if (fromFloor !== undefined && toFloor !== undefined && toFloor >= fromFloor) {
        context.report({ node, messageId: 'upward', data: { name, from, to, fromFloor, toFloor } });
      }
    };
    const fromSource = (node) => check(node, node.source?.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : undefined),
    };
  },
};

export default { rules: { 'floor-order': floorOrder } };
