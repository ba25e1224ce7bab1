// The engine kept in a state file: when to write (the format is store.ts's).
import * as z from 'zod';
import { describeIssues } from '../../api/format-path.js';
import { replay, TIME_PASSED, type Journaled } from '../engine/changes.js';
import { QueueEngine, type EngineOptions } from '../engine/engine.js';
import { StateFileError, type StateStore } from './store.js';
import { ENGINE_JOURNAL_SINCE, translateLegacyEntry } from './v1/legacy-journal.js';

/** How often, at most, time passing alone is journaled, in real ms. */
const TIME_JOURNAL_MS = 5000;
/** The journal is folded into a new snapshot once it is larger than the snapshot, and than this. */
const COMPACT_AFTER_BYTES = 1024 * 1024;

/** The snapshot with the journal replayed on top, else a fresh engine; an older journal's v1 bodies are translated. */
export function loadEngine(
  store: StateStore | undefined,
  options: { fresh: EngineOptions; initial?: string | undefined; testDurationSeconds?: number | undefined },
): QueueEngine {
  const engineOptions = options.testDurationSeconds === undefined ? {} : { testDurationSeconds: options.testDurationSeconds };
  const saved = store?.load();
  if (!store || saved?.snapshot === undefined) {
    return options.initial === undefined ? QueueEngine.create({ ...options.fresh, ...engineOptions }) : QueueEngine.restore(options.initial, engineOptions);
  }
  let engine: QueueEngine;
  try {
    engine = QueueEngine.restore(saved.snapshot, engineOptions);
  } catch (error) {
    throw new StateFileError(store.path, 'content', (error as Error).message, { cause: error });
  }
  const legacy = engine.restoredFromVersion !== undefined && engine.restoredFromVersion < ENGINE_JOURNAL_SINCE;
  for (const [i, entry] of saved.entries.entries()) {
    try {
      replay(engine, legacy ? translateLegacyEntry(entry) : entry);
    } catch (error) {
      const message = error instanceof z.ZodError ? describeIssues(error) : (error as Error).message;
      throw new StateFileError(store.path, 'content', `entry ${i + 1} of ${store.journalPath} cannot be replayed: ${message}`, { cause: error });
    }
  }
  return engine;
}

/** Writes an engine's changes to its state file; without a file, writes nothing and waits for nothing. */
export class EngineJournal {
  private journaledRevision: number;
  private lastTimeJournaled = performance.now();
  private backgroundFailure: unknown;

  private constructor(
    private readonly engine: QueueEngine,
    private readonly store: StateStore | undefined,
    private readonly onFold: () => void,
  ) {
    this.journaledRevision = engine.revision;
  }

  /** Starts from one snapshot and an empty journal: an upgraded document is written in its new version at once. */
  // `onFold` runs once each new snapshot is asked for, to write after it what the old journal alone would have made
  // again (the webhook deliveries already settled, which then need not be remembered).
  static async open(engine: QueueEngine, store: StateStore | undefined, onFold: () => void = () => undefined): Promise<EngineJournal> {
    const compacted = store?.compact(engine.serialize());
    onFold();
    await compacted;
    return new EngineJournal(engine, store, onFold);
  }

  /** Journals a change (or time passing) and resolves once it is on disk; folds the journal in when it is large. */
  async record(change: Journaled): Promise<void> {
    const { store, engine } = this;
    if (!store) return;
    this.journaledRevision = engine.revision;
    const written = store.append({ at: engine.now.getTime(), ...change });
    if (store.journalBytes > Math.max(COMPACT_AFTER_BYTES, store.snapshotBytes)) {
      // The snapshot is taken now, after the change: written follows it in the chain of writes.
      store.compact(engine.serialize()).catch(this.reportBackgroundFailure);
      this.onFold();
    }
    await written;
  }

  // Time alone needs no write (a replay recomputes it), but is journaled now and then so a restart does not fall
  // far behind a sped-up clock.
  timePassed(): void {
    if (this.engine.revision === this.journaledRevision || performance.now() - this.lastTimeJournaled < TIME_JOURNAL_MS) return;
    this.lastTimeJournaled = performance.now();
    this.record(TIME_PASSED).catch(this.reportBackgroundFailure);
  }

  async close(): Promise<void> {
    await this.store?.close();
  }

  private readonly reportBackgroundFailure = (error: unknown): void => {
    if (this.backgroundFailure === undefined) console.error(`mq sandbox: cannot write the state file: ${(error as Error).message}`);
    this.backgroundFailure = error;
  };
}
