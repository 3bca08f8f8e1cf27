/** A loopback server over a fresh test home, raw HTTP requests, and an event-stream reader for the server tests. */
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterEach } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { startHttpServer, type HttpServerOptions, type RunningServer } from '../../../src-main/server/http.js';
import type { Envelope, ServerEvent } from '../../../src-main/shared/contract.js';
import { PROCESS_FIXTURES, skillMd, testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { toolSection } from '../../support/tool-section.js';

export const NODE = process.execPath;
export const PRINT_ARGV = join(PROCESS_FIXTURES, 'print-argv.mjs');
export const BEHAVE = join(PROCESS_FIXTURES, 'behave.mjs');
export const WEB_FIXTURE = fileURLToPath(new URL('../../fixtures/web', import.meta.url));
export const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'skilltray.js');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `cleanup` after the current test (last registered, first run). */
export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** A SKILL.md with one tool `go` running `command`, parameters a and b (optional strings), and a small body to browse. */
export function toolSkill(name: string, command: string, frontmatter: Record<string, unknown> = {}): string {
  return skillMd(
    { name, description: `The ${name} skill. Use when testing.`, version: '1.0.0', reads: [PROCESS_FIXTURES], ...frontmatter },
    [
      `# ${name}`,
      '',
      '## Usage',
      '',
      'Say hello to the widget frobnicator.',
      '',
      ...toolSection('go', command, ['| a | string | no | first |', '| b | string | no | second |']),
    ].join('\n'),
  );
}

/** Valid inputs of the operations that browse serverHome's skill `asks` (its body and sections, as toolSkill writes them). */
export const BROWSE_ASKS = {
  outline: { skill: 'asks' },
  show: { skill: 'asks', section: 'Usage' },
  open: { skill: 'asks', path: 'SKILL.md' },
  sources: { skill: 'asks' },
  search: { skill: 'asks', query: 'frobnicator' },
  searchAll: { query: 'frobnicator' },
} as const;

export interface ServerHome {
  t: TestHome;
  core: SkilltrayCore;
  server: RunningServer;
  /** POST /api/<operation> with the token: status and envelope. */
  call(operation: string, body: unknown): Promise<{ status: number; envelope: Envelope<unknown> }>;
}

/**
 * A test home with user skills `asks` (prints its argv) and `behaves` (does what its arguments say,
 * see behave.mjs), whose tools need approval, and a bundled read-only skill `echoes` (its tool runs
 * without asking), a core over it, and a server on port 0.
 */
export async function serverHome(options: Partial<Omit<HttpServerOptions, 'core'>> = {}, t: TestHome = testHome()): Promise<ServerHome> {
  writeSkill(t.skills, 'asks', toolSkill('asks', `${NODE} ${PRINT_ARGV} <<a>> <<b>>`));
  writeSkill(t.skills, 'behaves', toolSkill('behaves', `${NODE} ${BEHAVE} <<a>> <<b>>`));
  writeSkill(t.bundled, 'echoes', toolSkill('echoes', 'echo <<a>>', { read_only: true }));
  t.sealBundled();
  const core = new SkilltrayCore(t.config(), { autoBuild: true });
  onCleanup(() => core.close());
  const server = await startHttpServer({ core, owner: 'serve', version: '0.0.0-test', ...options });
  onCleanup(() => server.close());
  return {
    t,
    core,
    server,
    call: async (operation, body) => {
      const res = await fetch(`${server.url}/api/${operation}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token()}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, envelope: (await res.json()) as Envelope<unknown> };
    },
  };
}

/** A home with what every operation needs: a prompt skill and an attachable sidecar besides the helpers' two. */
export async function fullHome(): Promise<ServerHome> {
  const t = testHome();
  writeSkill(t.skills, 'greet', skillMd({ name: 'greet', description: 'Greets someone. Use when greeting.', version: '1.0.0' }, 'Say hello to $ARGUMENTS.\n'));
  const fm = [
    'name: watcher',
    'description: Watch a run. Use when auditing.',
    'version: 1.0.0',
    'read_only: true',
    'metadata:',
    '  classification:',
    '    role: sidecar',
    '    invocation: attach',
    '    attach_targets: [run, output]',
    '    effect_mode: read_only',
    '    status: stable',
  ].join('\n');
  const body = `\n### observe\n\nPrints the target.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| target_ref | string | yes | the target |\n\n#### Command\n\n\`\`\`\necho <<target_ref>>\n\`\`\`\n`;
  writeSkill(t.bundled, 'watcher', skillMd(fm, body));
  return serverHome({}, t);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (Host included) and path, nothing normalised. */
export function raw(
  port: number,
  init: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: init.method ?? 'GET', path: init.path ?? '/', headers: { host: `127.0.0.1:${port}`, ...init.headers }, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The error envelope of a raw response. */
export function errorOf(response: RawResponse): { code: string; kind: string; message: string } {
  const envelope = JSON.parse(response.body) as Envelope<unknown>;
  if (envelope.ok) throw new Error(`expected an error, got ${response.body}`);
  return envelope.error;
}

/** A subscriber of GET /api/events that collects events and comments as they arrive. */
export interface EventReader {
  events: ServerEvent[];
  comments: string[];
  /** Resolves with the first event (already received or still to come) that matches. */
  next<T extends ServerEvent>(match: (event: ServerEvent) => event is T): Promise<T>;
  next(match: (event: ServerEvent) => boolean): Promise<ServerEvent>;
  close(): void;
}

/** Opens the event stream with the server's token (fetch streaming, as the UI reads it). */
export async function readEvents(server: RunningServer): Promise<EventReader> {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/api/events`, { headers: { authorization: `Bearer ${server.token()}` }, signal: controller.signal });
  if (res.status !== 200 || res.body === null) throw new Error(`event stream refused: ${res.status}`);
  const events: ServerEvent[] = [];
  const comments: string[] = [];
  const waiters: { match: (event: ServerEvent) => boolean; resolve: (event: ServerEvent) => void }[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) {
            comments.push(block.slice(1).trim());
            continue;
          }
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          const type = block.split('\n').find((line) => line.startsWith('event: '));
          if (data === undefined) continue;
          const event = JSON.parse(data.slice('data: '.length)) as ServerEvent;
          if (type !== `event: ${event.type}`) throw new Error(`event line ${type} does not match ${event.type}`);
          events.push(event);
          for (const waiter of [...waiters]) {
            if (waiter.match(event)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            }
          }
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    events,
    comments,
    next: (match: (event: ServerEvent) => boolean) =>
      new Promise<ServerEvent>((resolve) => {
        const seen = events.find(match);
        if (seen) resolve(seen);
        else waiters.push({ match, resolve });
      }),
    close: () => controller.abort(),
  } as EventReader;
}

/** Polls `check` until it returns a value other than undefined (or fails after `timeoutMs`). */
export async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface Serving {
  child: ResultPromise<{ env: NodeJS.ProcessEnv; extendEnv: false; stdin: 'ignore'; reject: false; buffer: true }>;
  url: string;
  /** Everything the process printed so far. */
  stdout(): string;
}

/** `skilltray serve --port 0` as a real process on the test home, once it says where it listens. */
export async function serve(t: TestHome, extra: string[] = []): Promise<Serving> {
  const child = execa(NODE, [BIN, 'serve', '--port', '0', ...extra], { env: t.env, extendEnv: false, stdin: 'ignore', reject: false, buffer: true });
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await child;
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const url = await waitFor(() => /^Skilltray API on (http:\/\/127\.0\.0\.1:\d+) \(token in (.+)\)$/m.exec(out)?.[1], 20_000);
  return { child, url, stdout: () => out };
}
