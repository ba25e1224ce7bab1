// The engine's writes v2 needs, driven directly on a manual clock: refusals with their reason, PR and repository
// ids, direct submissions, changes to an entry, switching modes as a conversion, managedState, actors on the
// timeline; each new operation replayed from its journal entry, and a state file of version 5 with its journal.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChangeInputs, type ChangeOp, perform, replay } from '../../src/sandbox/engine/changes.js';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { queueEntryHistoryOf } from '../../src/sandbox/engine/history.js';
import { EngineRefusal } from '../../src/sandbox/engine/types.js';
import { pullRequestId, repositoryId } from '../../src/sandbox/engine/ids.js';
import { loadEngine } from '../../src/sandbox/io/persistence.js';
import { StateStore } from '../../src/sandbox/io/store.js';
import { queueOf } from '../../src/sandbox/engine/world.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const OTHER = { host: 'github.com', owner: 'acme', name: 'gadgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };
const ALICE = { trunkUserId: 'key-alice' };
const TERRAFORM = { terraform: true };
const BY_HAND = { terraform: false };

function setup(settings: { concurrency?: number; mode?: 'single' | 'parallel' } = {}) {
  const engine = QueueEngine.create({ now: START });
  engine.createQueue(MAIN, settings);
  const submit = (...numbers: number[]) => numbers.forEach((number) => engine.submitPullRequest(MAIN, number));
  const status = (number: number) => engine.getSubmittedPullRequest(MAIN, { number });
  const line = () => engine.getQueue(MAIN).enqueuedPullRequests.map((pr) => `${pr.prNumber}:${pr.state}`);
  const queue = () => engine.getQueue(MAIN);
  /** The PR's timeline steps as the state keeps them (v1's timeline does not show actors). */
  const steps = (number: number) => {
    const state = JSON.parse(engine.serialize());
    return state.submissions[status(number).id ?? ''].timeline as { state: string; actor?: { trunkUserId: string } }[];
  };
  return { engine, submit, status, line, queue, steps };
}

/** The refusal `act` throws, as kind and reason. */
function refusalOf(act: () => unknown): { kind: string; reason: string | undefined } {
  try {
    act();
  } catch (error) {
    if (error instanceof EngineRefusal) return { kind: error.kind, reason: error.reason };
    throw error;
  }
  throw new Error('not refused');
}

describe('refusals name their reason, with the kind v1 answers by', () => {
  it('at the engine’s existing refusals', () => {
    const { engine, submit, status } = setup();
    submit(1, 2);
    expect(refusalOf(() => engine.createQueue(MAIN))).toEqual({ kind: 'conflict', reason: 'queue_exists' });
    expect(refusalOf(() => engine.deleteQueue(MAIN))).toEqual({ kind: 'invalid', reason: 'queue_not_empty' });
    expect(refusalOf(() => engine.getQueue({ repo: REPO, targetBranch: 'nope' }))).toEqual({ kind: 'not_found', reason: 'queue_not_found' });
    expect(refusalOf(() => engine.queueWithId('nope'))).toEqual({ kind: 'not_found', reason: 'queue_not_found' });
    expect(refusalOf(() => engine.submitPullRequest(MAIN, 1))).toEqual({ kind: 'conflict', reason: 'already_enqueued' });
    expect(refusalOf(() => engine.cancelPullRequest(MAIN, 9))).toEqual({ kind: 'not_found', reason: 'not_active' });
    expect(refusalOf(() => engine.restartTestsOnPullRequest(MAIN, 2))).toEqual({ kind: 'invalid', reason: 'not_restartable' });
    expect(refusalOf(() => engine.getMergeQueueTestingDetails(MAIN, 'nope'))).toEqual({ kind: 'not_found', reason: 'run_not_found' });
    expect(refusalOf(() => engine.getSubmittedPullRequest(MAIN, { number: 9 }))).toEqual({ kind: 'not_found', reason: 'pr_not_found' });
    expect(refusalOf(() => engine.getSubmittedPullRequest(MAIN, { branch: 'nope' }))).toEqual({ kind: 'not_found', reason: 'pr_not_found' });
    engine.cancelPullRequest(MAIN, 2);
    expect(status(2).state).toBe('cancelled');
    expect(refusalOf(() => engine.cancelPullRequest(MAIN, 2))).toEqual({ kind: 'not_found', reason: 'not_active' });
    // A bad argument says it all by its kind.
    expect(refusalOf(() => engine.listPullRequests(MAIN, { cursor: 'x' }))).toEqual({ kind: 'invalid', reason: undefined });
  });
});

