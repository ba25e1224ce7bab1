// One Context for tests of command handlers: a service of the test's own making (any method it does not give
// throws, naming it), a clock that moves only when the handler sleeps, and what the handler said, kept.
import type { Context } from '../../src/command-kit/context.js';
import type { ResolvedSettings } from '../../src/config/settings.js';
import { InterruptedError } from '../../src/errors.js';
import type { QueueRef } from '../../src/model/repository.js';
import type { MergeQueueService } from '../../src/model/service.js';

export const QUEUE: QueueRef = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };

export interface TestContextOptions {
  /** The methods the handler may call; serviceNow and close are given unless these say otherwise. */
  service?: Partial<MergeQueueService>;
  signal?: AbortSignal;
  /** A person at the terminal answering every confirmation so (none: not interactive). */
  answer?: boolean;
  resolved?: ResolvedSettings;
}

export interface TestContext {
  ctx: Context;
  /** The local clock, epoch ms: it moves only when the handler sleeps. */
  clock: { now: number };
  /** Every pause the handler asked for, in order. */
  sleeps: number[];
  /** The confirmations asked. */
  questions: string[];
  /** warn, note and info lines, as `warn: …`, `note: …`, `info: …`. */
  said: string[];
}

export function testContext(options: TestContextOptions = {}): TestContext {
  const signal = options.signal ?? new AbortController().signal;
  const clock = { now: 0 };
  const sleeps: number[] = [];
  const questions: string[] = [];
  const said: string[] = [];
  const service = fakeService(options.service ?? {});
  const ctx: Context = {
    resolved: options.resolved ?? ({ settings: {}, origins: {}, locations: {} } as ResolvedSettings),
    service: async () => service,
    probeService: async () => service,
    webhookControl: async () => undefined,
    cacheDir: undefined,
    queueRef: () => QUEUE,
    openInBrowser: async () => undefined,
    confirm: async (question) => {
      questions.push(question);
      return options.answer ?? false;
    },
    interactive: options.answer !== undefined,
    warn: (message) => said.push(`warn: ${message}`),
    note: (message) => said.push(`note: ${message}`),
    info: (message) => said.push(`info: ${message}`),
    progress: () => undefined,
    cwd: '/',
    writesInFlight: new Set(),
    signal,
    now: () => clock.now,
    // The middle of the jitter: every pause exactly the pace's.
    random: () => 0.5,
    endBy: () => undefined,
    sleep: async (ms) => {
      if (signal.aborted) throw new InterruptedError();
      sleeps.push(ms);
      clock.now += ms;
    },
  };
  return { ctx, clock, sleeps, questions, said };
}

/** The given methods; any other throws at its call, naming itself, so a test never passes on a silent stub. */
function fakeService(given: Partial<MergeQueueService>): MergeQueueService {
  // takesMergedAgain: what only a service that takes a merged PR in again does (v1); readAhead: what only one that
  // reads each PR before its change has (v2's); readAfresh: what one that keeps reads within a look has. A test
  // gives them where it needs them.
  const defaults: Partial<MergeQueueService> = {
    serviceNow: () => undefined,
    close: async () => undefined,
    canEditEntries: false,
    takesMergedAgain: false,
    readAhead: undefined,
    readAfresh: undefined,
  };
  return new Proxy({ ...defaults, ...given } as MergeQueueService, {
    get(target, name: string) {
      if (name in target) return target[name as keyof MergeQueueService];
      if (name === 'then') return undefined;
      return () => {
        throw new Error(`the test's service has no ${name}`);
      };
    },
  });
}
