/** The floor order inside src-main/core (eslint/core-floors.js): lint refuses an import that runs back up, and core holds no import cycle. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const CORE = join(ROOT, 'src-main', 'core');

/** What lint says of `text` as if it were the core file `rel`, by the project's own config. */
async function floorMessages(rel: string, text: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(text, { filePath: join(CORE, rel) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'floors/core-floors').map((m) => m.message);
}

describe('the floor order inside core', () => {
  it('lint fails a new import that runs back up (markdown, floor 2, importing skills, floor 3)', async () => {
    const messages = await floorMessages(
      'markdown/back-arrow.ts',
      "import { blankSkill } from '../skills/parse-skill.js';\nexport const skill = blankSkill;\n",
    );
    expect(messages).toEqual([expect.stringMatching(/^core\/markdown \(floor 2\) imports core\/skills \(floor 3\): an import may only run down/)]);
  });

  it('lint fails an import between two parts of one floor, and a type-only or dynamic import as much as any', async () => {
    expect(
      await floorMessages('policy/x.ts', "import type { RunProcessOptions } from '../process/run-process.js';\nexport type X = RunProcessOptions;\n"),
    ).toHaveLength(1);
    expect(await floorMessages('skills/x.ts', "export const load = () => import('../packs/verify.js');\n")).toHaveLength(1);
  });

  it('lint passes imports down the floors, and within one part', async () => {
    expect(
      await floorMessages(
        'gateway/x.ts',
        "import { isInside } from '../files/paths.js';\nimport { logArgs } from './log-args.js';\nexport const y = [isInside, logArgs];\n",
      ),
    ).toEqual([]);
  });

  it('lint asks a new part of core to be given its floor', async () => {
    const messages = await floorMessages('newpart/x.ts', "import { utcSeconds } from '../timestamps.js';\nexport const now = utcSeconds;\n");
    expect(messages).toEqual(['core/newpart stands on no floor: place it in the floor order in eslint.config.js']);
  });
});

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** The import cycles among `files` (each a strongly connected group of more than one file, or a file importing itself). */
function importCycles(files: readonly string[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts'));
    edges.set(
      file,
      targets.filter((t) => edges.has(t) || files.includes(t)),
    );
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      group.push(relative(ROOT, w));
    } while (w !== v);
    if (group.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(group.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

describe('import cycles', () => {
  it('core holds none, file by file (the floors rule out cycles between parts; this rules them out inside one)', () => {
    expect(importCycles(sources(CORE))).toEqual([]);
  });

  it('the check finds a cycle when there is one', () => {
    const cycles = importCycles([join(ROOT, 'test', 'fixtures', 'import-cycle', 'a.ts'), join(ROOT, 'test', 'fixtures', 'import-cycle', 'b.ts')]);
    expect(cycles).toEqual([['test/fixtures/import-cycle/a.ts', 'test/fixtures/import-cycle/b.ts']]);
  });
});
