// Whether a process still runs, for tests that check that nothing mq started outlives it.
import { existsSync, readFileSync } from 'node:fs';

/**
 * Whether a process of this id runs, by the process table: a zombie (state Z, dead, left for its new parent to
 * reap, which a container's first process may never do) runs no more.
 */
export function alive(pid: number): boolean {
  try {
    if (!existsSync('/proc/self')) return process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Whether the process of this id is gone: a group sent a signal may not yet have been run to its end by the kernel
 * on a loaded machine when the sender's end is seen; a process still alive after 5 s outlived it.
 */
export async function gone(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 250 && alive(pid); tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  return !alive(pid);
}
