import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    // A limit that only a hang reaches: what spawns the built program (tmux, the demo, the example scripts) takes
    // seconds on a quiet machine and five times as long on a loaded one, where 30 s failed tests that were well.
    // Tests are sized by runs and events, never by the clock.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Most of the suite now runs in-process, but what still spawns (tmux, the example scripts) mostly waits:
    // more workers than the 2 cores keep them busy meanwhile. A worker keeps its modules from file to file
    // (isolate: false): each file importing the program afresh was most of the time. Measured in the commit.
    maxWorkers: 4,
    isolate: false,
  },
});
