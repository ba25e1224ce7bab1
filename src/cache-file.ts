// The files of mq's cache folder (the v2 ids, the request budgets, the webhooks secret). Whatever else stands at
// their names is unusable, never read: a FIFO's open or read blocks the process in a system call (deaf to SIGTERM),
// a device never ends, and a file grown huge would be read whole. Each is written whole or not at all, and a file
// several processes change is changed under a lock file beside it.
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, type Stats, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeFolder } from './folders.js';

/** A lock held longer than this was left behind by a process that died. */
const LOCK_STALE_MS = 2_000;
/** The pause before trying a lock another process holds again: it holds it for a fraction of a millisecond. */
export const LOCK_PAUSE_MS = 2;
/** Opens without waiting for a FIFO's other end (where the platform has the flag: elsewhere there are no FIFOs to fear). */
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Opens `path` with `flags` (and `mode`, where it is made) as a regular file only, without blocking on whatever
 * else is there; throws for anything else, in words systemErrorWords keeps.
 */
export function openRegular(path: string, flags: number, mode?: number): { fd: number; size: number } {
  const fd = openSync(path, flags | NONBLOCK, mode);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error(`it is ${kindOf(stats)}, not a regular file`);
    return { fd, size: stats.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * The text of the regular file at `path`: undefined where there is none, or one larger than `max` bytes (read no
 * further, however it grows meanwhile: not mq's, it is written afresh); a throw where anything else is there.
 */
export function readSmall(path: string, max: number): string | undefined {
  let opened: { fd: number; size: number };
  try {
    opened = openRegular(path, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const buffer = Buffer.alloc(Math.min(opened.size, max) + 1);
    let length = 0;
    for (;;) {
      const read = length < buffer.length ? readSync(opened.fd, buffer, length, buffer.length - length, null) : 0;
      if (read === 0) break;
      length += read;
    }
    return length > max ? undefined : buffer.toString('utf8', 0, length);
  } finally {
    closeSync(opened.fd);
  }
}

/** Writes `text` at `path` whole or not at all: into a file of its own beside it, renamed over it; that one removed on failure. */
export function writeWhole(path: string, text: string, mode: number): void {
  const partial = `${path}.${process.pid}`;
  try {
    // Made afresh ('wx'): a name left by a process that died with this pid may hold anything, a FIFO even.
    try {
      writeFileSync(partial, text, { mode, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      unlinkSync(partial);
      writeFileSync(partial, text, { mode, flag: 'wx' });
    }
    renameSync(partial, path);
  } catch (error) {
    try {
      unlinkSync(partial);
    } catch {}
    throw error;
  }
}

/** Takes the lock file `lock`: true, or false while another process holds it; throws when the folder will not have it. */
export function takeLock(lock: string): boolean {
  for (let tries = 0; tries < 3; tries++) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && tries === 0) {
        makeFolder(dirname(lock), 0o700);
        continue;
      }
      if (code !== 'EEXIST') throw error;
    }
    let age: number;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      return false; // released meanwhile, and maybe taken again: look once more after the pause
    }
    if (Math.abs(age) < LOCK_STALE_MS) return false;
    unlinkSync(lock);
  }
  return false;
}
