// One queue, driven either through the engine directly or through a sandbox's HTTP face on a manual clock, so
// the same scenarios run against both. Refusals surface the same way: an error carrying the HTTP status.
import {
  CreateQueueRequest,
  ListPullRequestsRequest,
  ListPullRequestsResponse,
  Queue,
  ServedSubmitPullRequestRequest,
  SubmittedPullRequest,
  TestingDetails,
  UpdatedQueue,
  UpdateQueueRequest,
  type Priority,
  type Repo,
} from '../../src/api/v1/schemas.js';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import type { PullRequestDescription } from '../../src/sandbox/engine/types.js';
import { answerForError } from '../../src/sandbox/io/route.js';
import { queueChangeOf, submitOptionsOf } from '../../src/sandbox/io/v1/mutations.js';
import type { RunningSandbox } from '../../src/sandbox/io/server.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');

type Settings = Omit<UpdateQueueRequest, 'repo' | 'targetBranch'>;
type Facts = Omit<PullRequestDescription, 'repo' | 'number'>;
export type TestingQuery = { pr: number } | { testRunId: string };
export type ListQuery = Omit<ListPullRequestsRequest, 'repo' | 'targetBranch'>;

export interface QueueDriver {
  readonly repo: Repo;
  /** createQueue with mode and concurrency, then updateQueue with the other settings, as mq does. */
  createQueue(settings?: Settings): Promise<void>;
  updateQueue(settings: Settings): Promise<UpdatedQueue>;
  describe(number: number, facts: Facts): Promise<void>;
  submit(number: number, options?: { priority?: Priority; noBatch?: boolean }): Promise<void>;
  cancel(number: number): Promise<void>;
  restart(number: number): Promise<void>;
  setTargets(number: number, targets: string[] | 'ALL', sha?: string): Promise<void>;
  advance(seconds: number): Promise<void>;
  status(number: number): Promise<SubmittedPullRequest>;
  queue(): Promise<Queue>;
  testing(query: TestingQuery): Promise<TestingDetails>;
  list(query?: ListQuery): Promise<ListPullRequestsResponse>;
  metrics(): Promise<string>;
}

/** A refusal, from either face: the HTTP status and the message. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`${status}: ${message}`);
  }
}

/** Drives a queue through v1's operations, by name and body. */
abstract class Driver implements QueueDriver {
  abstract readonly repo: Repo;
  protected abstract call(operation: string, body: Record<string, unknown>): Promise<unknown>;
  abstract advance(seconds: number): Promise<void>;
  abstract describe(number: number, facts: Facts): Promise<void>;
  abstract metrics(): Promise<string>;
  /** The PR's head SHA as the sandbox knows it (a PR it has never seen gets one). */
  protected abstract headSha(number: number): Promise<string>;

  protected get ref() {
    return { repo: this.repo, targetBranch: 'main' };
  }

