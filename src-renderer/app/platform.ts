/** What the platform the window runs on changes in the UI: which key is the command modifier. */

/** Whether the platform's command modifier is ⌘ (`platform` as the connection reports it). */
export function isMac(platform: string): boolean {
  return platform === 'darwin';
}
