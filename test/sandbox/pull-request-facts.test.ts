// The engine's read-only answers about PRs and queues the v2 face needs: a PR's host facts by
// coordinates, a repository's PRs, a queue's creation time, a PR's first submission. Each is a copy, and none
// changes the state.
import { expect, it } from 'vitest';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { replay } from '../../src/sandbox/engine/changes.js';
import { EngineRefusal } from '../../src/sandbox/engine/types.js';
import { queueOf } from '../../src/sandbox/engine/world.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const OTHER = { host: 'github.com', owner: 'acme', name: 'gadgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };

it('answers facts, PRs, creation and first submission without changing the state', () => {
  const engine = QueueEngine.create({ now: START });
  engine.describePullRequest({ repo: REPO, number: 9, title: 'Nine', author: 'ada', headBranch: 'ada/nine', state: 'draft' });
  engine.describePullRequest({ repo: OTHER, number: 1 });
  engine.advance(60);
  engine.createQueue(MAIN);
  engine.advance(60);
  engine.submitPullRequest(MAIN, 4);
  engine.cancelPullRequest(MAIN, 4);
  engine.advance(60);
  engine.submitPullRequest(MAIN, 4);
  const revision = engine.revision;
  const document = engine.serialize();

  expect(engine.pullRequestFacts(REPO, 9)).toMatchObject({ title: 'Nine', author: 'ada', headBranch: 'ada/nine', state: 'draft' });
  expect(engine.pullRequestFacts(REPO, 4)).toMatchObject({ title: 'PR #4', baseBranch: 'main', state: 'open' });
  expect(engine.pullRequestFacts(REPO, 5)).toBeUndefined();
  expect(engine.pullRequestsOfRepository(REPO).map((facts) => facts.number)).toEqual([4, 9]);
  expect(queueOf(engine.world, MAIN).createdAt).toBe(START + 60_000);
  expect(engine.firstSubmittedAt(REPO, 4)).toBe(START + 120_000);
  expect(engine.firstSubmittedAt(REPO, 9)).toBeUndefined();
  expect(() => queueOf(engine.world, { repo: REPO, targetBranch: 'next' }).createdAt).toThrow(EngineRefusal);

  // Copies: changing an answer changes nothing in the engine.
  const facts = engine.pullRequestFacts(REPO, 9)!;
  facts.title = 'changed';
  facts.repo.name = 'changed';
  expect(engine.pullRequestFacts(REPO, 9)?.title).toBe('Nine');
  expect(engine.revision).toBe(revision);
  expect(engine.serialize()).toBe(document);
});

it("refuses a closed PR's new base, yet replays one an older sandbox's journal recorded", () => {
  const engine = QueueEngine.create({ now: START });
  engine.describePullRequest({ repo: REPO, number: 3, baseBranch: 'main', state: 'closed' });
  const revision = engine.revision;
  expect(() => engine.describePullRequest({ repo: REPO, number: 3, baseBranch: 'release' })).toThrow(
    new EngineRefusal('unprocessable', 'baseBranch: cannot change the base branch of a closed pull request (#3 is closed, based on main)'),
  );
  expect(engine.revision).toBe(revision);
  replay(engine, { at: START, op: 'describePullRequest', input: { repo: REPO, number: 3, baseBranch: 'release' } });
  expect(engine.pullRequestFacts(REPO, 3)?.baseBranch).toBe('release');
});
