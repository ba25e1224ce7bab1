// What the commands that serve until stopped (`mq sandbox`, `mq webhooks listen`) share: the wait for Ctrl-C, and
// a port they cannot listen on told as a bad --port.
import { UsageError } from '../errors.js';

/** Resolves once the command is stopped (at once if it already is). */
export function untilStopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** A listen refused for its port, as a bad --port (exit 2) with the fix; any other error as it was. */
export function portFailure(error: unknown, port: number): unknown {
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (syscall === 'listen' && code === 'EADDRINUSE') {
    return new UsageError(`port ${port} is in use: try --port 0 (any free port) or another port`, { cause: error });
  }
  if (syscall === 'listen' && (code === 'EACCES' || code === 'EPERM')) {
    return new UsageError(`port ${port} needs privileges this user does not have: try --port 0 or a port above 1023`, { cause: error });
  }
  return error;
}
