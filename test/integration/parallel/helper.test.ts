/**
 * The real helper (core/parallel-worker.ts), as both builds ship it — dist/node's for the
 * app, the CLI bundle's one file — run on its own over skills of every kind: each output is what
 * the same job gives on this thread, and an input whose job throws is given back, not lost.
 */
import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { HelperBatch, HelperData, HelperWork, JobName } from '../../../src-main/core/parallel.js';
import { freshParseJob, parseFresh, parseListed, receivedParse, type FreshParse, type PostedParse } from '../../../src-main/core/skills/fresh-parse.js';
import { encodePayload, recordedPayload } from '../../../src-main/core/skills/cache-payload.js';
import type { SkillTree } from '../../../src-main/core/skills/fingerprint.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import type { SkillRoot } from '../../../src-main/shared/model.js';
import { catalogRowsJob } from '../../../src-main/core/search/catalog-rows.js';
import { waitAsync } from '../../support/atomics.js';
import { tempDir } from '../../support/temp.js';
import { writeVariedSkills } from '../../support/varied-skills.js';

const DIST = join(import.meta.dirname, '..', '..', '..', 'dist');
const BUILDS = {
  'dist/node': join(DIST, 'node', 'src-main', 'core', 'parallel-worker.js'),
  'the CLI bundle': join(DIST, 'cli', 'parallel-worker.js'),
};

/** The job's parse of one skill on this thread, as the registry makes it. */
const parseHere = ({ dir, root }: { dir: string; root: SkillRoot }): FreshParse =>
  parseFresh(dir, root, (at, under, walk) => parseSkill(at, under, walk ?? undefined));

/** Runs the helper at `script` alone over `inputs` and returns every output it posted, by input. */
async function helperOutputs(script: string, job: JobName, inputs: readonly unknown[]): Promise<Map<number, [unknown, boolean]>> {
  const { port1, port2 } = new MessageChannel();
  const count = () => new Int32Array(new SharedArrayBuffer(4));
  const data: HelperData = { job, port: port2 };
  const worker = new Worker(script, { workerData: data, transferList: [port2] });
  const work: HelperWork = { inputs, next: count(), posted: count() };
  port1.postMessage(work);
  const code = await new Promise<number>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', resolve);
  });
  expect(code).toBe(0);
  const outputs = new Map<number, [unknown, boolean]>();
  for (let message = receiveMessageOnPort(port1); message !== undefined; message = receiveMessageOnPort(port1)) {
    for (const [index, output, ok] of message.message as HelperBatch) outputs.set(index, [output, ok]);
  }
  port1.close();
  return outputs;
}

