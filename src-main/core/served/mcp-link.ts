/**
 * A connection to one MCP source, with the SDK's own client over a bounded transport: the command it
 * was added with, started with only the environment a client gives a server (the SDK's list, then its
 * own), or its Streamable HTTP URL. Every answer is bounded (MAX_MESSAGE_BYTES a message, a listing
 * MAX_PAGES pages and MAX_SKILLS skills, REQUEST_TIMEOUT_MS a request), and the source must declare
 * the Skills extension before Skilltray asks it for anything.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { SKILLS_EXTENSION, SERVED_LIMITS } from '../../shared/served.js';
import { servedErrors } from '../../shared/error-messages/served.js';
import { BoundedChildTransport } from './bounded-child.js';
import type { SourceRecord } from './source-files.js';

/** One message from a source: a 16 MiB file in base64 and its JSON around it. */
export const MAX_MESSAGE_BYTES = 24 * 1024 * 1024;
/** Pages and skills one listing may take (an endless `nextCursor` is an attack, not a catalog). */
export const MAX_PAGES = 20;
export const MAX_SKILLS = 200;
export const REQUEST_TIMEOUT_MS = 30_000;

const ListResult = z.looseObject({ skills: z.array(z.unknown()), nextCursor: z.string().optional() });
const GetResult = z.looseObject({ skill: z.unknown() });

/** What a source serves, asked one call at a time. */
export interface McpLink {
  /** Every entry of `skills/list`, page after page. */
  list(): Promise<unknown[]>;
  /** The entry of `skills/get` for a SKILL.md URI. */
  get(uri: string): Promise<unknown>;
  /** The bytes of one file, from `resources/read`. */
  read(uri: string): Promise<Buffer>;
  close(): Promise<void>;
}

/** The environment a client gives a server it starts: the SDK's default list, taken from `env`, then the source's own. */
async function serverEnv(env: NodeJS.ProcessEnv, own: Record<string, string>): Promise<Record<string, string>> {
  const { DEFAULT_INHERITED_ENV_VARS } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const inherited = DEFAULT_INHERITED_ENV_VARS.flatMap((name) => {
    const value = env[name];
    return value === undefined || value.startsWith('()') ? [] : [[name, value] as const];
  });
  return { ...Object.fromEntries(inherited), ...own };
}

/** A fetch whose every response body stops (and says so) past `max` bytes. */
function boundedFetch(max: number, cut: (why: string) => void): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.body === null) return response;
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > max) {
            cut(`it sent a response over ${max} bytes`);
            controller.error(new Error('response too large'));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Opens a connection to `source` and checks that it declares the Skills extension (E863, E864). Once
 * `signal` aborts, every call fails with its reason and closing stops the server at once.
 */
export async function openLink(source: SourceRecord, env: NodeJS.ProcessEnv, version: string, signal?: AbortSignal): Promise<McpLink> {
  signal?.throwIfAborted();
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const client: Client = new Client({ name: 'skilltray', version });
  let cutOff: string | null = null;
  const { transport: how } = source;
  const transport =
    how.kind === 'stdio'
      ? new BoundedChildTransport({ command: how.command, args: how.args, env: await serverEnv(env, how.env) }, MAX_MESSAGE_BYTES)
      : new StreamableHTTPClientTransport(new URL(how.url), {
          requestInit: { headers: how.headers },
          fetch: boundedFetch(MAX_MESSAGE_BYTES, (why) => void (cutOff = why)),
        });
  if (transport instanceof BoundedChildTransport) signal?.addEventListener('abort', () => transport.abandon(), { once: true });
  const failure = (): string | null => (transport instanceof BoundedChildTransport ? transport.failure : cutOff);
  /** Any failure of a call as a coded error: past a bound E868, anything else E863 (with the server's last words). */
  const coded = (error: unknown): Error => {
    // The SDK wraps an abort's reason in an McpError of its own: the reason itself says why.
    if (signal?.aborted === true && signal.reason instanceof Error) return signal.reason;
    const cut = failure();
    if (cut !== null)
      return servedErrors.tooLarge(`MCP source '${source.name}' was cut off`, `${MAX_MESSAGE_BYTES} bytes a message`, { source: source.name, why: cut });
    if (error instanceof Error && 'code' in error && typeof error.code === 'string' && /^E\d{3}$/.test(error.code)) return error;
    const said = transport instanceof BoundedChildTransport ? transport.lastWords : null;
    const why = `${error instanceof Error ? error.message : String(error)}${said === null ? '' : ` (it said: ${said})`}`;
    return servedErrors.unreachable(source.name, why);
  };
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS, signal });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw coded(error);
  }
  if (client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION] === undefined) {
    await client.close().catch(() => undefined);
    throw servedErrors.noExtension(source.name, SKILLS_EXTENSION);
  }
  /** A request's options: its own signal, aborted with `signal`, so the SDK's listener on it goes with the request (not one more on `signal` each time). */
  const ask = async <T>(request: (options: { timeout: number; signal: AbortSignal }) => Promise<T>): Promise<T> => {
    const one = new AbortController();
    const stop = (): void => one.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      return await request({ timeout: REQUEST_TIMEOUT_MS, signal: one.signal });
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  };
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      signal?.throwIfAborted();
      return await work();
    } catch (error) {
      throw coded(error);
    }
  };
  return {
    list: () =>
      call(async () => {
        const entries: unknown[] = [];
        const cursors = new Set<string>();
        let cursor: string | undefined;
        for (let page = 0; ; page++) {
          if (page === MAX_PAGES)
            throw servedErrors.tooLarge(`the skills/list of MCP source '${source.name}' goes on`, `${MAX_PAGES} pages`, { source: source.name });
          const params = cursor === undefined ? {} : { cursor };
          const result = await ask((options) => client.request({ method: 'skills/list', params }, ListResult, options));
          entries.push(...result.skills);
          if (entries.length > MAX_SKILLS)
            throw servedErrors.tooLarge(`MCP source '${source.name}' lists too many skills`, `${MAX_SKILLS} skills`, { source: source.name });
          if (result.nextCursor === undefined) return entries;
          if (cursors.has(result.nextCursor))
            throw servedErrors.tooLarge(`the skills/list of MCP source '${source.name}' comes back to a page it gave`, `one pass`, { source: source.name });
          cursors.add(result.nextCursor);
          cursor = result.nextCursor;
        }
      }),
    get: (uri) => call(async () => (await ask((options) => client.request({ method: 'skills/get', params: { uri } }, GetResult, options))).skill),
    read: (uri) =>
      call(async () => {
        const { contents } = await ask((options) => client.readResource({ uri }, options));
        const [content] = contents;
        if (contents.length !== 1 || content === undefined || content.uri !== uri) {
          throw servedErrors.unverified(source.name, uri, `resources/read answered with ${contents.length} contents for other URIs`);
        }
        if ('text' in content && typeof content.text === 'string') return Buffer.from(content.text, 'utf8');
        const blob = (content as { blob?: unknown }).blob;
        if (typeof blob !== 'string' || blob.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(blob)) {
          throw servedErrors.unverified(source.name, uri, 'its content is neither text nor base64');
        }
        const bytes = Buffer.from(blob, 'base64');
        if (bytes.length > SERVED_LIMITS.bytes)
          throw servedErrors.tooLarge(`${uri} is ${bytes.length} bytes`, `${SERVED_LIMITS.bytes} bytes a skill`, { source: source.name, uri });
        return bytes;
      }),
    close: () => client.close().catch(() => undefined),
  };
}