describe('pull request ids', () => {
  it('from coordinates, and back for the PRs the sandbox knows, in either case', () => {
    const { engine, submit } = setup();
    submit(3);
    engine.describePullRequest({ repo: OTHER, number: 8 });
    const id = pullRequestId(REPO, 3);
    expect(id).toBe(pullRequestId(REPO, 3));
    expect(engine.pullRequestWithId(id.toUpperCase())).toEqual({ repo: REPO, number: 3 });
    expect(engine.pullRequestWithId(pullRequestId(OTHER, 8))).toEqual({ repo: OTHER, number: 8 });
    // An id is derived without a record; only a PR the sandbox met is found by it.
    expect(refusalOf(() => engine.pullRequestWithId(pullRequestId(REPO, 4)))).toEqual({ kind: 'not_found', reason: 'pr_not_found' });
    submit(4);
    expect(engine.pullRequestWithId(pullRequestId(REPO, 4))).toEqual({ repo: REPO, number: 4 });
    expect(refusalOf(() => engine.pullRequestWithId('not-a-uuid'))).toEqual({ kind: 'not_found', reason: 'pr_not_found' });
  });
});

describe('known repositories', () => {
  it('are the ones a queue, a described PR or a submission named, found by id in either case, kept after their queue goes', () => {
    const engine = QueueEngine.create({ now: START });
    expect(engine.repositoryWithId(repositoryId(REPO))).toBeUndefined();
    engine.describePullRequest({ repo: OTHER, number: 1 });
    expect(engine.repositoryWithId(repositoryId(OTHER).toUpperCase())).toEqual(OTHER);
    engine.createQueue(MAIN);
    expect(engine.repositoryWithId(repositoryId(REPO))).toEqual(REPO);
    engine.deleteQueue(MAIN);
    expect(engine.repositoryWithId(repositoryId(REPO))).toEqual(REPO);
    expect(engine.repositoryWithId('__proto__')).toBeUndefined();
  });

  it('knowing one again changes nothing', () => {
    const engine = QueueEngine.create({ now: START });
    const tools = { ...REPO, name: 'tools' };
    expect(engine.knowRepository(tools)).toBe(repositoryId(tools));
    const revision = engine.revision;
    const before = engine.serialize();
    engine.knowRepository(tools);
    expect(engine.revision).toBe(revision);
    expect(engine.serialize()).toBe(before);
  });
});

describe('direct submissions', () => {
  it('are kept and read as v1’s forceEnqueued; an entry change sets or clears it', () => {
    const { engine, status } = setup();
    engine.submitPullRequest(MAIN, 1, { direct: true });
    engine.submitPullRequest(MAIN, 2);
    expect(status(1).forceEnqueued).toBe(true);
    expect(status(2).forceEnqueued).toBe(false);
    engine.updateQueueEntry(MAIN, 1, { direct: false });
    engine.updateQueueEntry(MAIN, 2, { direct: true });
    expect([status(1).forceEnqueued, status(2).forceEnqueued]).toEqual([false, true]);
  });
});