describe('the helper thread', () => {
  for (const [build, script] of Object.entries(BUILDS)) {
    it(`parses each skill as this thread does (${build})`, async () => {
      const { dirs, root: skillRoot } = writeVariedSkills(tempDir(), 8);
      const inputs = dirs.map((dir) => ({ dir, root: skillRoot }));
      const outputs = await helperOutputs(script, 'skill-parse', inputs);
      expect(outputs.size).toBe(inputs.length);
      const here = inputs.map(parseHere);
      const forms = new Set<string>();
      inputs.forEach((input, i) => {
        const [output, ok] = outputs.get(i) ?? [];
        expect(ok, input.dir).toBe(true);
        const { payload, ...parse } = receivedParse(output as PostedParse);
        expect(parse, input.dir).toEqual(here[i]);
        // Posted as the cache's payload, it is the payload this thread would have stored.
        const { tree, skill } = here[i] as FreshParse;
        if (payload !== undefined) expect(payload, input.dir).toBe(encodePayload(recordedPayload(tree as SkillTree, skill)));
        forms.add(payload === undefined ? 'objects' : 'payload');
      });
      // The kinds the corpus holds did reach the comparison: JSON text, and objects for what JSON cannot give back (`.inf`).
      const codes = new Set(here.flatMap((parse) => parse.skill.diagnostics.map((d) => d.code)));
      expect([...codes]).toEqual(expect.arrayContaining(['W415', 'E407', 'W412']));
      expect([...forms].sort()).toEqual(['objects', 'payload']);
    });

    it(`reads a folder only listed as this thread does: its skill, or null where nothing in it is named SKILL.md (${build})`, async () => {
      const { dirs, root: skillRoot } = writeVariedSkills(tempDir(), 2);
      const odd = (name: string, files: Record<string, string>): string => {
        const dir = join(skillRoot.path, name);
        mkdirSync(dir, { recursive: true });
        for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
        return dir;
      };
      const none = [odd('readme-only', { 'README.md': '# Not a skill\n' }), odd('empty', {})];
      // SKILL.md in other capitals is a skill to report (E422), not nothing.
      odd('lower-case', { 'skill.md': '---\nname: lower-case\n---\n' });
      // Named SKILL.md but no file a walk keeps: holdsSkillFile's answer, not the walk's.
      const dangling = odd('dangling', {});
      symlinkSync(join(dangling, 'nowhere.md'), join(dangling, 'SKILL.md'));
      const folder = odd('folder', {});
      mkdirSync(join(folder, 'SKILL.md'));
      const inputs = [...dirs, ...none, join(skillRoot.path, 'lower-case'), dangling, folder].map((dir) => ({ dir, root: skillRoot, listed: true }));
      const outputs = await helperOutputs(script, 'skill-parse', inputs);
      const parse = (at: string, under: SkillRoot, walk: Parameters<typeof parseSkill>[2] | null) => parseSkill(at, under, walk ?? undefined);
      const absent: string[] = [];
      inputs.forEach((input, i) => {
        const [output, ok] = outputs.get(i) ?? [];
        expect(ok, input.dir).toBe(true);
        const here = parseListed(input.dir, skillRoot, parse);
        if (here === null) {
          expect(output, input.dir).toBeNull();
          absent.push(input.dir);
        } else {
          const { payload: _payload, ...received } = receivedParse(output as PostedParse);
          expect(received, input.dir).toEqual(here);
        }
      });
      // The corpus's own empty folder among them, and nothing that holds an entry named SKILL.md.
      expect(absent).toEqual(expect.arrayContaining(none));
      for (const dir of absent) expect(lstatSync(join(dir, 'SKILL.md'), { throwIfNoEntry: false }), dir).toBeUndefined();
    });

    it(`reads each skill's catalog rows as this thread does (${build})`, async () => {
      const { dirs, root: skillRoot } = writeVariedSkills(tempDir(), 8);
      const inputs = dirs.map((dir) => {
        const { skill, files } = parseHere({ dir, root: skillRoot });
        return {
          files: files ?? [],
          commands: { syntax: skill.syntax, tools: skill.tools.map(({ name, command, commandLine }) => ({ name, command, commandLine })) },
        };
      });
      const outputs = await helperOutputs(script, 'catalog-rows', inputs);
      const here = inputs.map((input) => catalogRowsJob.run(input));
      inputs.forEach((_, i) => expect(outputs.get(i)).toEqual([here[i], true]));
      expect(here.reduce((rows, skillRows) => rows + skillRows.length, 0)).toBeGreaterThan(dirs.length);
    });

    it(`gives back an input whose job throws and goes on (${build})`, async () => {
      const { dirs, root: skillRoot } = writeVariedSkills(tempDir(), 8);
      const inputs = [
        { dir: dirs[0], root: skillRoot },
        { dir: 42, root: skillRoot },
        { dir: dirs[1], root: skillRoot },
      ];
      expect(() => freshParseJob.run(inputs[1] as never)).toThrow();
      const outputs = await helperOutputs(script, 'skill-parse', inputs);
      expect(outputs.get(1)).toEqual([null, false]);
      expect(outputs.get(0)?.[1]).toBe(true);
      expect(outputs.get(2)?.[1]).toBe(true);
    });

    it(`reads no further ahead of the caller's takes than the window, however fast it reads (${build})`, async () => {
      const { dirs, root: skillRoot } = writeVariedSkills(tempDir(), 10);
      const inputs = dirs.map((dir) => ({ dir, root: skillRoot }));
      const count = () => new Int32Array(new SharedArrayBuffer(4));
      // Each input weighs 1, the first three twice as much: the window holds 4.
      const weights = inputs.map((_, i) => (i < 3 ? 2 : 1));
      const before = new Float64Array(new SharedArrayBuffer(8 * (inputs.length + 1)));
      weights.forEach((weight, i) => (before[i + 1] = (before[i] as number) + weight));
      const work: HelperWork = { inputs, next: count(), posted: count(), taken: count(), before, window: 4 };
      const { port1, port2 } = new MessageChannel();
      const data: HelperData = { job: 'skill-parse', port: port2 };
      const worker = new Worker(script, { workerData: data, transferList: [port2] });
      const exited = new Promise<number>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('exit', resolve);
      });
      port1.postMessage(work);
      /** The inputs it may have read once the caller took `taken`: that one, and those within the window. */
      const allowed = (taken: number): number => {
        let end = taken + 1;
        while (end < inputs.length && (before[end + 1] as number) - (before[taken] as number) <= 4) end++;
        return Math.min(end, inputs.length);
      };
      const read: number[] = [];
      for (let taken = 0; taken <= inputs.length; taken++) {
        Atomics.store(work.taken as Int32Array, 0, taken);
        Atomics.notify(work.taken as Int32Array, 0);
        const want = taken === inputs.length ? inputs.length : allowed(taken);
        // It posts what it holds before it waits for the window: waiting for its posts is waiting for an event.
        for (let seen = Atomics.load(work.posted, 0); seen < want; seen = Atomics.load(work.posted, 0)) await waitAsync(work.posted, 0, seen);
        for (let message = receiveMessageOnPort(port1); message !== undefined; message = receiveMessageOnPort(port1))
          for (const [index, , ok] of message.message as HelperBatch) {
            expect(ok).toBe(true);
            read.push(index);
          }
        expect(Math.max(...read), `taken ${taken}`).toBeLessThan(want);
      }
      expect(await exited).toBe(0);
      expect(read).toEqual(inputs.map((_, i) => i));
      port1.close();
    });
  }
});
