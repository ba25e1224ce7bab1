// The state file: the engine's document written whole and atomically (temporary file in the same directory,
// fsync, rename, fsync of the directory) before a change is acknowledged, so a kill -9 loses nothing
// acknowledged. Writes requested while one is under way share the next write.
import { readFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

interface QueuedWrite {
  snapshot: () => string;
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class StateFile {
  private writing: Promise<void> | undefined;
  private queued: QueuedWrite | undefined;
  private writes = 0;

  constructor(readonly path: string) {}

  /** The saved document, or undefined when there is no file yet. */
  read(): string | undefined {
    try {
      return readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * Resolves once a write that started after this call is on disk. `snapshot` is taken when that write
   * starts, so it holds every change made before it.
   */
  save(snapshot: () => string): Promise<void> {
    if (this.writing === undefined) return this.begin(snapshot);
    if (this.queued) {
      this.queued.snapshot = snapshot;
      return this.queued.done;
    }
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.queued = { snapshot, done, resolve, reject };
    return done;
  }

  /** Waits for every write asked for so far. */
  async flush(): Promise<void> {
    while (this.writing !== undefined) await this.writing.catch(() => undefined);
  }

  private begin(snapshot: () => string): Promise<void> {
    const writing = this.write(snapshot());
    this.writing = writing;
    const next = () => {
      this.writing = undefined;
      const queued = this.queued;
      this.queued = undefined;
      if (queued) this.begin(queued.snapshot).then(queued.resolve, queued.reject);
    };
    writing.then(next, next);
    return writing;
  }

  private async write(text: string): Promise<void> {
    const directory = dirname(this.path);
    const temporary = join(directory, `.${basename(this.path)}.${process.pid}.${++this.writes}.tmp`);
    try {
      const file = await open(temporary, 'w', 0o600);
      try {
        await file.writeFile(text, 'utf8');
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
    await syncDirectory(directory);
  }
}

/** Makes the rename itself durable; some platforms cannot open a directory, and lose only that. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // not supported here (Windows): the file's own fsync still holds
  }
}
