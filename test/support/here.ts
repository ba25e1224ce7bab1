// mq run in this process (`run(io)`) on the real clock, with no terminal: for behaviour that needs real HTTP and
// the real passing of time but nothing only a process shows.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { run } from '../../src/cli.js';

/** mq in this process, on the real clock (a wait's pauses are real): its exit code and what it printed. */
export async function mqHere(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), 'mq-here-'));
  const out = new PassThrough().setEncoding('utf8');
  const err = new PassThrough().setEncoding('utf8');
  let stdout = '';
  let stderr = '';
  out.on('data', (chunk: string) => (stdout += chunk));
  err.on('data', (chunk: string) => (stderr += chunk));
  const code = await run({
    argv,
    env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...env },
    cwd: home,
    stdin: Readable.from(['']),
    stdout: out,
    stderr: err,
    signal: new AbortController().signal,
    now: Date.now,
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout, stderr };
}
