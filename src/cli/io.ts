// The program's whole view of its process, so that tests can run it in-process.
import type { Readable, Writable } from 'node:stream';

type Tty = { isTTY?: boolean; columns?: number; rows?: number };

/** A line for stderr, folded on a terminal as prose (none), as a shell `command`, or not at all (`verbatim`: a trace). */
export type StderrLine = (text: string, as?: 'command' | 'verbatim') => void;

export interface Io {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  stdin: Readable & Tty;
  stdout: Writable & Tty;
  stderr: Writable & Tty;
  /** Aborted on Ctrl-C or SIGTERM. */
  signal: AbortSignal;
  now(): number;
  /** The pauses of waits and retries, rejecting once `signal` aborts; absent, a timer. In-process tests pass one that moves their clock (`now`). */
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
  /** With an injected clock, the v2 budget's folder runs on that clock share; absent, each keeps its own. A process shares the cache folder's. */
  budgetFolder?: string;
  /** Calls `listener` as the process exits, however it exits; returns what stops it. Absent in-process: never. */
  onExit?(listener: () => void): () => void;
}
