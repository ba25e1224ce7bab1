// The state file: a snapshot of the engine's document, and beside it a journal of the changes acknowledged since
// (`FILE.journal`, one JSON line each). A change is acknowledged once its line is appended and fsynced, so a
// kill -9 loses nothing acknowledged, and the cost of a change does not grow with the state. Now and then the
// journal is folded into a new snapshot (temporary file, fsync, rename, fsync of the directory). The journal's
// first line names the snapshot it follows by a hash, and before a fold its last line names the snapshot that
// folds it in: a crash between the two renames leaves a journal that is recognised as already folded in, and one
// that follows neither (the file edited by hand while the sandbox was stopped) is refused rather than dropped
// with the changes it holds. Writes requested together share one write and one fsync.
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { systemErrorWords } from '../../errors.js';

/** Why a state file cannot be used, on one line naming the file; what to do about it is the caller's to say. */
export type StateFileProblem = 'folder' | 'read' | 'content' | 'journal' | 'write' | 'busy';

export class StateFileError extends Error {
  constructor(
    readonly path: string,
    readonly problem: StateFileProblem,
    what: string,
    options?: ErrorOptions,
  ) {
    super(`sandbox state ${path}: ${what.replace(/\s+/g, ' ').trim()}`, options);
    this.name = 'StateFileError';
  }
}

/** One acknowledged change: the instant it happened at, and the operation with its validated input. */
export interface JournalEntry {
  at: number;
  op: string;
  input?: unknown;
}

export interface SavedState {
  snapshot: string | undefined;
  entries: JournalEntry[];
}

interface Batch {
  lines: string[];
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

export class StateStore {
  readonly journalPath: string;
  private journal: FileHandle | undefined;
  private chain: Promise<void> = Promise.resolve();
  private accepting: Batch | undefined;
  private temporaries = 0;
  private locked = false;
  /** Bytes in the journal and in the last snapshot: the caller folds the one into the other when it outgrows it. */
  journalBytes = 0;
  snapshotBytes = 0;

  constructor(readonly path: string) {
    this.journalPath = `${path}.journal`;
  }

  /** Beside the state (`FILE.webhooks`): the webhook deliveries not yet acknowledged; undefined when there is none. */
  loadWebhooks(): string | undefined {
    return this.readIfThere(`${this.path}.webhooks`);
  }

  /** Replaces the deliveries kept beside the state; in the order of the other writes (before a snapshot asked after it). */
  saveWebhooks(text: string): Promise<void> {
    return this.enqueue(() => this.replace(`${this.path}.webhooks`, text));
  }

  /**
   * The snapshot and the journal that follows it. A journal that follows another snapshot was folded into this one
   * (it names it), or holds no change: either way there is nothing in it to replay. Any other is refused.
   */
  load(): SavedState {
    this.checkFolder();
    for (const file of [this.path, this.journalPath, `${this.path}.webhooks`]) this.checkWritable(file);
    const snapshot = this.readIfThere(this.path);
    const journal = this.readIfThere(this.journalPath);
    this.snapshotBytes = snapshot === undefined ? 0 : Buffer.byteLength(snapshot);
    if (snapshot === undefined || journal === undefined) return { snapshot, entries: [] };
    const lines = journal.split('\n');
    const header = parseLine(lines[0] ?? '') as { follows?: unknown } | undefined;
    const entries: JournalEntry[] = [];
    const foldedInto = new Set<unknown>();
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      if (line === '') continue;
      const entry = parseLine(line) as (JournalEntry & { foldedInto?: unknown }) | undefined;
      if (entry && typeof entry.at === 'number' && typeof entry.op === 'string') {
        entries.push(entry);
        continue;
      }
      if (entry && typeof entry.foldedInto === 'string') {
        foldedInto.add(entry.foldedInto);
        continue;
      }
      // Only the last line can be torn by a crash, and it was never acknowledged: its fsync did not return.
      if (i === lines.length - 1) break;
      throw new StateFileError(this.path, 'content', `${this.journalPath}: line ${i + 1} is not a journal entry`);
    }
    const hash = hashOf(snapshot);
    if (header?.follows === hash) return { snapshot, entries };
    if (foldedInto.has(hash) || entries.length === 0) return { snapshot, entries: [] };
    throw new StateFileError(
      this.path,
      'journal',
      `${this.journalPath} holds ${entries.length} change${entries.length === 1 ? '' : 's'} made since another version of the file (was it edited while the sandbox was stopped?), which the file does not hold`,
    );
  }

  /** Resolves once the entry is on disk. Entries appended in one turn of the event loop share a write. */
  append(entry: JournalEntry): Promise<void> {
    const batch = this.accepting ?? this.openBatch();
    batch.lines.push(`${JSON.stringify(entry)}\n`);
    return new Promise((resolve, reject) => batch.waiters.push({ resolve, reject }));
  }

  /** A new snapshot, taken now (holding the entries appended before), and an empty journal after it. */
  compact(snapshot: string): Promise<void> {
    this.accepting = undefined;
    return this.enqueue(async () => {
      try {
        await this.writeSnapshot(snapshot);
      } catch (error) {
        throw new StateFileError(this.path, 'write', `it cannot be written (${systemErrorWords(error)})`, { cause: error });
      }
    });
  }

