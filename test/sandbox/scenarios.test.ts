// Every scenario of scenarios.ts twice: on the engine directly, and over HTTP through a sandbox on a manual clock.
import { describe, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/io/server.js';
import { EngineDriver, HttpDriver } from './drivers.js';
import { SCENARIOS } from './scenarios.js';

describe('scenarios on the engine', () => {
  for (const { name, run } of SCENARIOS) it(name, () => run(new EngineDriver()));
});

describe('scenarios over HTTP, on a manual clock', () => {
  // A sandbox each, so each scenario's clock starts where the engine's does.
  for (const { name, run } of SCENARIOS) {
    it(name, async () => {
      const sandbox = await startSandbox({ clock: 'manual', port: 0 });
      try {
        await run(new HttpDriver(sandbox));
      } finally {
        await sandbox.close();
      }
    });
  }
});
