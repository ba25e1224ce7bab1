// A sandbox whose state file cannot be written does not start, and says so once: the refusal is the caller's to
// say (one line, exit 3 from mq sandbox), with no second line from the webhook deliveries kept beside the state,
// whose write, asked for after the state's, fails the same way. The folder is made unwritable by failing the
// creation of the temporary files the state is written through (EACCES), as a read-only folder does for a user
// who is not root (test/commands/sandbox.test.ts covers that folder where the suite does not run as root).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../../src/sandbox/io/server.js';
import { StateFileError } from '../../src/sandbox/io/store.js';

const folder = vi.hoisted(() => ({ readOnly: '' }));
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  return {
    ...fs,
    open: async (path: string, ...rest: Parameters<typeof fs.open> extends [unknown, ...infer R] ? R : never) => {
      if (folder.readOnly !== '' && String(path).startsWith(folder.readOnly) && String(path).endsWith('.tmp')) {
        throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
      }
      return fs.open(path, ...rest);
    },
  };
});

afterEach(() => {
  folder.readOnly = '';
  vi.restoreAllMocks();
});

describe('a sandbox whose state file cannot be written', () => {
  it('does not start, and says nothing more than its refusal, with webhook endpoints kept beside the state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mq-refused-'));
    folder.readOnly = dir;
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refused = await startSandbox({ clock: 'manual', stateFile: join(dir, 'state.json'), webhooks: [{ url: 'http://127.0.0.1:9/hook' }] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StateFileError);
    expect(refused).toMatchObject({ problem: 'write' });
    // The deliveries' write was asked for after the state's, in the same chain: let it fail, then look.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(said.mock.calls).toEqual([]);
  });
});
