/**
 * The floor orders inside src-main/core and src-renderer (eslint/floors.js): lint refuses an import that runs back up,
 * and the repository's own code holds no import cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const CORE = join(ROOT, 'src-main', 'core');
const RENDERER = join(ROOT, 'src-renderer');

/** What the floor rule says of `text` as if it were the file `rel` under `root`, by the project's own config. */
async function floorMessages(rel: string, text: string, root = CORE): Promise<string[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(text, { filePath: join(root, rel) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'floors/floor-order').map((m) => m.message);
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

describe('the floor order inside the renderer', () => {
  it('lint fails a new import that runs back up (approvals, floor 4, importing the tool run, floor 5)', async () => {
    const messages = await floorMessages(
      'approvals/back-arrow.tsx',
      "import { ToolRun } from '../tools/tool-run.js';\nexport const Run = ToolRun;\n",
      RENDERER,
    );
    expect(messages).toEqual([
      expect.stringMatching(/^src-renderer\/approvals \(floor 4\) imports src-renderer\/tools \(floor 5\): an import may only run down/),
    ]);
  });

  it('lint fails an import between two screens of one floor, and one from the shared floor up to the shell', async () => {
    expect(
      await floorMessages('history/x.tsx', "import { PacksScreen } from '../packs/packs-screen.js';\nexport const P = PacksScreen;\n", RENDERER),
    ).toHaveLength(1);
    expect(await floorMessages('app/x.ts', "export const load = () => import('../shell/app.js');\n", RENDERER)).toHaveLength(1);
  });

  it('lint passes imports down the floors, and asks a new part to be given its floor', async () => {
    expect(
      await floorMessages(
        'palette/x.tsx',
        "import { ParamField } from '../tools/param-field.js';\nimport { isMac } from '../app/platform.js';\nexport const y = [ParamField, isMac];\n",
        RENDERER,
      ),
    ).toEqual([]);
    expect(await floorMessages('newpart/x.ts', "import { isMac } from '../app/platform.js';\nexport const mac = isMac;\n", RENDERER)).toEqual([
      'src-renderer/newpart stands on no floor: place it in the floor order in eslint.config.js',
    ]);
  });
});

/** The folders of the repository's own code: everything but tests, their fixtures, builds and packages. */
const CODE = ['src-main', 'src-renderer', 'bench', 'scripts', 'eslint', join('test', 'support'), join('test', 'e2e')];

/** Every .ts, .tsx or .js file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(tsx?|m?js)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** The file an import specifier names, as TypeScript resolves it: `x.js` may be x.ts or x.tsx, a folder its index. */
function resolveImport(from: string, specifier: string, known: ReadonlySet<string>): string | null {
  const bare = resolve(dirname(from), specifier).replace(/\.(m?js|tsx?)$/, '');
  const candidates = [resolve(dirname(from), specifier), ...['.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'].map((ext) => bare + ext)];
  return candidates.find((c) => known.has(c)) ?? null;
}

/** The import cycles among `files` (each a strongly connected group of more than one file, or a file importing itself). */
function importCycles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.filter((i) => i.fileName.startsWith('.')).map((i) => resolveImport(file, i.fileName, known));
    edges.set(
      file,
      targets.filter((t) => t !== null),
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
  it('the repository holds none, file by file (the floors rule out cycles between parts; this rules them out inside one and outside the floors)', () => {
    const files = CODE.flatMap((dir) => sources(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(500);
    expect(importCycles(files)).toEqual([]);
  });

  it('the check finds a cycle when there is one', () => {
    const cycles = importCycles([join(ROOT, 'test', 'fixtures', 'import-cycle', 'a.ts'), join(ROOT, 'test', 'fixtures', 'import-cycle', 'b.ts')]);
    expect(cycles).toEqual([['test/fixtures/import-cycle/a.ts', 'test/fixtures/import-cycle/b.ts']]);
  });
});
