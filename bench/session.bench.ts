/** The scripted twenty-request session (bench/session.ts): each request's decision before and after runs were contained, and the prompt count. */
import type { Metric } from './measure.js';
import { SESSION, prompts, runSession } from './session.js';

/** Decides the session three ways and reports every request and the prompt counts. */
export async function sessionBench(dir: string, bundled: string): Promise<Metric[]> {
  const { before, after, uncontained } = await runSession(dir, bundled);
  const rows = SESSION.map((r, i) => ({
    name: `  ${r.skill}/${r.tool} ${JSON.stringify(r.args)}`,
    text: `before ${before[i]?.padEnd(6)} after ${after[i]?.padEnd(6)} uncontained ${uncontained[i]}`,
  }));
  return [
    ...rows,
    {
      name: 'session of 20 requests: prompts',
      text: `before ${prompts(before)}, after ${prompts(after)} (goal ≤ 5); with no sandbox available ${prompts(uncontained)}`,
    },
  ];
}
