// The API token, read only when a request needs one: `mq config show` or `mq --help` must not run a password
// manager. No message here ever includes the token, or the output of the command that prints it.
import { ConfigError, InterruptedError, type MqError, systemErrorWords } from '../errors.js';
import { formatDuration } from './duration.js';
import { envNames } from './setting-rows.js';
import type { Settings } from './settings.js';
import { signalChild } from '../process-group.js';
import { otherThanFile } from './git.js';
import { constants } from 'node:fs';

/** Long enough for a password manager to ask for a fingerprint; short enough not to hang CI forever. */
const TOKEN_COMMAND_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 64 * 1024;

const NO_TOKEN_MESSAGE = `no API token: set ${envNames('token')}, or tokenCommand/tokenFile in the user config file`;

/** `signal`: Ctrl-C or SIGTERM ends a tokenCommand still running (a password manager waiting for a touch). */
export async function readToken(settings: Settings, signal?: AbortSignal): Promise<string> {
  const source = settings.token;
  if (source === undefined) throw new ConfigError(NO_TOKEN_MESSAGE);
  switch (source.kind) {
    case 'env':
      return checkToken(source.value, source.name);
    case 'config':
      return checkToken(source.value, `"token" in ${source.origin}`);
    case 'file':
      return checkToken(await readTokenFile(source.path, source.origin), `tokenFile ${source.path}`);
    case 'command':
      return checkToken(await runTokenCommand(source.command, source.origin, source.cwd, TOKEN_COMMAND_TIMEOUT_MS, signal), `tokenCommand "${source.command}"`);
  }
}

/** Surrounding whitespace (a trailing newline, mostly) is dropped; a line break inside would corrupt the header. */
function checkToken(raw: string, what: string): string {
  const token = raw.trim();
  if (token === '') throw new ConfigError(`no API token: ${what} is empty`);
  if (/[\u0000-\u001f\u007f]/.test(token)) {
    throw new ConfigError(`${what} holds more than the token (a line break or control character)`);
  }
  // A header carries visible ASCII: a character pasted with the token (a zero-width space, a typographic quote)
  // would make every request fail before it is sent, which reads as "cannot reach" and "may have been applied".
  const foreign = /[^\x20-\x7e]/u.exec(token);
  if (foreign) {
    const codePoint = foreign[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    const at = [...token.slice(0, foreign.index)].length + 1;
    throw new ConfigError(`${what} holds U+${codePoint} at character ${at}, which no HTTP header can carry: copy the token again`);
  }
  return token;
}

/**
 * The file's text, at most MAX_OUTPUT_BYTES as a tokenCommand's output is: a file of megabytes (or /dev/zero) is no
 * token, and read whole it was sent as one header (431) or failed the read at half a gigabyte.
 */
async function readTokenFile(path: string, origin: string): Promise<string> {
  let read: { text: string; more: boolean };
  const notAFile = (kind: string) =>
    new ConfigError(`tokenFile ${path}, named in ${origin}, is ${kind}, not a file: give the path of a file holding the token`);
  try {
    // Loaded here: node:fs/promises (and node:readline's internals with it) is a millisecond of every start.
    const { open, stat } = await import('node:fs/promises');
    // Asked before opening: opening a FIFO waits for a writer, and no signal ends that wait.
    const kind = otherThanFile(await stat(path));
    if (kind) throw notAFile(kind);
    const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      // And again once open, should the path have changed in between.
      const opened = otherThanFile(await file.stat());
      if (opened) throw notAFile(opened);
      const buffer = Buffer.alloc(MAX_OUTPUT_BYTES + 1);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      read = { text: buffer.toString('utf8', 0, Math.min(bytesRead, MAX_OUTPUT_BYTES)), more: bytesRead > MAX_OUTPUT_BYTES };
    } finally {
      await file.close();
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot read tokenFile ${path}, named in ${origin}: ${systemErrorWords(error)}`);
  }
  if (read.more) throw new ConfigError(`tokenFile ${path}, named in ${origin}, holds more than a token (over ${MAX_OUTPUT_BYTES / 1024} KiB)`);
  return read.text;
}

/** Runs `command` in a shell and answers its stdout. stderr is discarded: it is never shown, so it cannot leak. */
export async function runTokenCommand(
  command: string,
  origin: string,
  cwd?: string,
  timeoutMs = TOKEN_COMMAND_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<string> {
  // Loaded here, as git.ts does: only a tokenCommand needs a child process.
  const { spawn } = await import('node:child_process');
  if (signal?.aborted) throw new InterruptedError();
  const named = `tokenCommand "${command}" (${origin})`;
  // Without a terminal, in a process group of its own, killed whole: a command it started (`sleep 71; echo tok`)
  // would otherwise outlive a timeout or Ctrl-C, and hold mq open on its stdout until it ended. With one, in
  // mq's: a password manager may ask there, which a background group may not.
  const group = process.platform !== 'win32' && !process.stdin.isTTY;
  return new Promise((done, fail) => {
    const child = spawn(command, { shell: true, cwd, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true, detached: group });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const interrupted = () => finish(new InterruptedError());
    const finish = (error: MqError | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', interrupted);
      if (error) {
        signalChild(child, group, 'SIGTERM');
        // Whatever is left of it writes to no one: mq does not wait for the pipe to close.
        child.stdout.destroy();
        fail(error);
      } else {
        done(Buffer.concat(chunks).toString('utf8'));
      }
    };
    const timer = setTimeout(() => finish(new ConfigError(`${named} did not finish within ${formatDuration(timeoutMs)}`)), timeoutMs);
    signal?.addEventListener('abort', interrupted, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) finish(new ConfigError(`${named} printed more than a token`));
      else chunks.push(chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(new ConfigError(`could not run ${named}: ${systemErrorWords(error)}`));
    });
    child.on('close', (code, signal) => {
      if (code === 0) finish(undefined);
      else finish(new ConfigError(`${named} failed (${signal ?? `exit code ${code}`}); run it yourself to see why`));
    });
  });
}
