/**
 * How a process that owns runs hears it must stop: Ctrl-C (SIGINT), `kill` and service managers
 * (SIGTERM), and a closed terminal (SIGHUP). Node's default for each is to exit on the spot, which
 * would leave tools running in their own process groups with nobody to time them out; the owner
 * instead stops them and records their runs as interrupted, then exits.
 */

/** The signals that mean "stop". */
export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const ignore = (): void => undefined;

let terminalGone = false;

/** From now on, failing writes to stdout and stderr (the terminal that hung up) are dropped instead of thrown. */
function ignoreTerminalErrors(): void {
  if (terminalGone) return;
  terminalGone = true;
  process.stdout.on('error', ignore);
  process.stderr.on('error', ignore);
}

/**
 * Calls `stop` on the first shutdown signal. Later ones are swallowed while it stops (its steps are
 * bounded), so a second Ctrl-C cannot cut the shutdown short and strand a tool. After SIGHUP the
 * terminal is gone and writing to it fails (EIO, EPIPE): those stream errors are ignored rather than
 * crashing the shutdown. Returns the function that removes the handlers again.
 */
export function onShutdownSignal(stop: (signal: NodeJS.Signals) => void): () => void {
  let stopping = false;
  const on = (signal: NodeJS.Signals): void => {
    if (signal === 'SIGHUP') ignoreTerminalErrors();
    if (stopping) return;
    stopping = true;
    stop(signal);
  };
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, on);
  return () => {
    for (const signal of SHUTDOWN_SIGNALS) process.off(signal, on);
  };
}

/** The first shutdown signal, as a promise; `release` removes the handlers once the shutdown is over. */
export function shutdownSignal(): { signalled: Promise<NodeJS.Signals>; release: () => void } {
  let release = ignore;
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    release = onShutdownSignal(resolve);
  });
  return { signalled, release };
}
