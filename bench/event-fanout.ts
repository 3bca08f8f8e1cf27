/**
 * The event fan-out scenario of issue 22, shared by the soak test and the bench: 500 subscribers
 * of `GET /api/events` that read and 100 that never do, while ten runs of a user's tool each print
 * past the 1 MiB output cap (`seq 1 200000`, 1.3 MB), allowed by a rule so nobody is asked.
 */
import { connect, type Socket } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const READING = 500;
export const STALLED = 100;
export const RUNS = 10;

/** The program and arguments the loud tool runs, for a raw baseline to spawn alike. */
export const LOUD_COMMAND = ['seq', '1', '200000'] as const;

/** The rule (for `skilltray rules add`) that lets the loud tool run unasked. */
export const LOUD_RULE = ['allow', 'tool:loud/go'] as const;

const LOUD_SKILL = `---
name: loud
description: Prints 1.3 MB. Use when measuring event fan-out.
version: 1.0.0
read_only: true
timeout: 60
---

### go

Prints the numbers up to 200,000.

#### Parameters

None.

#### Command

\`\`\`
${LOUD_COMMAND.join(' ')}
\`\`\`
`;

/** Writes the skill `loud` into the skills root `root`. */
export function writeLoudSkill(root: string): void {
  mkdirSync(join(root, 'loud'), { recursive: true });
  writeFileSync(join(root, 'loud', 'SKILL.md'), LOUD_SKILL);
}

export interface Subscriber {
  socket: Socket;
  /** How many `finished` events it has read so far. */
  finished: () => number;
}

/** Opens `GET /api/events`; a reading subscriber counts the runs it hears finish, a stalled one stops reading after the headers. */
export function subscribe(port: number, token: string, reads: boolean): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    let finished = 0;
    let tail = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      socket.once('data', () => {
        if (!reads) socket.pause();
        resolve({ socket, finished: () => finished });
      });
    });
    socket.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      finished += text.split('"type":"finished"').length - 1;
      // A marker split across two chunks is found in the next one, and never counted twice.
      tail = text.slice(-32).includes('"type":"finished"') ? '' : text.slice(-32);
    });
    socket.once('error', reject);
  });
}

export interface RunAnswer {
  ok: boolean;
  value: { result: { stdout: string; droppedBytes: { stdout: number } } };
}

/**
 * Runs the scenario against serve at `url`: opens every subscriber, runs the loud tool RUNS times at
 * once, and resolves once every reading subscriber has heard every run finish (all sockets closed).
 */
export async function fanOut(url: string, token: string): Promise<RunAnswer[]> {
  const port = Number(new URL(url).port);
  const reading = await Promise.all(Array.from({ length: READING }, () => subscribe(port, token, true)));
  const stalled = await Promise.all(Array.from({ length: STALLED }, () => subscribe(port, token, false)));
  try {
    const answers = await Promise.all(
      Array.from({ length: RUNS }, async () => {
        const res = await fetch(`${url}/api/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ skill: 'loud', tool: 'go' }),
        });
        return (await res.json()) as RunAnswer;
      }),
    );
    // A run that failed sends no second event: stop waiting for it.
    if (answers.every((answer) => answer.ok)) {
      while (reading.some((s) => s.finished() < RUNS)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return answers;
  } finally {
    for (const s of [...reading, ...stalled]) s.socket.destroy();
  }
}
