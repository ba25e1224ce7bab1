import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    // End-to-end tests spawn the built program and a sandbox; the shared 2-core machines are slow at times.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Most of the suite now runs in-process, but what still spawns (tmux, the example scripts) mostly waits:
    // more workers than the 2 cores keep them busy meanwhile. A worker keeps its modules from file to file
    // (isolate: false): each file importing the program afresh was most of the time. Measured in the commit.
    maxWorkers: 4,
    isolate: false,
  },
});
