/**
 * The client side of MCP over stdio with a bound (in place of the SDK's StdioClientTransport, whose
 * read buffer grows with whatever a server writes): newline-delimited JSON-RPC from a child Skilltray
 * starts, each message at most `maxMessage` bytes. A server that writes more is cut off (its process
 * stopped) and `failure` says why, so a lying server cannot make Skilltray hold a gigabyte to find out.
 * The child is Skilltray's own and, on POSIX, leads a process group of its own: closing stops it and
 * everything it started (process-tree.ts), so a helper a server left behind does not outlive its source.
 * On Windows the child is stopped by its pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { groupExists, terminateTree } from '../process/process-tree.js';

/** How long a child has to leave after SIGTERM. */
const GRACE_MS = 2000;

/**
 * The groups of servers not yet ended: killed at once if this process exits first. A detached group
 * gets no signal from the terminal, so a CLI stopped by Ctrl+C (which it turns into an exit) would
 * otherwise leave a server that ignores its stdin closing running.
 */
const liveGroups = new Set<number>();
let exitHooked = false;

function trackGroup(group: number): void {
  liveGroups.add(group);
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const live of liveGroups) {
      try {
        process.kill(-live, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  });
}

export interface ChildSpec {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
}

export class BoundedChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Why the connection was cut (a message past the bound), or null. */
  failure: string | null = null;
  private child: ChildProcess | null = null;
  /** The child's process group (POSIX) while anything of it may run: ended by close(), or at this process's exit. */
  private group: number | null = null;
  private pieces: Buffer[] = [];
  private bytes = 0;
  private stderrTail = '';
  private exited: Promise<void> = Promise.resolve();
  /** Whoever asked for the connection gave up on it: closing stops the child at once. */
  private abandoned = false;

  constructor(
    private readonly spec: ChildSpec,
    private readonly maxMessage: number,
  ) {}

  /** The last line the child wrote on stderr, to say why it did not answer. */
  get lastWords(): string | null {
    return (
      this.stderrTail
        .trim()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .at(-1) ?? null
    );
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.spec.command, [...this.spec.args], {
        env: this.spec.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        // A group of its own, so closing can end what it started; Windows has no groups (and detached there opens a console).
        detached: process.platform !== 'win32',
      });
      this.child = child;
      if (child.pid !== undefined && process.platform !== 'win32') {
        this.group = child.pid;
        trackGroup(child.pid);
      }
      // 'exit', not 'close': 'close' waits for the stdio pipes, which a grandchild may hold open for as long as it likes.
      this.exited = new Promise((done) =>
        child.once('exit', () => {
          // A group left empty is forgotten at once: its number may go to another process's group.
          if (this.group !== null && !groupExists(this.group)) this.untrack();
          done();
        }),
      );
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.child = null;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.on('data', (chunk: Buffer) => void (this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4000)));
    });
  }

  private read(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length && this.failure === null) {
      const end = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      this.bytes += piece.length;
      if (this.bytes > this.maxMessage) {
        this.failure = `it sent a message over ${this.maxMessage} bytes`;
        this.pieces = [];
        void this.close();
        return;
      }
      this.pieces.push(piece);
      if (end === -1) return;
      start = end + 1;
      const line = Buffer.concat(this.pieces).toString('utf8').trim();
      this.pieces = [];
      this.bytes = 0;
      if (line !== '') this.deliver(line);
    }
  }

  private deliver(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (stdin === null || stdin === undefined || stdin.destroyed) {
        reject(new Error('the server is not running'));
        return;
      }
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Has the next close() stop the child at once, without the grace a server gets to leave. */
  abandon(): void {
    this.abandoned = true;
  }

  /**
   * Ends the child: its stdin closed (an MCP server leaves then), then, after a grace (none when it
   * was cut off or abandoned), SIGTERM and later SIGKILL to it and to whatever it started, though it
   * may have left already; once it has exited, its pipes are dropped.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (child !== null) {
      child.stdin?.end();
      const grace = this.failure === null && !this.abandoned ? GRACE_MS : 0;
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([this.exited, new Promise((done) => (wait = setTimeout(done, grace)))]);
      clearTimeout(wait);
    }
    // The group, though the child may be long gone (what it started can still be running).
    const group = this.group;
    if (group !== null) {
      await terminateTree(group, GRACE_MS);
      this.untrack();
    } else if (child !== null) {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
      await this.exited;
      clearTimeout(kill);
    }
    if (child === null) return;
    await this.exited;
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
  }

  private untrack(): void {
    if (this.group !== null) liveGroups.delete(this.group);
    this.group = null;
  }
}
