import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    // Several suites spawn the CLI or server processes; a shared 2-core machine can take tens of seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll() waits for a page or the server to catch up: 1 s (its default) is short on a busy
    // 2-core machine; 15 s, as the browser suites give Playwright's own waits.
    expect: { poll: { timeout: 15_000 } },
  },
});