  async createQueue(settings: Settings = {}): Promise<void> {
    const { mode, concurrency, ...rest } = settings;
    const create: Omit<CreateQueueRequest, 'repo' | 'targetBranch'> = {};
    if (mode !== undefined) create.mode = mode;
    if (concurrency !== undefined) create.concurrency = concurrency;
    await this.call('createQueue', { ...this.ref, ...create });
    if (Object.keys(rest).length > 0) await this.updateQueue(rest);
  }
  async updateQueue(settings: Settings): Promise<UpdatedQueue> {
    return UpdatedQueue.parse(await this.call('updateQueue', { ...this.ref, ...settings }));
  }
  async submit(number: number, options: { priority?: Priority; noBatch?: boolean } = {}): Promise<void> {
    await this.call('submitPullRequest', { ...this.ref, pr: { number }, ...options });
  }
  async cancel(number: number): Promise<void> {
    await this.call('cancelPullRequest', { ...this.ref, pr: { number } });
  }
  async restart(number: number): Promise<void> {
    await this.call('restartTestsOnPullRequest', { ...this.ref, pr: { number } });
  }
  /** For `sha`, or else for the PR's head SHA, as a client uploads them. */
  async setTargets(number: number, impactedTargets: string[] | 'ALL', sha?: string): Promise<void> {
    await this.call('setImpactedTargets', { ...this.ref, pr: { number, sha: sha ?? (await this.headSha(number)) }, impactedTargets });
  }
  async status(number: number): Promise<SubmittedPullRequest> {
    return SubmittedPullRequest.parse(await this.call('getSubmittedPullRequest', { ...this.ref, pr: { number } }));
  }
  async queue(): Promise<Queue> {
    return Queue.parse(await this.call('getQueue', this.ref));
  }
  /** By run id, or as a client finds a PR's run: the one its record names (`verifiedByTestRun`). */
  async testing(query: TestingQuery): Promise<TestingDetails> {
    const testRunId = 'pr' in query ? (await this.status(query.pr)).verifiedByTestRun : query.testRunId;
    if (testRunId === null || testRunId === undefined) throw new Refused(404, `#${'pr' in query ? query.pr : ''} names no test run`);
    return TestingDetails.parse(await this.call('getMergeQueueTestingDetails', { ...this.ref, testRunId }));
  }
  async list(query: ListQuery = {}): Promise<ListPullRequestsResponse> {
    return ListPullRequestsResponse.parse(await this.call('listPullRequests', { ...this.ref, ...query }));
  }
}

/**
 * The engine itself, on its own manual clock, in its own terms (coordinates and values). Scenarios speak v1's
 * words (a state in capitals, as v1 takes it): they are read as the v1 face reads them, with its schemas and its
 * mapping onto the engine. The model answers are read with v1's response schemas, which they must pass as the v1
 * face sends them.
 */
export class EngineDriver implements QueueDriver {
  readonly repo: Repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
  private readonly ref = { repo: this.repo, targetBranch: 'main' };
  constructor(readonly engine: QueueEngine = QueueEngine.create({ now: START })) {}

  /** A refusal as the HTTP face would answer it. */
  private async ask<T>(operation: () => T): Promise<T> {
    try {
      return operation();
    } catch (error) {
      const answer = answerForError(error);
      if (answer.status === 500) throw error;
      throw new Refused(answer.status, answer.body);
    }
  }

  async createQueue(settings: Settings = {}): Promise<void> {
    const { mode, concurrency, ...rest } = settings;
    const create = CreateQueueRequest.parse({ ...this.ref, mode, concurrency });
    await this.ask(() =>
      this.engine.createQueue(this.ref, {
        ...(create.mode !== undefined && { mode: create.mode }),
        ...(create.concurrency !== undefined && { concurrency: create.concurrency }),
      }),
    );
    if (Object.keys(rest).length > 0) await this.updateQueue(rest);
  }
  async updateQueue(settings: Settings): Promise<UpdatedQueue> {
    const change = queueChangeOf(UpdateQueueRequest.parse({ ...this.ref, ...settings }));
    return UpdatedQueue.parse(await this.ask(() => this.engine.updateQueue(this.ref, change)));
  }
  async describe(number: number, facts: Facts): Promise<void> {
    this.engine.describePullRequest({ repo: this.repo, number, ...facts });
  }
  async submit(number: number, options: { priority?: Priority; noBatch?: boolean } = {}): Promise<void> {
    const body = ServedSubmitPullRequestRequest.parse({ ...this.ref, pr: { number }, ...options });
    await this.ask(() => this.engine.submitPullRequest(this.ref, number, submitOptionsOf(body)));
  }
  async cancel(number: number): Promise<void> {
    await this.ask(() => this.engine.cancelPullRequest(this.ref, number));
  }
  async restart(number: number): Promise<void> {
    await this.ask(() => this.engine.restartTestsOnPullRequest(this.ref, number));
  }
  /** For `sha`, or else for the PR's head SHA, as a client uploads them. */
  async setTargets(number: number, targets: string[] | 'ALL', sha?: string): Promise<void> {
    const head = sha ?? this.engine.describePullRequest({ repo: this.repo, number }).sha;
    await this.ask(() => this.engine.setImpactedTargets(this.ref, number, head, targets));
  }
  async advance(seconds: number): Promise<void> {
    this.engine.advance(seconds);
  }
  async status(number: number): Promise<SubmittedPullRequest> {
    return SubmittedPullRequest.parse(await this.ask(() => this.engine.getSubmittedPullRequest(this.ref, { number })));
  }
  async queue(): Promise<Queue> {
    return Queue.parse(await this.ask(() => this.engine.getQueue(this.ref)));
  }
  /** By run id, or as a client finds a PR's run: the one its record names (`verifiedByTestRun`). */
  async testing(query: TestingQuery): Promise<TestingDetails> {
    const testRunId = 'pr' in query ? (await this.status(query.pr)).verifiedByTestRun : query.testRunId;
    if (testRunId === null || testRunId === undefined) throw new Refused(404, `#${'pr' in query ? query.pr : ''} names no test run`);
    return TestingDetails.parse(await this.ask(() => this.engine.getMergeQueueTestingDetails(this.ref, testRunId)));
  }
  async list(query: ListQuery = {}): Promise<ListPullRequestsResponse> {
    const { repo: _repo, targetBranch: _branch, ...history } = ListPullRequestsRequest.parse({ ...this.ref, ...query });
    return ListPullRequestsResponse.parse(await this.ask(() => this.engine.listPullRequests(this.ref, history)));
  }
  async metrics(): Promise<string> {
    return this.engine.getMergeQueueMetrics({ repo: this.repo });
  }
}

