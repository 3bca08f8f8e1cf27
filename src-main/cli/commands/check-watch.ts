/** `check --watch`: the same check again each time a file of the skill changes, until SIGINT. */
import { existsSync, readdirSync, statSync, watch, type Dirent, type FSWatcher } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { CheckReport } from '../../shared/model.js';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import type { CliContext } from '../command.js';

/** How long a burst of writes (an editor's save is several) settles before the check runs again. */
const SETTLE_MS = 100;

/** The folders to watch: the path given (a skill, its SKILL.md or a folder of skills), else the folders of the skills the name found. */
function watchedFolders(target: string, cwd: string, report: CheckReport): string[] {
  const asPath = resolve(cwd, target);
  if (existsSync(asPath)) return [statSync(asPath).isDirectory() ? asPath : dirname(asPath)];
  return [...new Set(report.skills.map((s) => s.path))];
}

/** Every folder under each root (roots included, links not followed). */
function foldersUnder(roots: string[]): Set<string> {
  const found = [...roots];
  for (let i = 0; i < found.length; i++) {
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(found[i] ?? '', { withFileTypes: true });
    } catch {
      // A folder gone or unreadable since it was listed: the check that follows says what is wrong.
    }
    for (const entry of entries) if (entry.isDirectory()) found.push(join(found[i] ?? '', entry.name));
  }
  return new Set(found);
}

/**
 * Watches the skill's folders and calls `recheck` after each change settles, printing its report
 * (an error, such as the folder gone, as one line); resolves on SIGINT, the watchers closed. Each
 * folder has a watcher of its own, renewed after every change: Node 20's recursive watch on Linux
 * watches files, and loses one an editor saves by renaming a new copy over it.
 */
export function watchChecks(
  ctx: CliContext,
  target: string,
  first: CheckReport,
  recheck: () => CheckReport,
  print: (report: CheckReport) => void,
): Promise<void> {
  const folders = watchedFolders(target, ctx.cwd, first);
  return new Promise((done) => {
    let timer: NodeJS.Timeout | undefined;
    const changed = new Set<string>();
    const watchers = new Map<string, FSWatcher>();
    const onChange = (folder: string, name: string | Buffer | null): void => {
      changed.add(name === null ? folder : resolve(folder, name.toString()));
      clearTimeout(timer);
      timer = setTimeout(run, SETTLE_MS);
    };
    const follow = (): void => {
      const now = foldersUnder(folders);
      for (const [folder, watcher] of watchers) {
        if (now.has(folder)) continue;
        watcher.close();
        watchers.delete(folder);
      }
      for (const folder of now) {
        if (watchers.has(folder)) continue;
        try {
          const watcher = watch(folder, (_event, name) => onChange(folder, name));
          watcher.on('error', () => {
            watcher.close();
            watchers.delete(folder);
          });
          watchers.set(folder, watcher);
        } catch (error) {
          ctx.io.err(`cannot watch ${folder} (${toSkilltrayError(error).message}); its changes are not seen\n`);
        }
      }
    };
    const run = (): void => {
      const names = [...changed].sort().join(', ');
      changed.clear();
      follow();
      ctx.io.err(`\n${new Date().toLocaleTimeString()} changed: ${names}; checked again\n`);
      try {
        print(recheck());
      } catch (error) {
        ctx.io.err(`${toSkilltrayError(error).format()}\n`);
      }
    };
    follow();
    ctx.io.err(`watching ${folders.join(', ')}: checked again on every change; Ctrl+C stops\n`);
    process.once('SIGINT', () => {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      ctx.io.err('stopped watching\n');
      done();
    });
  });
}