describe('updateQueueEntry', () => {
  it('a new priority of a not_ready entry places it by that priority once ready', () => {
    const { engine, submit, status, line } = setup();
    submit(1, 2, 3);
    engine.describePullRequest({ repo: REPO, number: 4, mergeable: false });
    submit(4);
    engine.updateQueueEntry(MAIN, 4, { priority: 'high' });
    expect(status(4)).toMatchObject({ state: 'not_ready', priorityName: 'high', priorityValue: 10 });
    expect(status(4).usedDefaultPriorityName).toBeUndefined();
    engine.describePullRequest({ repo: REPO, number: 4, mergeable: true });
    expect(line()).toEqual(['1:testing', '4:pending', '2:pending', '3:pending']);
  });

  it('raising an entry standing in the line restarts nothing and does not move it', () => {
    const { engine, submit, status, line } = setup();
    submit(1, 2, 3);
    const run = status(1).verifiedByTestRun;
    engine.updateQueueEntry(MAIN, 3, { priority: 0 });
    expect(status(3)).toMatchObject({ priorityName: 'urgent', priorityValue: 0, skipTheLine: true });
    expect(line()).toEqual(['1:testing', '2:pending', '3:pending']);
    expect(status(1).verifiedByTestRun).toBe(run);
    // A number with a name takes the name, as on submit.
    engine.updateQueueEntry(MAIN, 2, { priority: 200 });
    expect(status(2)).toMatchObject({ priorityName: 'low', priorityValue: 200 });
  });

  it('keeps noBatch, which a batch formed afterwards respects', () => {
    const { engine, submit, status, queue } = setup();
    engine.updateQueue(MAIN, { batch: true, batchingMinSize: 2 });
    submit(1);
    expect(status(1).state).toBe('pending');
    engine.updateQueueEntry(MAIN, 1, { noBatch: true });
    expect(status(1)).toMatchObject({ noBatch: true, state: 'testing' });
    expect(queue().enqueuedPullRequests[0]?.noBatch).toBe(true);
  });

  it('is refused for an entry not in the queue, and without a change', () => {
    const { engine, submit } = setup();
    submit(1);
    expect(refusalOf(() => engine.updateQueueEntry(MAIN, 1, {}))).toEqual({ kind: 'invalid', reason: undefined });
    expect(refusalOf(() => engine.updateQueueEntry(MAIN, 2, { priority: 'high' }))).toEqual({ kind: 'conflict', reason: 'not_active' });
    engine.cancelPullRequest(MAIN, 1);
    expect(refusalOf(() => engine.updateQueueEntry(MAIN, 1, { priority: 'high' }))).toEqual({ kind: 'conflict', reason: 'not_active' });
    expect(refusalOf(() => engine.updateQueueEntry({ repo: REPO, targetBranch: 'nope' }, 1, { noBatch: true }))).toEqual({
      kind: 'not_found',
      reason: 'queue_not_found',
    });
  });
});

