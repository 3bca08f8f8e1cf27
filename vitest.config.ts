import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    // Rebuilds dist/node first when a source is newer: tests that spawn the CLI must test this code.
    globalSetup: ['test/support/global-setup.ts'],
    // Native modules and real child processes are happier in forked workers than in threads.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
