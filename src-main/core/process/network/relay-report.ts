/** What the relay (net-relay.c) reports on its report fd when the tool ends: each private folder that had no room left. */

/** The folders a report names as full (`full /dev/shm` lines); anything else in it is not the relay's and is ignored. */
export function fullFolders(report: string): string[] {
  return report
    .split('\n')
    .filter((line) => line.startsWith('full /'))
    .map((line) => line.slice('full '.length));
}
