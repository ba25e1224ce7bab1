// mq sandbox when it cannot start: a port in use, a state file in a folder that does not exist, one that cannot
// be read or is not a sandbox state. Each is one line with its fix and a documented exit code, never a stack.
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { startSandbox } from '../../src/sandbox/io/server.js';
import { runInProcess } from '../support/raw-http.js';

const dir = mkdtempSync(join(tmpdir(), 'mq-sandbox-start-'));
const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') };

async function sandbox(...args: string[]) {
  return sandboxFor(5000, ...args);
}

/** Should it start after all, it stops after `ms` instead of serving until interrupted. */
async function sandboxFor(ms: number, ...args: string[]) {
  const controller = new AbortController();
  const started = runInProcess(run, ['sandbox', '--clock', 'manual', ...args], { env, cwd: dir, signal: controller.signal });
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await started;
  } finally {
    clearTimeout(timer);
  }
}

/** A state file whose journal holds a change: a queue created, the sandbox then stopped (it folds it in at its next start). */
async function stateWithAQueue(file: string): Promise<void> {
  const running = await startSandbox({ clock: 'manual', stateFile: file });
  await fetch(`${running.url}/createQueue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': 'sandbox' },
    body: JSON.stringify({ repo: { host: 'github.com', owner: 'acme', name: 'kept' }, targetBranch: 'main' }),
  });
  await running.close();
}

function expectOneLine(stderr: string, pattern: RegExp) {
  expect(stderr).toMatch(pattern);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('mq sandbox, when it cannot start', () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it('a port in use: exit 2, with --port 0 as the fix', async () => {
    const { code, stdout, stderr } = await sandbox('--port', String(port));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expectOneLine(stderr, new RegExp(`^mq: port ${port} is in use: .*--port 0`));
  });

  it('a port in use, under --json and --debug: the same, as a JSON error, still without a stack', async () => {
    const json = await sandbox('--port', String(port), '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'usage', message: expect.stringContaining(`port ${port} is in use`) } });
    const debug = await sandbox('--port', String(port), '--debug');
    expect(debug.code).toBe(2);
    expectOneLine(debug.stderr, /is in use/);
  });

  it('--state in a folder that does not exist: exit 3, naming the folder', async () => {
    const missing = join(dir, 'nowhere', 'state.json');
    const { code, stderr } = await sandbox('--state', missing);
    expect(code).toBe(3);
    expectOneLine(stderr, new RegExp(`^mq: .*${join(dir, 'nowhere')} does not exist: create it`));
  });

  it('--state naming a folder: exit 3', async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const { code, stderr } = await sandbox('--state', folder);
    expect(code).toBe(3);
    expectOneLine(stderr, /is a folder/);
  });

  it('a state file that is not JSON, or not a sandbox state: exit 3, saying to move it aside', async () => {
    for (const [name, text, why] of [
      ['corrupt.json', '{not json', /not a sandbox state document/],
      ['other.json', '{"hello": "world"}', /not a version this sandbox knows/],
      ['newer.json', '{"version": 99}', /version 99 is newer than this sandbox reads/],
      [
        'shape.json',
        '{"version": 3, "now": 0, "seed": "s", "nextId": 0, "nextSeq": 0, "queues": [], "pullRequests": {}, "submissions": {}, "testRuns": {}}',
        /queues is missing/,
      ],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const { code, stderr } = await sandbox('--state', file);
      expect(code, name).toBe(3);
      expectOneLine(stderr, why);
      expect(stderr).toContain(file);
      expect(stderr).toMatch(/move it aside/);
    }
  });

  it('a journal whose entries cannot be replayed: exit 3, on one line', async () => {
    const file = join(dir, 'journaled.json');
    await (await startSandbox({ clock: 'manual', stateFile: file })).close();
    // A well-formed line whose operation is nonsense, then one more so that it is not the torn last line.
    appendFileSync(`${file}.journal`, '{"at":1,"op":"createQueue","input":{"repo":7}}\n{"at":2,"op":"tick"}\n');
    const { code, stderr } = await sandbox('--state', file);
    expect(code).toBe(3);
    expectOneLine(stderr, /journal/);
  });

  it('a state file edited by hand while its journal holds changes: exit 3, on one line, and neither is changed', async () => {
    const file = join(dir, 'edited.json');
    await stateWithAQueue(file);
    // The queue is in the journal alone until the next start folds it in; the edit is one a reader of the file might make.
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), graphSoftCap: 4 }));
    const before = [readFileSync(file, 'utf8'), readFileSync(`${file}.journal`, 'utf8')];
    const { code, stderr } = await sandbox('--state', file);
    expect(code).toBe(3);
    expectOneLine(
      stderr,
      /edited\.json\.journal holds 1 change made since another version of the file .*: put the file back as the sandbox left it, or move the journal aside/,
    );
    expect([readFileSync(file, 'utf8'), readFileSync(`${file}.journal`, 'utf8')]).toEqual(before);
  });

  it('a state file another sandbox keeps: exit 3, on one line; free again once it stops, or once its process is gone', async () => {
    const file = join(dir, 'kept.json');
    const first = await startSandbox({ clock: 'manual', stateFile: file });
    try {
      const { code, stderr } = await sandbox('--state', file);
      expect(code).toBe(3);
      expectOneLine(
        stderr,
        /kept\.json: another sandbox \(this process\) keeps its state there: stop it \(where none runs, .*remove the \.lock file beside it\), or give --state another file\n$/,
      );
      // The first goes on, its state its own.
      expect((await fetch(`${first.url}/getQueue`, { method: 'POST', headers: { 'x-api-token': 'sandbox' }, body: '{}' })).status).not.toBe(500);
    } finally {
      await first.close();
    }
    await (await startSandbox({ clock: 'manual', stateFile: file })).close();
    // A lock left by a process that is gone (a crash): taken over.
    writeFileSync(`${file}.lock`, '2147483646\n');
    await (await startSandbox({ clock: 'manual', stateFile: file })).close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('a relative --state is taken from the working directory mq was given', async () => {
    const { code, stdout } = await sandboxFor(300, '--state', 'relative.json');
    expect(code).toBe(130);
    expect(stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\n$/);
    expect(existsSync(join(dir, 'relative.json'))).toBe(true);
  });

  it.skipIf(process.getuid?.() === 0)('a state file that cannot be read: exit 3', async () => {
    const file = join(dir, 'unreadable.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o000);
    const { code, stderr } = await sandbox('--state', file);
    expect(code).toBe(3);
    expectOneLine(stderr, /cannot be read/);
  });

  it('a read-only state file or journal: exit 3, on one line, and neither is changed', async () => {
    const file = join(dir, 'read-only.json');
    await stateWithAQueue(file);
    const before = [readFileSync(file, 'utf8'), readFileSync(`${file}.journal`, 'utf8')];
    expect(before[1]).toMatch(/createQueue/);
    for (const [readOnly, named] of [
      [file, /: it is read-only/],
      [`${file}.journal`, /: \S+read-only\.json\.journal is read-only/],
    ] as const) {
      chmodSync(file, 0o644);
      chmodSync(`${file}.journal`, 0o644);
      chmodSync(readOnly, 0o444);
      const { code, stderr } = await sandbox('--state', file);
      expect(code).toBe(3);
      expectOneLine(stderr, named);
      expect(stderr).toMatch(/give --state a file this user can read and write/);
      expect([readFileSync(file, 'utf8'), readFileSync(`${file}.journal`, 'utf8')]).toEqual(before);
      expect(statSync(readOnly).mode & 0o777).toBe(0o444);
    }
  });

  it.skipIf(process.getuid?.() === 0)('a folder the state cannot be written to: exit 3', async () => {
    const folder = join(dir, 'read-only');
    mkdirSync(folder);
    chmodSync(folder, 0o500);
    const { code, stderr } = await sandbox('--state', join(folder, 'state.json'));
    expect(code).toBe(3);
    expectOneLine(stderr, /cannot be written/);
  });
});
