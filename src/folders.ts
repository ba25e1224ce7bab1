// A folder and the folders above it, made as `mkdir -p` makes them. Not Node's `mkdir(…, { recursive: true })`: where a
// folder's parent exists but the file system answers ENOENT to making it (under /proc, as XDG_CACHE_HOME=/proc/x
// asks), Node's tries again forever, the synchronous one holding the process past SIGTERM (mq status hung so).
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** The folders of `path` to make, outermost first: those that do not exist (a file in the way throws ENOTDIR). */
function missingOf(path: string, exists: (folder: string) => boolean): string[] {
  const missing: string[] = [];
  for (let at = resolve(path); !exists(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  return missing;
}

function made(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
}

function isFolder(folder: string, stats: { isDirectory(): boolean } | undefined): boolean {
  if (stats === undefined) return false;
  if (!stats.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${folder}'`), { code: 'ENOTDIR', path: folder });
  return true;
}

/** Makes `path` and the folders above it that are missing, each with `mode`; each is made once, and any failure is thrown. */
export function makeFolderSync(path: string, mode?: number): void {
  const exists = (folder: string) => isFolder(folder, statSync(folder, { throwIfNoEntry: false }));
  for (const folder of missingOf(path, exists)) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      made(error);
    }
  }
}

/** makeFolderSync, without holding the event loop. */
export async function makeFolder(path: string, mode?: number): Promise<void> {
  const stats = new Map<string, { isDirectory(): boolean } | undefined>();
  // The chain of folders above is short: each looked at once, then walked as the sync one walks it.
  for (let at = resolve(path); ; at = dirname(at)) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    stats.set(at, found);
    if (found !== undefined || dirname(at) === at) break;
  }
  for (const folder of missingOf(path, (folder) => isFolder(folder, stats.get(folder)))) {
    try {
      await mkdir(folder, { mode });
    } catch (error) {
      made(error);
    }
  }
}
