import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    // Several suites spawn the CLI or server processes; a shared 2-core machine can take tens of seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
