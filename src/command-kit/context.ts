// What a command handler may use besides its own input: everything that touches the outside world arrives
// here, built once by src/cli/prepare.ts, so handlers stay plain functions that tests can drive.
import type { ResolvedSettings } from '../config/settings.js';
import type { QueueRef } from '../model/repository.js';
import type { MergeQueueService } from '../model/service.js';
import type { WebhookControl } from '../model/webhook-control.js';
import type { StoppedAt } from '../errors.js';

export type { QueueRef };

/** A write sent and not yet answered, in words: what it was, and the command that tells whether it was applied. */
export interface WriteInFlight {
  /** The subject of "may have been applied": `the submit of #42`. */
  what: string;
  /** `mq status 42`. */
  check: string;
  /** Anything else worth knowing: what ran before it, what was not sent. */
  also?: string;
  /** In a command over several PRs: the same as data, for --json's `stoppedAt`. */
  stoppedAt?: StoppedAt;
  /** Whether the write itself has left (a lookup before it may still be under way); absent: taken as left. */
  left?: () => boolean;
}

export interface Context {
  resolved: ResolvedSettings;
  /** The service, made on first use: commands that never call it never need a token. */
  service(): Promise<MergeQueueService>;
  /** A service of its own for `mq doctor`: one try per request within `timeoutMs`, with the caller's token (none: status only); the caller closes it. */
  probeService(token: string | undefined, timeoutMs: number): Promise<MergeQueueService>;
  /** The sandbox's webhook control routes, with the service's credential; undefined where the API URL is not a loopback address. */
  webhookControl(): Promise<WebhookControl | undefined>;
  /** mq's cache folder (config/cache-dir.ts); undefined without a home. */
  cacheDir: string | undefined;
  /** The repository and target branch every queue and PR operation names; a ConfigError without a repository. */
  queueRef(): QueueRef;
  /** Opens a link in the browser (BROWSER, else the platform's opener), once that command ends. */
  openInBrowser(url: string): Promise<void>;
  /** Asks on the terminal; only called when `interactive` is true. */
  confirm(question: string): Promise<boolean>;
  /** stdin and stderr are both terminals: a person is there to answer. */
  interactive: boolean;
  /** A warning for stderr (silenced by --quiet, kept off stdout under --json). */
  warn(message: string): void;
  /**
   * Progress or guidance for stderr, without a prefix (silenced by --quiet), folded between words on a terminal
   * narrower than it; a `command` (a shell command a person pastes) goes on after ` \` instead, still one command.
   */
  note(message: string, as?: 'command'): void;
  /** A transient line on stderr during a long read, redrawn in place ('' clears it); only on a terminal, never under --json or --quiet. */
  progress(line: string): void;
  /** A note for stderr shown only with --verbose. */
  info(message: string): void;
  /** --verbose was given: a command may ask for more to show (mq status: the PR's timeline). */
  verbose?: boolean;
  cwd: string;
  /** Writes sent and not answered: on Ctrl-C the runner says they may have applied and how to check (one cut short stays, whatever the order). */
  writesInFlight: Set<WriteInFlight>;
  /** How many writes the service has handed to the network so far (absent where no one counts them). */
  writesSent?: () => number;
  /** What the command has done that Ctrl-C must not hide, where no write is out (its writes all answered, a read after them cut short). */
  doneSoFar?: string;
  /** Aborted on Ctrl-C or SIGTERM; long-running commands end cleanly on it. */
  signal: AbortSignal;
  /**
   * Calls `listener` (synchronous work only) as the process exits, however it exits: a second Ctrl-C ends it at
   * once, past every `finally`. Returns what stops it. Absent in-process, where no process exits.
   */
  onExit?(listener: () => void): () => void;
  /** The local clock, epoch milliseconds: deadlines of `--timeout` are kept by it, not by the service's. */
  now(): number;
  /** A number in [0, 1), for the jitter of pauses (injected, so tests can fix it). */
  random(): number;
  /** Waits `ms`; rejects with an InterruptedError at once when `signal` aborts, so a poll never outlives Ctrl-C. */
  sleep(ms: number): Promise<void>;
  /** A waiting command's --timeout, by `now`: from then on no request pauses to try again past it. */
  endBy(deadline: number): void;
}