let repoCounter = 0;

/** A sandbox over HTTP; each driver has a repository of its own, so scenarios share a sandbox, not a queue. */
export class HttpDriver extends Driver {
  readonly repo: Repo = { host: 'github.com', owner: 'acme', name: `scenario-${++repoCounter}` };
  constructor(private readonly sandbox: RunningSandbox) {
    super();
  }
  protected async call(operation: string, body: Record<string, unknown>): Promise<unknown> {
    const response = await fetch(`${this.sandbox.url}/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': 'scenario' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Refused(response.status, text);
    return JSON.parse(text) as unknown;
  }
  async advance(seconds: number): Promise<void> {
    await this.call('_sandbox/advance', { seconds });
  }
  async describe(number: number, facts: Facts): Promise<void> {
    await this.call('_sandbox/pullRequests', { repo: this.repo, number, ...facts });
  }
  protected async headSha(number: number): Promise<string> {
    return ((await this.call('_sandbox/pullRequests', { repo: this.repo, number })) as { sha: string }).sha;
  }
  async metrics(): Promise<string> {
    const query = `repo=${encodeURIComponent(`${this.repo.owner}/${this.repo.name}`)}&repoHost=${this.repo.host}`;
    const response = await fetch(`${this.sandbox.url}/getMergeQueueMetrics?${query}`, { headers: { 'x-api-token': 'scenario' } });
    if (!response.ok) throw new Refused(response.status, await response.text());
    return response.text();
  }
}

/**
 * Records the state of the PRs named after each step, one line a step: `advance 300 → 1:merged 2:testing`.
 * A PR never submitted reads `-`.
 */
export class Trace {
  readonly rows: string[] = [];
  constructor(
    private readonly q: QueueDriver,
    private readonly numbers: readonly number[],
  ) {}

  async step(label: string, action: () => Promise<unknown> = async () => undefined): Promise<void> {
    await action();
    const states = await Promise.all(
      this.numbers.map((number) =>
        this.q.status(number).then(
          (status) => status.state ?? '?',
          (error: unknown) => {
            if (error instanceof Refused && error.status === 404) return '-';
            throw error;
          },
        ),
      ),
    );
    this.rows.push(`${label} → ${this.numbers.map((number, i) => `${number}:${states[i]}`).join(' ')}`);
  }

  // The steps scenarios take most.
  submit(...numbers: number[]): Promise<void> {
    return this.step(`submit ${numbers.join(' ')}`, async () => {
      for (const number of numbers) await this.q.submit(number);
    });
  }
  advance(seconds: number): Promise<void> {
    return this.step(`advance ${seconds}`, () => this.q.advance(seconds));
  }
}
