// Folders mq makes for its caches and files (src/folders.ts), as `mkdir -p` makes them; and a cache folder no
// file system will make (under /proc), which Node's recursive mkdir tried to make forever, holding mq past SIGTERM.
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolder } from '../../src/folders.js';
import { sandboxEnv, startMq } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const fresh = () => mkdtempSync(join(tmpdir(), 'mq-folders-'));
/** A folder whose parent exists but which the file system will not make: ENOENT, however often asked (procfs). */
const unmakeable = existsSync('/proc/self') ? '/proc/mq-cannot-be-made' : undefined;

describe('makeFolder', () => {
  it('makes the folders that are missing, each with the mode, and leaves those there alone', () => {
    const root = fresh();
    makeFolder(join(root, 'a', 'b', 'c'), 0o700);
    expect(statSync(join(root, 'a', 'b', 'c')).isDirectory()).toBe(true);
    expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700);
    makeFolder(join(root, 'a', 'b', 'c'));
    makeFolder(root);
  });

  it('throws what stops it: a file in the way, a folder the file system will not make', () => {
    const root = fresh();
    writeFileSync(join(root, 'file'), '');
    expect(() => makeFolder(join(root, 'file', 'below'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    if (unmakeable) expect(() => makeFolder(join(unmakeable, 'mq'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it.skipIf(!unmakeable)('lets mq status on v2 answer where its cache folder cannot be made (it hung, deaf to SIGTERM)', async () => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/folders', {}, 'v2');
    expect((await mq(['queue', 'create'], { env: sandboxEnv(fixture.recorder.url, 'acme/folders') })).code).toBe(0);
    // Spawned: a hang is the child's, which the test's timeout ends, not this process's event loop.
    const run = await startMq(['status', '1', '-v'], { env: { ...env, XDG_CACHE_HOME: unmakeable! } }).done;
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`the request budget file ${unmakeable}/mq/`);
    expect(run.stderr).toMatch(/^mq: pull request #1 was never submitted to the queue/m);
  });
});