describe('switchModes', () => {
  it('converts once the runs in flight are done: nothing new starts meanwhile, then the new mode, back to running', () => {
    const { engine, submit, status, queue } = setup({ concurrency: 2 });
    submit(1);
    expect(status(1).state).toBe('testing');
    expect(engine.switchModes(MAIN, 'parallel')).toMatchObject({ state: 'switching_modes', mode: 'single' });
    submit(2);
    expect(status(2).state).toBe('not_ready');
    expect(refusalOf(() => engine.updateQueue(MAIN, { concurrency: 3 }))).toEqual({ kind: 'conflict', reason: 'mode_change_in_progress' });
    expect(refusalOf(() => engine.updateQueue(MAIN, { mode: 'single' }))).toEqual({ kind: 'conflict', reason: 'mode_change_in_progress' });
    expect(refusalOf(() => engine.switchModes(MAIN, 'single'))).toEqual({ kind: 'conflict', reason: 'mode_change_in_progress' });
    expect(engine.nextEventAt).toEqual(new Date(START + 300_000));
    engine.advance(299);
    expect(queue()).toMatchObject({ state: 'switching_modes', mode: 'single' });
    engine.advance(1);
    expect(queue()).toMatchObject({ state: 'running', mode: 'parallel', concurrency: 2 });
    expect(status(1).state).toBe('merged');
    // Parallel mode waits for impacted targets: #2 is still not ready, by the new mode's rule.
    expect(status(2).state).toBe('not_ready');
    engine.setImpactedTargets(MAIN, 2, undefined, ['a']);
    expect(status(2).state).toBe('testing');
  });

  it('the same mode changes nothing; a queue with no run in flight converts at once', () => {
    const { engine, submit, queue } = setup();
    const before = engine.serialize();
    expect(engine.switchModes(MAIN, 'single')).toMatchObject({ state: 'running', mode: 'single' });
    expect(engine.serialize()).toBe(before);
    engine.updateQueue(MAIN, { state: 'paused' });
    submit(1);
    expect(engine.switchModes(MAIN, 'parallel')).toMatchObject({ state: 'paused', mode: 'parallel' });
    // A paused queue admits but starts nothing: #1 stands in the line as it did.
    expect(queue().enqueuedPullRequests.map((pr) => `${pr.prNumber}:${pr.state}`)).toEqual(['1:pending']);
  });

  it('returns to the state it left, or to the one asked for meanwhile; a paused queue merges nothing while converting', () => {
    const { engine, submit, status, queue } = setup();
    submit(1);
    engine.updateQueue(MAIN, { state: 'paused' });
    engine.switchModes(MAIN, 'parallel');
    engine.advance(300);
    expect(queue()).toMatchObject({ state: 'paused', mode: 'parallel' });
    expect(status(1).state).toBe('tests_passed');

    const other = setup();
    other.submit(1);
    other.engine.switchModes(MAIN, 'parallel');
    // A change of state is no setting: it is where the conversion ends.
    expect(other.engine.updateQueue(MAIN, { state: 'draining' })).toMatchObject({ state: 'switching_modes' });
    other.engine.advance(300);
    expect(other.queue()).toMatchObject({ state: 'draining', mode: 'parallel' });
  });

  it('leaves v1’s mode change as it was: the mode at once, switching until the runs are done, settings still taken', () => {
    const { engine, submit, queue } = setup();
    submit(1);
    expect(engine.updateQueue(MAIN, { mode: 'parallel' })).toMatchObject({ state: 'switching_modes', mode: 'parallel' });
    expect(engine.updateQueue(MAIN, { concurrency: 2 })).toMatchObject({ state: 'switching_modes', concurrency: 2 });
    // v2's switch waits for v1's to finish.
    expect(refusalOf(() => engine.switchModes(MAIN, 'single'))).toEqual({ kind: 'conflict', reason: 'mode_change_in_progress' });
    engine.advance(300);
    expect(queue()).toMatchObject({ state: 'running', mode: 'parallel' });
  });
});

describe('managedState', () => {
  it('Terraform’s write makes the queue Terraform’s, anyone else’s after it is drift, a manual queue stays manual', () => {
    const engine = QueueEngine.create({ now: START });
    engine.createQueue(MAIN, {}, TERRAFORM);
    expect(queueOf(engine.world, MAIN).managedState).toBe('terraform');
    engine.updateQueue(MAIN, { state: 'paused' });
    expect(queueOf(engine.world, MAIN).managedState).toBe('terraformWithDrift');
    engine.updateQueue(MAIN, { concurrency: 2 }, TERRAFORM);
    expect(queueOf(engine.world, MAIN).managedState).toBe('terraform');
    engine.switchModes(MAIN, 'parallel', BY_HAND);
    expect(queueOf(engine.world, MAIN).managedState).toBe('terraformWithDrift');

    const release = { repo: REPO, targetBranch: 'release' };
    engine.createQueue(release);
    engine.updateQueue(release, { concurrency: 3 }, BY_HAND);
    engine.switchModes(release, 'parallel');
    expect(queueOf(engine.world, release).managedState).toBe('manual');
    // Refused writes write nothing.
    engine.createQueue({ repo: REPO, targetBranch: 'x' });
    expect(() => engine.createQueue({ repo: REPO, targetBranch: 'x' }, {}, TERRAFORM)).toThrow(EngineRefusal);
    expect(queueOf(engine.world, { repo: REPO, targetBranch: 'x' }).managedState).toBe('manual');
  });

  it('is not on the Queue view, which v1 answers as it is', () => {
    const engine = QueueEngine.create({ now: START });
    engine.createQueue(MAIN, {}, TERRAFORM);
    expect(engine.getQueue(MAIN)).not.toHaveProperty('managedState');
  });
});

