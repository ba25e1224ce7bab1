import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    // End-to-end tests spawn the built program and a sandbox; the shared 2-core machines are slow at times.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
