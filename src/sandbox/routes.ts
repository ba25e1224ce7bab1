// The sandbox's routes: each v1 operation with the schema its request must pass and the engine call it makes,
// the metrics GET, and the two control routes. Statuses live here; sockets live in server.ts.
import { z } from 'zod';
import {
  API_VERSION,
  CreateQueueRequest,
  describeIssues,
  GetMergeQueueTestingDetailsRequest,
  GetSubmittedPullRequestRequest,
  GetTestDetailsRequest,
  ListPullRequestsRequest,
  PullRequestRequest,
  QueueRequest,
  SetImpactedTargetsRequest,
  SubmitPullRequestRequest,
  UpdateQueueRequest,
} from '../api/schemas.js';
import type { SandboxClock } from './clock.js';
import { EngineRefusal, type QueueEngine, type RefusalKind } from './engine.js';
import { PullRequestDescription } from './facts.js';
import { errorAnswer, jsonAnswer, type Answer } from './http.js';
import { METRICS_CONTENT_TYPE } from './metrics.js';

export interface RouteContext {
  engine: QueueEngine;
  clock: SandboxClock;
  query: URLSearchParams;
  /** The request body as text (empty for GET). */
  body: string;
}

export interface Route {
  method: 'GET' | 'POST';
  /** Moves the clock: the answer waits for the state file even when nothing else changed. */
  movesClock?: boolean;
  handle(context: RouteContext): Answer;
}

/** The body of `POST /_sandbox/advance`. */
export const AdvanceRequest = z.object({ seconds: z.number().min(0) });

const REFUSAL_STATUS: Record<RefusalKind, number> = { invalid: 400, not_found: 404, conflict: 409 };

/** A POST operation: JSON body, validated against its schema, answered with the engine's result or `{}`. */
function operation<S extends z.ZodType>(schema: S, run: (context: RouteContext, input: z.output<S>) => unknown, extra: Partial<Route> = {}): Route {
  return {
    method: 'POST',
    ...extra,
    handle: (context) => {
      let json: unknown;
      try {
        if (context.body.trim() === '') return errorAnswer(400, 'malformed JSON: the request body is empty');
        json = JSON.parse(context.body);
      } catch (error) {
        return errorAnswer(400, `malformed JSON: ${(error as Error).message}`);
      }
      const checked = schema.safeParse(json);
      if (!checked.success) return errorAnswer(400, `invalid request: ${describeIssues(checked.error)}`);
      return jsonAnswer(run(context, checked.data) ?? {});
    },
  };
}

const getMergeQueueMetrics: Route = {
  method: 'GET',
  handle: ({ engine, query }) => {
    const repo = query.get('repo');
    const repoHost = query.get('repoHost');
    if (repo === null && repoHost === null) return metricsAnswer(engine.getMergeQueueMetrics());
    if (repoHost === null || repoHost === '') return errorAnswer(400, 'repoHost: required when repo is given');
    if (repo === null) return errorAnswer(400, 'repo: required when repoHost is given');
    const parts = /^([^/\s]+)\/([^/\s]+)$/.exec(repo);
    if (!parts) return errorAnswer(400, `repo: give the repository as owner/name, not "${repo}"`);
    return metricsAnswer(engine.getMergeQueueMetrics({ repo: { host: repoHost, owner: parts[1]!, name: parts[2]! } }));
  },
};

function metricsAnswer(text: string): Answer {
  return { status: 200, contentType: METRICS_CONTENT_TYPE, body: text };
}

const OPERATIONS: Record<string, Route> = {
  submitPullRequest: operation(SubmitPullRequestRequest, ({ engine }, input) => engine.submitPullRequest(input)),
  cancelPullRequest: operation(PullRequestRequest, ({ engine }, input) => engine.cancelPullRequest(input)),
  restartTestsOnPullRequest: operation(PullRequestRequest, ({ engine }, input) => engine.restartTestsOnPullRequest(input)),
  getSubmittedPullRequest: operation(GetSubmittedPullRequestRequest, ({ engine }, input) => engine.getSubmittedPullRequest(input)),
  listPullRequests: operation(ListPullRequestsRequest, ({ engine }, input) => engine.listPullRequests(input)),
  getQueue: operation(QueueRequest, ({ engine }, input) => engine.getQueue(input)),
  createQueue: operation(CreateQueueRequest, ({ engine }, input) => engine.createQueue(input)),
  updateQueue: operation(UpdateQueueRequest, ({ engine }, input) => engine.updateQueue(input)),
  deleteQueue: operation(QueueRequest, ({ engine }, input) => engine.deleteQueue(input)),
  setImpactedTargets: operation(SetImpactedTargetsRequest, ({ engine }, input) => engine.setImpactedTargets(input)),
  getMergeQueueTestingDetails: operation(GetMergeQueueTestingDetailsRequest, ({ engine }, input) =>
    engine.getMergeQueueTestingDetails(input),
  ),
  'flaky-tests/get-test-details': operation(GetTestDetailsRequest, ({ engine }, input) => engine.getTestDetails(input)),
  getMergeQueueMetrics,
};

const CONTROLS: Record<string, Route> = {
  advance: operation(
    AdvanceRequest,
    ({ engine, clock }, input) => {
      clock.advance(input.seconds);
      engine.tick(clock.now());
      return { now: engine.now.toISOString() };
    },
    { movesClock: true },
  ),
  pullRequests: operation(PullRequestDescription, ({ engine }, input) => engine.describePullRequest(input)),
};

const ROUTES = new Map<string, Route>();
for (const [name, route] of Object.entries(OPERATIONS)) ROUTES.set(`/${API_VERSION}/${name}`, route);
for (const [name, route] of Object.entries(CONTROLS)) {
  ROUTES.set(`/${API_VERSION}/_sandbox/${name}`, route);
  ROUTES.set(`/_sandbox/${name}`, route);
}

export function findRoute(pathname: string): Route | undefined {
  return ROUTES.get(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}

/** A refusal from the engine as its status; anything else is the sandbox's own bug, a 500. */
export function answerForError(error: unknown): Answer {
  if (error instanceof EngineRefusal) return errorAnswer(REFUSAL_STATUS[error.kind], error.message);
  return errorAnswer(500, `sandbox error: ${error instanceof Error ? error.message : String(error)}`);
}
