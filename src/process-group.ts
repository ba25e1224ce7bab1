// A child process sent a signal whole: where it runs in a process group of its own (spawned detached), the group,
// so that what it started in the background goes with it; else the child alone. Used by `mq sandbox exec` for its
// command and by a tokenCommand's shell.
import type { ChildProcess } from 'node:child_process';

/** Sends `signal` to `child`, to its whole group where `group` (it was spawned detached); nothing when it is gone. */
export function signalChild(child: ChildProcess, group: boolean, signal: NodeJS.Signals): void {
  try {
    if (group && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Gone already.
  }
}