  async close(): Promise<void> {
    await this.chain;
    await this.journal?.close();
    this.journal = undefined;
  }

  /**
   * One sandbox a state file (`FILE.lock`, holding its process id): two would interleave their journals, and a
   * restart replay a state neither had. A lock whose process is gone (a crash, kill -9) is taken over. Taken by
   * the sandbox that writes the file; a reader (load() alone) takes none.
   */
  lock(): void {
    this.checkFolder();
    const lock = `${this.path}.lock`;
    const holder = HELD.has(resolvePath(this.path)) ? process.pid : lockHolder(lock);
    if (holder !== undefined) {
      const who = holder === process.pid ? 'this process' : `process ${holder}`;
      throw new StateFileError(this.path, 'busy', `another sandbox (${who}) keeps its state there`);
    }
    try {
      writeFileSync(lock, `${process.pid}\n`, { mode: 0o600 });
    } catch (error) {
      throw new StateFileError(this.path, 'write', `its lock ${lock} cannot be written (${systemErrorWords(error)})`, { cause: error });
    }
    HELD.add(resolvePath(this.path));
    this.locked = true;
  }

  /** Lets another sandbox keep its state in the file; nothing when this one holds no lock. */
  release(): void {
    if (!this.locked) return;
    this.locked = false;
    HELD.delete(resolvePath(this.path));
    rmSync(`${this.path}.lock`, { force: true });
  }

  /** The folder must be there: the state is written beside the file, and nothing creates folders unasked. */
  private checkFolder(): void {
    const folder = dirname(this.path);
    let isFolder: boolean;
    try {
      isFolder = statSync(folder).isDirectory();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new StateFileError(this.path, 'folder', `the folder ${folder} does not exist`);
      throw new StateFileError(this.path, 'folder', `the folder ${folder} cannot be read (${systemErrorWords(error)})`, { cause: error });
    }
    if (!isFolder) throw new StateFileError(this.path, 'folder', `${folder} is not a folder`);
  }

  /**
   * A file of the state that is there must be one the sandbox may change: each is replaced whole (a rename), which
   * a read-only file does not stop, so it is refused instead, unchanged. Read-only is what its mode says (no one
   * may write it: even root, who may write anything, is told so) or what the system says of this user.
   */
  private checkWritable(path: string): void {
    let mode: number;
    try {
      mode = statSync(path).mode;
    } catch {
      return; // not there (it is made), or not readable: the read says which
    }
    let writable = (mode & 0o222) !== 0;
    try {
      if (writable) accessSync(path, constants.W_OK);
    } catch {
      writable = false;
    }
    if (!writable) throw new StateFileError(this.path, 'read', `${path === this.path ? 'it' : path} is read-only`);
  }

  private readIfThere(path: string): string | undefined {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      const it = path === this.path ? 'it' : path;
      if (code === 'EISDIR') throw new StateFileError(this.path, 'read', `${it} is a folder, not a file`);
      throw new StateFileError(this.path, 'read', `${it} cannot be read (${systemErrorWords(error)})`, { cause: error });
    }
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private openBatch(): Batch {
    const batch: Batch = { lines: [], waiters: [] };
    this.accepting = batch;
    this.enqueue(async () => {
      if (this.accepting === batch) this.accepting = undefined;
      await this.writeBatch(batch);
    }).catch(() => undefined);
    return batch;
  }

  private async writeBatch(batch: Batch): Promise<void> {
    try {
      this.journal ??= await open(this.journalPath, 'a', 0o600);
      const text = batch.lines.join('');
      await this.journal.write(text);
      await this.journal.datasync();
      this.journalBytes += Buffer.byteLength(text);
      for (const waiter of batch.waiters) waiter.resolve();
    } catch (error) {
      for (const waiter of batch.waiters) waiter.reject(error);
    }
  }

  private async writeSnapshot(snapshot: string): Promise<void> {
    const hash = hashOf(snapshot);
    // Said in the journal before the snapshot replaces the one it follows: after a crash between the two renames,
    // the journal names the snapshot that holds its changes.
    this.journal ??= await open(this.journalPath, 'a', 0o600);
    await this.journal.write(`${JSON.stringify({ foldedInto: hash })}\n`);
    await this.journal.datasync();
    await this.replace(this.path, snapshot);
    await this.journal.close();
    this.journal = undefined;
    const header = `${JSON.stringify({ follows: hash })}\n`;
    await this.replace(this.journalPath, header);
    this.snapshotBytes = Buffer.byteLength(snapshot);
    this.journalBytes = Buffer.byteLength(header);
  }

  /** Temporary file in the same directory, fsync, rename, fsync of the directory. */
  private async replace(path: string, text: string): Promise<void> {
    const directory = dirname(path);
    const temporary = join(directory, `.${basename(path)}.${process.pid}.${++this.temporaries}.tmp`);
    try {
      const file = await open(temporary, 'w', 0o600);
      try {
        await file.writeFile(text, 'utf8');
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
    await syncDirectory(directory);
  }
}

/** The state files this process's sandboxes keep (a library's may run several): each holds one. */
const HELD = new Set<string>();

/** The process holding a lock, where it still runs; undefined where there is no lock, or its process is gone. */
function lockHolder(lock: string): number | undefined {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
  } catch {
    return undefined;
  }
  if (!(pid > 0) || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

function parseLine(line: string): unknown {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
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
