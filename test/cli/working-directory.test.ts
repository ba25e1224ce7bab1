// A working directory removed under the shell (`mkdir d; cd d; rmdir ../d`): Node's process.cwd() throws, which was
// a stack trace (uv_cwd) and exit 1. Spawned: only a process has a working directory to lose.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MQ_BIN } from '../support/cli.js';

describe('a working directory that no longer exists', () => {
  it('is one line saying so, exit 3 (helper-95)', () => {
    const base = mkdtempSync(join(tmpdir(), 'mq-cwd-'));
    for (const args of [
      ['config', 'show'],
      ['status', '1'],
    ]) {
      const run = spawnSync('sh', ['-c', 'mkdir d && cd d && rmdir ../d && exec "$0" "$@"', process.execPath, MQ_BIN, ...args], {
        cwd: base,
        env: { PATH: process.env.PATH, HOME: base },
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('mq: the working directory no longer exists: cd to one that does, and run mq again\n');
      expect(run.stdout).toBe('');
      expect(run.status).toBe(3);
    }
  });
});
