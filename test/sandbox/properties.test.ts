// Invariants of the queue engine over random sequences of events: submits with random priorities and noBatch,
// cancels, restarts, outcomes, targets, pause/drain/resume, mode and batch changes, the graph soft cap, and time passing. The
// engine's state document is read after every step (and after every instant something happened by itself).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Repo } from '../../src/model/repository.js';
import type { QueueChange } from '../../src/model/service.js';
import type { Priority } from '../../src/model/vocabulary.js';
import { type Change, replay } from '../../src/sandbox/engine/changes.js';
import { dispatchOrderOf } from '../../src/sandbox/engine/dispatch-order.js';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { EngineRefusal } from '../../src/sandbox/engine/types.js';
import { entryIdOf, FINAL_STATES, type QueueRecord, type SandboxState, type Submission } from '../../src/sandbox/engine/state.js';
import type { JournalEntry } from '../../src/sandbox/io/store.js';
import type { TransitionObserver } from '../../src/sandbox/engine/world.js';
import { propertyRuns } from '../support/runs.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO: Repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };
const PRS = [1, 2, 3, 4, 5, 6, 7, 8];
const TARGETS = ['a', 'b', 'c'];

type Event =
  | { kind: 'submit'; pr: number; priority?: Priority; noBatch?: boolean }
  | { kind: 'cancel' | 'restart'; pr: number }
  | { kind: 'outcome'; pr: number; outcome: 'pass' | 'fail' | 'flaky' }
  | { kind: 'mergeable'; pr: number; mergeable: boolean }
  | { kind: 'targets'; pr: number; targets: string[] | 'ALL' }
  | { kind: 'state'; state: 'running' | 'paused' | 'draining' }
  | { kind: 'mode'; mode: 'single' | 'parallel' }
  | { kind: 'batching'; batch: boolean; batchingMinSize: number; batchingMaxWaitTimeMinutes: number }
  | { kind: 'failures'; canOptimisticallyMerge: boolean; pendingFailureDepth: number }
  | { kind: 'merging'; directMergeMode: 'off' | 'always'; optimizationMode: 'off' | 'bisection_skip_redundant_tests' }
  | { kind: 'cap'; cap: number | null }
  | { kind: 'advance'; seconds: number };

