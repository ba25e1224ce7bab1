// A folder and the folders above it, made as `mkdir -p` makes them. Not Node's `mkdir(…, { recursive: true })`: where a
// folder's parent exists but the file system answers ENOENT to making it (under /proc, as XDG_CACHE_HOME=/proc/x
// asks), Node's tries again forever, the synchronous one holding the process past SIGTERM (mq status hung so).
// Synchronous for every caller: a few system calls, once a command.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `path` and the folders above it that are missing, each with `mode`; each is made once, and any failure is thrown. */
export function makeFolder(path: string, mode?: number): void {
  const missing: string[] = [];
  for (let at = resolve(path); !isFolder(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Whether a folder is there; false where nothing is, and a file in the way throws ENOTDIR. */
function isFolder(folder: string): boolean {
  const stats = statSync(folder, { throwIfNoEntry: false });
  if (stats === undefined) return false;
  if (!stats.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${folder}'`), { code: 'ENOTDIR', path: folder });
  return true;
}