describe('actors', () => {
  it('on the timeline step a write caused, not on the steps the engine takes by itself', () => {
    const { engine, steps, status } = setup();
    engine.submitPullRequest(MAIN, 1, {}, ALICE);
    engine.submitPullRequest(MAIN, 2, {}, ALICE);
    expect(steps(1)).toEqual([
      expect.objectContaining({ state: 'not_ready', actor: ALICE }),
      expect.not.objectContaining({ actor: expect.anything() }),
      expect.not.objectContaining({ actor: expect.anything() }),
    ]);
    engine.restartTestsOnPullRequest(MAIN, 1, { trunkUserId: 'key-bob' });
    // Back to pending by the restart, then testing again by the engine.
    expect(steps(1).slice(-2)).toEqual([
      expect.objectContaining({ state: 'pending', actor: { trunkUserId: 'key-bob' } }),
      expect.not.objectContaining({ actor: expect.anything() }),
    ]);
    engine.cancelPullRequest(MAIN, 2, ALICE);
    expect(steps(2).at(-1)).toEqual(expect.objectContaining({ state: 'cancelled', actor: ALICE }));
    engine.cancelPullRequest(MAIN, 1);
    expect(steps(1).at(-1)).not.toHaveProperty('actor');
    // v1's timeline has no actor; v2's history has it on the transition the write caused.
    expect(engine.getSubmittedPullRequest(MAIN, { number: 2 }, { timeline: true }).timeline?.[0]).not.toHaveProperty('actor');
    expect(queueEntryHistoryOf(engine.world, MAIN.repo, 2).map((transition) => [transition.state, transition.actor])).toEqual([
      ['not_ready', ALICE],
      ['pending', null],
      ['cancelled', ALICE],
    ]);
    expect(status(2).state).toBe('cancelled');
  });
});

describe('the journal', () => {
  it('replays every new operation, and the new inputs of the old ones, to the same state', () => {
    const engine = QueueEngine.create({ now: START });
    const journal: { at: number; op: string; input: unknown }[] = [];
    const record = <K extends ChangeOp>(op: K, input: ChangeInputs[K]) => {
      const { change } = perform(engine, op, input);
      // Through JSON, as the journal file keeps it.
      journal.push(JSON.parse(JSON.stringify({ at: engine.now.getTime(), ...change })));
    };
    record('createQueue', { queue: MAIN, settings: { concurrency: 2 }, writer: TERRAFORM });
    record('knowRepository', { repo: OTHER });
    record('describePullRequest', { repo: REPO, number: 3, mergeable: false });
    record('submitPullRequest', { queue: MAIN, pr: 1, options: { direct: true }, actor: ALICE });
    record('submitPullRequest', { queue: MAIN, pr: 2, options: { priority: 'low' } });
    record('submitPullRequest', { queue: MAIN, pr: 3, options: {} });
    record('updateQueueEntry', { queue: MAIN, pr: 3, change: { priority: 'urgent', noBatch: true, direct: true }, actor: ALICE });
    engine.advance(60);
    record('restartTestsOnPullRequest', { queue: MAIN, pr: 1, actor: ALICE });
    record('switchModes', { queue: MAIN, mode: 'parallel', writer: BY_HAND });
    record('updateQueue', { queue: MAIN, change: { state: 'draining' }, writer: TERRAFORM });
    engine.advance(400);
    record('cancelPullRequest', { queue: MAIN, pr: 3, actor: ALICE });
    engine.advance(10);

    const again = QueueEngine.create({ now: START });
    for (const entry of journal) replay(again, entry);
    again.tick(engine.now);
    expect(again.serialize()).toBe(engine.serialize());
    expect(queueOf(again.world, MAIN).managedState).toBe('terraform');
    expect(again.getQueue(MAIN)).toMatchObject({ state: 'draining', mode: 'parallel' });
    expect(again.repositoryWithId(repositoryId(OTHER))).toEqual(OTHER);

    // And a restart from the snapshot goes on as the engine did.
    const restored = QueueEngine.restore(engine.serialize());
    restored.advance(600);
    engine.advance(600);
    expect(restored.serialize()).toBe(engine.serialize());
  });

  it('refuses a new operation’s entry whose input is not the engine’s', () => {
    const engine = QueueEngine.create({ now: START });
    engine.createQueue(MAIN);
    expect(() => replay(engine, { at: START, op: 'switchModes', input: { queue: MAIN, mode: 'graph' } })).toThrow();
    expect(() => replay(engine, { at: START, op: 'updateQueueEntry', input: { queue: MAIN, pr: 1, change: {}, actor: { trunkUserId: '' } } })).toThrow();
    expect(() => replay(engine, { at: START, op: 'knowRepository', input: { repo: { host: 'github.com' } } })).toThrow();
  });
});