const pr = fc.constantFrom(...PRS);
const event: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        kind: fc.constant('submit' as const),
        pr,
        priority: fc.oneof(fc.constantFrom<Priority>('urgent', 'high', 'medium', 'low'), fc.integer({ min: 0, max: 255 })),
        noBatch: fc.boolean(),
      },
      { requiredKeys: ['kind', 'pr'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('cancel' as const, 'restart' as const), pr }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('outcome' as const), pr, outcome: fc.constantFrom('pass' as const, 'fail' as const, 'flaky' as const) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mergeable' as const), pr, mergeable: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('targets' as const), pr, targets: fc.oneof(fc.subarray(TARGETS), fc.constant('ALL' as const)) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('state' as const), state: fc.constantFrom('running' as const, 'paused' as const, 'draining' as const) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mode' as const), mode: fc.constantFrom('single' as const, 'parallel' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('batching' as const),
      batch: fc.boolean(),
      batchingMinSize: fc.integer({ min: 1, max: 4 }),
      batchingMaxWaitTimeMinutes: fc.integer({ min: 1, max: 10 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('failures' as const), canOptimisticallyMerge: fc.boolean(), pendingFailureDepth: fc.integer({ min: 1, max: 3 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('merging' as const),
      directMergeMode: fc.constantFrom('off' as const, 'always' as const),
      optimizationMode: fc.constantFrom('off' as const, 'bisection_skip_redundant_tests' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cap' as const), cap: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 900 }) }) },
);

const setup = fc.record({
  concurrency: fc.integer({ min: 1, max: 3 }),
  bisectionConcurrency: fc.integer({ min: 1, max: 3 }),
  mode: fc.constantFrom('single' as const, 'parallel' as const),
  batch: fc.boolean(),
  batchingMinSize: fc.integer({ min: 2, max: 4 }),
  graphSoftCap: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  durations: fc.array(fc.integer({ min: 60, max: 600 }), { minLength: PRS.length, maxLength: PRS.length }),
  outcomes: fc.array(fc.constantFrom('pass' as const, 'pass' as const, 'pass' as const, 'fail' as const, 'flaky' as const), {
    minLength: PRS.length,
    maxLength: PRS.length,
  }),
  targets: fc.array(fc.oneof(fc.subarray(TARGETS), fc.constant('ALL' as const)), { minLength: PRS.length, maxLength: PRS.length }),
});

type Setup = typeof setup extends fc.Arbitrary<infer T> ? T : never;

/** An event as the journal records it: the engine's operation and its inputs. */
function changeOf(e: Exclude<Event, { kind: 'advance' }>): Change {
  const settings = (change: QueueChange): Change => ({ op: 'updateQueue', input: { queue: MAIN, change } });
  switch (e.kind) {
    case 'submit': {
      const { kind: _kind, pr: number, ...options } = e;
      return { op: 'submitPullRequest', input: { queue: MAIN, pr: number, options } };
    }
    case 'cancel':
      return { op: 'cancelPullRequest', input: { queue: MAIN, pr: e.pr } };
    case 'restart':
      return { op: 'restartTestsOnPullRequest', input: { queue: MAIN, pr: e.pr } };
    case 'outcome':
      return { op: 'describePullRequest', input: { repo: REPO, number: e.pr, testOutcome: e.outcome } };
    case 'mergeable':
      return { op: 'describePullRequest', input: { repo: REPO, number: e.pr, mergeable: e.mergeable } };
    case 'targets':
      return { op: 'setImpactedTargets', input: { queue: MAIN, pr: e.pr, targets: e.targets } };
    case 'state':
      return settings({ state: e.state });
    case 'cap':
      return { op: 'setGraphSoftCap', input: { cap: e.cap } };
    case 'mode':
      return settings({ mode: e.mode });
    case 'batching':
    case 'failures':
    case 'merging': {
      const { kind: _kind, ...changes } = e;
      return settings(changes);
    }
  }
}

/** Applies an event through the journal's replay, the way a restarted sandbox would; answers the entry, or none if refused. */
function apply(engine: QueueEngine, e: Exclude<Event, { kind: 'advance' }>): JournalEntry | undefined {
  const entry = { at: engine.now.getTime(), ...changeOf(e) };
  try {
    replay(engine, entry);
    return entry;
  } catch (error) {
    if (error instanceof EngineRefusal) return undefined;
    throw error;
  }
}

/** The engine's state document: the invariants read what the engine holds, not only what it shows. */
function snapshot(engine: QueueEngine): SandboxState {
  return JSON.parse(engine.serialize()) as SandboxState;
}

function queueOf(state: SandboxState): QueueRecord {
  return Object.values(state.queues)[0]!;
}

function overlaps(a: string[] | 'ALL', b: string[] | 'ALL'): boolean {
  return a === 'ALL' || b === 'ALL' || a.some((target) => b.includes(target));
}

/** The PRs ahead of `id` in its lane, read independently of the engine: the transitive chain of overlaps. */
function laneAhead(state: Readonly<SandboxState>, line: readonly string[], id: string, parallel: boolean): string[] {
  const at = line.indexOf(id);
  if (!parallel) return line.slice(0, at);
  const targetsOf = (submissionId: string): string[] | 'ALL' => {
    const record = state.pullRequests[state.submissions[submissionId]!.pullRequestKey]!;
    return record.impactedTargets[record.sha] ?? 'ALL';
  };
  const met: (string[] | 'ALL')[] = [targetsOf(id)];
  const ahead: string[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const targets = targetsOf(line[i]!);
    if (met.some((other) => overlaps(other, targets))) {
      ahead.push(line[i]!);
      met.push(targets);
    }
  }
  return ahead;
}

/** Everything that must hold after any step, given the state before it. */
function checkStep(engine: QueueEngine, before: SandboxState, after: SandboxState): void {
  const queue = queueOf(after);
  const submissions = Object.values(after.submissions);

  // Running tests never exceed the concurrency; bisection runs count against bisectionConcurrency.
  const runs = queue.runsInFlight.map((id) => after.testRuns[id]!);
  expect(runs.filter((run) => run.queueType === 'main').length).toBeLessThanOrEqual(queue.settings.concurrency);
  expect(runs.filter((run) => run.queueType === 'bisection').length).toBeLessThanOrEqual(queue.settings.bisectionConcurrency);
  // A PR is testing exactly when a run in flight tests it.
  const underTest = new Set(runs.flatMap((run) => run.pullRequestIds));
  for (const submission of submissions) expect(submission.state === 'testing', `#${submission.number}`).toBe(underTest.has(submission.id));

  // No PR is lost: every open submission stands exactly once in the line, the bisection or the not_ready PRs,
  // and getQueue shows exactly those.
  const places = [...queue.line, ...queue.bisection.flatMap((group) => group.pullRequestIds), ...queue.waiting];
  expect(new Set(places).size).toBe(places.length);
  const open = submissions.filter((submission) => !FINAL_STATES.has(submission.state)).map((submission) => submission.id);
  expect(new Set(places)).toEqual(new Set(open));
  for (const id of queue.waiting) expect(after.submissions[id]!.state).toBe('not_ready');
  for (const [number, id] of Object.entries(queue.latestSubmission)) {
    for (const other of submissions) if (String(other.number) === number && other.id !== id) expect(FINAL_STATES.has(other.state)).toBe(true);
  }
  const shown = engine.getQueue(MAIN).enqueuedPullRequests.map((entry) => entry.id);
  expect(shown).toEqual(places.map((id) => entryIdOf(after.submissions[id]!)));

  // A final state is final.
  for (const was of Object.values(before.submissions)) {
    if (FINAL_STATES.has(was.state)) expect(pick(after.submissions[was.id]!)).toEqual(pick(was));
  }

  // v2's order places each PR of the line once: in a run, pending, or awaiting admission (pending, past the cap).
  const order = dispatchOrderOf(engine.world, MAIN);
  const awaiting = order.awaitingAdmission.map((ref) => ref.prNumber);
  const ordered = [
    ...order.batches.filter((batch) => !batch.isBisection).flatMap((batch) => batch.pullRequests),
    ...order.pending.map((item) => item.pullRequest),
  ];
  expect(awaiting.filter((number) => ordered.some((ref) => ref.prNumber === number))).toEqual([]);
  for (const number of awaiting) expect(submissions.find((s) => s.number === number && !FINAL_STATES.has(s.state))?.state).toBe('pending');
  expect(order.awaitingAdmissionTotal).toBe(awaiting.length);
  if (after.graphSoftCap === undefined) expect(awaiting).toEqual([]);

  // No PR merged before a PR ahead of it in its lane (the observer checked each merge as it happened).
  expect(violations.splice(0)).toEqual([]);
}

function pick(submission: Submission) {
  return { state: submission.state, stateChangedAt: submission.stateChangedAt, concludedAt: submission.concludedAt };
}

/** Moves time on instant by instant, checking after each. */
function advance(engine: QueueEngine, seconds: number): void {
  const target = engine.now.getTime() + seconds * 1000;
  for (;;) {
    const before = snapshot(engine);
    const next = engine.nextEventAt?.getTime();
    engine.tick(next !== undefined && next < target ? next : target);
    checkStep(engine, before, snapshot(engine));
    if (engine.now.getTime() >= target) return;
  }
}

/** Merges that went before a PR ahead of them in their lane, as the engine's observer saw them happen. */
const violations: string[] = [];

/**
 * At the instant a PR merges, no PR ahead of it in its lane may be left in the line (PRs merging at the same
 * instant go first). Lanes are read here from the line and the targets, independently of the engine.
 */
const checkMerge: TransitionObserver = ({ state, queue, submission, from }) => {
  // A run starts only for a PR the graph holds: one of the first graphSoftCap of the line.
  if (submission.state === 'testing' && !submission.inBisection && state.graphSoftCap !== undefined) {
    const at = queue.line.indexOf(submission.id);
    if (at >= state.graphSoftCap) violations.push(`#${submission.number} started testing at ${at + 1} of the line, past the cap of ${state.graphSoftCap}`);
  }
  if (submission.state !== 'merged') return;
  for (const ahead of laneAhead(state, queue.line, submission.id, queue.settings.mode === 'parallel')) {
    const other = state.submissions[ahead]!;
    if (other.state !== 'merged') violations.push(`#${submission.number} merged before #${other.number} (${other.state})`);
  }
  // Nor before a PR its test branch held that is still in the line: the lanes may have changed with the mode since.
  if (from !== 'tests_passed') return;
  for (const id of state.testRuns[submission.latestTestRunId!]!.basePullRequestIds) {
    const other = state.submissions[id]!;
    if (queue.line.includes(id) && other.state !== 'merged')
      violations.push(`#${submission.number} merged before #${other.number} (${other.state}), on its test branch`);
  }
};

/** A queue set up as `config` says, with PRs whose runs take various times and end variously. */
function prepare(config: Setup): QueueEngine {
  violations.length = 0;
  const engine = QueueEngine.create({ now: START, onTransition: checkMerge });
  const { concurrency, mode, bisectionConcurrency, batch, batchingMinSize } = config;
  engine.setGraphSoftCap(config.graphSoftCap);
  engine.createQueue(MAIN, { concurrency, mode });
  engine.updateQueue(MAIN, { bisectionConcurrency, batch, batchingMinSize });
  PRS.forEach((number, i) => {
    engine.describePullRequest({ repo: REPO, number, testDurationSeconds: config.durations[i]!, testOutcome: config.outcomes[i]! });
    engine.setImpactedTargets(MAIN, number, undefined, config.targets[i]!);
  });
  return engine;
}

/** Runs the events, checking after every step. */
function run(config: Setup, events: Event[]): QueueEngine {
  const engine = prepare(config);
  for (const e of events) {
    if (e.kind === 'advance') {
      advance(engine, e.seconds);
      continue;
    }
    const before = snapshot(engine);
    apply(engine, e);
    checkStep(engine, before, snapshot(engine));
  }
  return engine;
}

// Sized by runs, never by the clock: the time limit is generous, so that a loaded machine only makes them slower.
const PROPERTY_TIMEOUT_MS = 180_000;

describe('the engine under random events', () => {
  it('keeps its invariants after every step', { timeout: PROPERTY_TIMEOUT_MS }, () => {
    fc.assert(
      fc.property(setup, fc.array(event, { minLength: 10, maxLength: 60 }), (config, events) => {
        run(config, events);
      }),
      { numRuns: propertyRuns(50) },
    );
  });

  it('brings every submitted PR to exactly one final state once the queue runs and time passes', () => {
    fc.assert(
      fc.property(setup, fc.array(event, { minLength: 10, maxLength: 60 }), (config, events) => {
        const engine = run(config, events);
        const state = snapshot(engine);
        // Whatever happened, every PR becomes ready and the queue runs.
        engine.updateQueue(MAIN, { state: 'running' });
        for (const number of PRS) {
          engine.describePullRequest({ repo: REPO, number, mergeable: true, baseBranch: 'main' });
          const record = Object.values(state.pullRequests).find((candidate) => candidate.number === number);
          if (record && record.impactedTargets[record.sha] === undefined) engine.setImpactedTargets(MAIN, number, undefined, ['a']);
        }
        for (let day = 0; day < 30 && engine.getQueue(MAIN).enqueuedPullRequests.length > 0; day++) advance(engine, 24 * 3600);
        expect(engine.getQueue(MAIN).enqueuedPullRequests).toEqual([]);
        const submissions = Object.values(snapshot(engine).submissions);
        for (const submission of submissions) expect(['merged', 'failed', 'cancelled']).toContain(submission.state);
        const latest = queueOf(snapshot(engine)).latestSubmission;
        expect(Object.keys(latest).length).toBe(new Set(submissions.map((s) => s.number)).size);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('does not depend on how often the clock ticks', () => {
    fc.assert(
      fc.property(setup, fc.array(event, { minLength: 10, maxLength: 40 }), fc.integer({ min: 7, max: 120 }), (config, events, step) => {
        const coarse = run(config, events);
        const fine = prepare(config);
        for (const e of events) {
          if (e.kind !== 'advance') apply(fine, e);
          else for (let done = 0; done < e.seconds; done += step) fine.advance(Math.min(step, e.seconds - done));
        }
        expect(fine.serialize()).toBe(coarse.serialize());
      }),
      { numRuns: propertyRuns(30) },
    );
  });

  it('rebuilds the same state from a snapshot taken at any point and the journal after it', () => {
    fc.assert(
      fc.property(setup, fc.array(event, { minLength: 10, maxLength: 40 }), fc.nat(), (config, events, cut) => {
        const at = cut % (events.length + 1);
        const live = run(config, events.slice(0, at));
        const restored = QueueEngine.restore(live.serialize());
        const journal: JournalEntry[] = [];
        for (const e of events.slice(at)) {
          if (e.kind === 'advance') {
            live.advance(e.seconds);
            journal.push({ at: live.now.getTime(), op: 'tick' });
          } else {
            const entry = apply(live, e);
            if (entry) journal.push(entry);
          }
        }
        // Through JSON, as the journal file holds them.
        for (const entry of journal) replay(restored, JSON.parse(JSON.stringify(entry)) as JournalEntry);
        expect(restored.serialize()).toBe(live.serialize());
      }),
      { numRuns: propertyRuns(50) },
    );
  });
});
