// mq sandbox with its --state in a folder it may not write to, as a user who is not root meets it: exit 3 and one
// line on stderr, nothing more (the webhook deliveries kept beside the state, whose write was asked for after the
// state's, fail the same way and used to add a line of their own). A process, for what a process says on its
// stderr; run as `nobody` through setpriv where the suite runs as root, whom a folder's mode does not stop.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MQ_BIN } from '../support/cli.js';

const ROOT = process.getuid?.() === 0;
const AS_NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'];
const CAN = !ROOT || spawnSync(AS_NOBODY[0]!, [...AS_NOBODY.slice(1), 'true']).status === 0;
const TITLE = CAN
  ? 'mq sandbox --state in a read-only folder (skipped as root where nobody cannot reach the checkout)'
  : 'mq sandbox --state in a read-only folder: SKIPPED as root without setpriv (util-linux)';

/** Whether nobody may reach `path` (a clone in a private folder, `mktemp -d`'s, may not be). */
const nobodyReaches = (path: string) =>
  spawnSync(AS_NOBODY[0]!, [...AS_NOBODY.slice(1), process.execPath, '-e', 'require("node:fs").accessSync(process.argv[1])', path]).status === 0;

describe.skipIf(!CAN)(TITLE, () => {
  it('refuses to start: exit 3, one line, with webhook endpoints kept beside the state too', async (context) => {
    const home = mkdtempSync(join(tmpdir(), 'mq-read-only-home-'));
    const folder = mkdtempSync(join(tmpdir(), 'mq-read-only-'));
    chmodSync(home, 0o777);
    chmodSync(folder, 0o555);
    if (ROOT && !(nobodyReaches(MQ_BIN) && nobodyReaches(folder))) context.skip();
    const command = [
      ...(ROOT ? AS_NOBODY : []),
      process.execPath,
      MQ_BIN,
      'sandbox',
      '--clock',
      'manual',
      '--port',
      '0',
      '--state',
      join(folder, 'state.json'),
      '--webhook',
      'http://127.0.0.1:9/hook',
    ];
    const child = spawn(command[0]!, command.slice(1), { cwd: home, env: { PATH: process.env.PATH ?? '', HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stdout }).toEqual({ code: 3, stdout: '' });
    expect(stderr).toMatch(/^mq: sandbox state \S+state\.json: .*cannot be written .*: give --state a file in a folder this user can write to\n$/);
    expect(readdirSync(folder)).toEqual([]);
  });
});
