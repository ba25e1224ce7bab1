// Raw sockets and in-process runs of mq, for the tests that feed the sandbox and the CLI what no well-behaved
// client would: malformed request lines and headers, hostile names, argv of any shape.
import { connect } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import type { Io } from '../../src/cli.js';

export interface RawAnswer {
  /** The status code of the first answer, or undefined when none came. */
  status: number | undefined;
  /** Everything the sandbox sent back. */
  text: string;
  /** The connection was reset (ECONNRESET/EPIPE) rather than closed. */
  reset: boolean;
}

/**
 * Writes `request` on a fresh connection, ends its side after `settleMs`, and resolves with what came back
 * once the server closes (or `timeoutMs` passes).
 */
export function rawRequest(port: number, request: string | Buffer, options: { settleMs?: number; timeoutMs?: number } = {}): Promise<RawAnswer> {
  const { settleMs = 200, timeoutMs = 5000 } = options;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let reset = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(ending);
      clearTimeout(giveUp);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : undefined, text, reset });
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
      finish();
    });
    socket.on('close', finish);
    socket.write(request);
    const ending = setTimeout(() => socket.end(), settleMs);
    const giveUp = setTimeout(finish, timeoutMs);
  });
}

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it. */
function sink(): PassThrough & { text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return Object.assign(stream, { text: () => text });
}

/** Runs mq's `run()` in this process, with streams that keep what it prints and no terminal. */
export async function runInProcess(
  run: (io: Io) => Promise<number>,
  argv: string[],
  options: { env?: Record<string, string | undefined>; cwd: string; signal?: AbortSignal; stdin?: string; now?: number },
): Promise<CapturedRun> {
  const stdout = sink();
  const stderr = sink();
  const code = await run({
    argv,
    env: options.env ?? {},
    cwd: options.cwd,
    stdin: Readable.from([options.stdin ?? '']),
    stdout,
    stderr,
    signal: options.signal ?? new AbortController().signal,
    now: () => options.now ?? Date.parse('2026-01-01T00:00:00.000Z'),
  });
  // Let the last writes reach the sinks.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
