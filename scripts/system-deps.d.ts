/** Types of system-deps.js, for the TypeScript that imports it (playwright.config.ts, tests). */
export interface MissingDependency {
  program: string;
  why: string;
  /** The Debian package that brings it. */
  package: string;
}
export function bundledPackBins(skillsDir?: string): Map<string, string[]>;
export function onPath(name: string, env?: NodeJS.ProcessEnv): string | null;
export function chromiumExecutable(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): Promise<string | null>;
export function missingDependencies(options?: { platform?: NodeJS.Platform; env?: NodeJS.ProcessEnv }): Promise<MissingDependency[]>;
export function checkoutProblem(dir?: string, platform?: NodeJS.Platform): string | null;
