/**
 * The floor order inside src-main/core, as a lint rule: each folder (or file) directly under core
 * stands on a floor and may import only what stands on a lower floor, so no import runs back up and
 * no two parts of core lean on each other. The floors are the rule's option (eslint.config.js).
 */
import { dirname, resolve, sep } from 'node:path';

const CORE = `${sep}src-main${sep}core${sep}`;

/** The part of core `file` belongs to (`skills` for core/skills/x.ts, `api` for core/api.ts), or null outside core. */
function partOf(file) {
  const at = file.lastIndexOf(CORE);
  if (at === -1) return null;
  const first = file.slice(at + CORE.length).split(sep)[0];
  return first.replace(/\.(ts|tsx|js)$/, '');
}

export const coreFloors = {
  meta: {
    type: 'problem',
    docs: { description: 'src-main/core imports only downward through its floor order' },
    schema: [
      {
        type: 'object',
        properties: { floors: { type: 'array', items: { type: 'array', items: { type: 'string' } } } },
        required: ['floors'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        'core/{{from}} (floor {{fromFloor}}) imports core/{{to}} (floor {{toFloor}}): an import may only run down the floor order; move what it needs down, or the importer up (floors: eslint.config.js)',
      unplaced: 'core/{{part}} stands on no floor: place it in the floor order in eslint.config.js',
    },
  },
  create(context) {
    const floorOf = new Map();
    context.options[0].floors.forEach((parts, index) => parts.forEach((part) => floorOf.set(part, index + 1)));
    const from = partOf(context.filename);
    if (from === null) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = partOf(resolve(dirname(context.filename), source));
      if (to === null || to === from) return;
      for (const part of [from, to]) {
        if (!floorOf.has(part)) context.report({ node, messageId: 'unplaced', data: { part } });
      }
      const fromFloor = floorOf.get(from);
      const toFloor = floorOf.get(to);
      if (fromFloor !== undefined && toFloor !== undefined && toFloor >= fromFloor) {
        context.report({ node, messageId: 'upward', data: { from, to, fromFloor, toFloor } });
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

export default { rules: { 'core-floors': coreFloors } };