describe('a state file written by version 5', () => {
  /** fixtures/state-v5.json (a v1 switch of modes under way) and its journal of engine operations, by that sandbox. */
  function stateFileV5(): string {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'mq-v5-')), 'state.json');
    const fixtures = new URL('./fixtures/', import.meta.url);
    copyFileSync(new URL('state-v5.json', fixtures), stateFile);
    copyFileSync(new URL('state-v5.json.journal', fixtures), `${stateFile}.journal`);
    return stateFile;
  }

  it('loads with its journal, knows the repositories it named, every queue manual', () => {
    const engine = loadEngine(new StateStore(stateFileV5()), { fresh: { now: 0 } });
    expect(engine.restoredFromVersion).toBe(5);
    expect(JSON.parse(engine.serialize())).toMatchObject({ version: 7 });
    // Cancelling #3 ended v1's switch: running, in the mode it set when asked.
    expect(engine.getQueue(MAIN)).toMatchObject({ state: 'running', mode: 'parallel', concurrency: 2 });
    expect(engine.getQueue(MAIN).enqueuedPullRequests.map((pr) => [pr.prNumber, pr.state, pr.priorityName])).toEqual([[4, 'not_ready', 'low']]);
    expect(engine.getSubmittedPullRequest(MAIN, { number: 1 })).toMatchObject({ state: 'merged', forceEnqueued: false });
    // From the snapshot's queue and PR records (gadgets has only a PR), and the journal's createQueue (tools).
    for (const repo of [REPO, OTHER, { ...REPO, name: 'tools' }]) expect(engine.repositoryWithId(repositoryId(repo))).toEqual(repo);
    expect(engine.pullRequestWithId(pullRequestId(OTHER, 7))).toEqual({ repo: OTHER, number: 7 });
    expect(queueOf(engine.world, MAIN).managedState).toBe('manual');
    expect(queueOf(engine.world, { repo: { ...REPO, name: 'tools' }, targetBranch: 'main' }).managedState).toBe('manual');
    // And the new writes go on from it.
    engine.updateQueueEntry(MAIN, 4, { priority: 'high' }, ALICE);
    engine.switchModes(MAIN, 'single', TERRAFORM);
    expect(engine.getQueue(MAIN)).toMatchObject({ state: 'running', mode: 'single' });
    expect(queueOf(engine.world, MAIN).managedState).toBe('terraform');
  });

  it('the snapshot alone migrates to the same repositories', () => {
    const engine = QueueEngine.restore(JSON.stringify({ ...JSON.parse(new StateStore(stateFileV5()).load().snapshot ?? '{}') }));
    const state = JSON.parse(engine.serialize());
    expect(Object.values(state.repositories)).toEqual(expect.arrayContaining([REPO, OTHER]));
    expect(Object.keys(state.repositories).sort()).toEqual([repositoryId(REPO), repositoryId(OTHER)].sort());
    expect(Object.values<{ managedState: string }>(state.queues).map((queue) => queue.managedState)).toEqual(['manual']);
  });
});
