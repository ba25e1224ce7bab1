// The sandbox's routes: each v1 operation with the schema its request must pass and the engine call it makes,
// the metrics GET, and the two control routes. The operations that change the state come from the engine's table
// (engine/changes.ts), which the journal's replay uses too. Statuses live here; sockets live in server.ts.
import * as z from 'zod';
import {
  API_VERSION,
  describeIssues,
  GetMergeQueueTestingDetailsRequest,
  GetSubmittedPullRequestRequest,
  GetTestDetailsRequest,
  ListFailingTestsRequest,
  ListPullRequestsRequest,
  ListQuarantinedTestsRequest,
  ListUnhealthyTestsRequest,
  QueueRequest,
  type SetImpactedTargetsRequest,
} from '../../api/v1/schemas.js';
import { CHANGES, TIME_PASSED, type Change } from '../engine/changes.js';
import { checkAdvance, EngineRefusal, type QueueEngine, type RefusalKind } from '../engine/engine.js';
import { METRICS_CONTENT_TYPE } from '../engine/metrics.js';
import { refuseBodyShape } from './body.js';
import type { SandboxClock } from './clock.js';
import { errorAnswer, jsonAnswer, type Answer } from './http.js';

export interface RouteContext {
  engine: QueueEngine;
  clock: SandboxClock;
  query: URLSearchParams;
  /** The request body as text (empty for GET). */
  body: string;
  /** A fork's upload: the `x-forked-workflow-run-id` it came with instead of a token. */
  forkedRunId?: string;
}

export interface Handled {
  answer: Answer;
  /** Set when the request changed the state: the answer waits until the change is on disk. */
  change?: Change;
}

export interface Route {
  method: 'GET' | 'POST';
  /** A read: its answer depends on its body and the state alone, so it may be kept until the state changes. */
  isRead?: boolean;
  /** Whether a fork's upload may call it without a token (only setImpactedTargets, as on the service). */
  forkUploads?: boolean;
  /** Answered without a token, as the service answers `/status`: no token is checked, not even a wrong one. */
  anonymous?: boolean;
  handle(context: RouteContext): Handled;
}

/** The body of `POST /_sandbox/advance`. */
export const AdvanceRequest = z.object({ seconds: z.number().min(0) });

const REFUSAL_STATUS: Record<RefusalKind, number> = { invalid: 400, not_found: 404, conflict: 409 };

/** The body as JSON, validated against the schema; or the 400 that says why not. */
function parse<S extends z.ZodType>(schema: S, body: string): { input: z.output<S> } | { answer: Answer } {
  let json: unknown;
  try {
    if (body.trim() === '') return { answer: errorAnswer(400, 'malformed JSON: the request body is empty') };
    const lists = stringListsOf(schema);
    const refused = refuseBodyShape(body, lists);
    if (refused) return { answer: errorAnswer(400, `invalid request: ${refused}`) };
    json = JSON.parse(body);
    // A list whose name the text spells with escapes is only known once parsed.
    const badElement = firstBadListElement(lists, json);
    if (badElement) return { answer: errorAnswer(400, `invalid request: ${badElement}`) };
  } catch (error) {
    return { answer: errorAnswer(400, `malformed JSON: ${(error as Error).message}`) };
  }
  const checked = schema.safeParse(json);
  if (!checked.success) return { answer: errorAnswer(400, `invalid request: ${describeFirstIssues(checked.error)}`) };
  return { input: checked.data };
}

const ISSUES_SHOWN = 5;

/** The first few issues; the answer says how many more there are rather than listing them all. */
function describeFirstIssues(error: z.ZodError): string {
  const { issues } = error;
  if (issues.length <= ISSUES_SHOWN) return describeIssues(error);
  return `${describeIssues(new z.ZodError(issues.slice(0, ISSUES_SHOWN)))}; and ${issues.length - ISSUES_SHOWN} more`;
}

/**
 * The lists of strings a request takes (impactedTargets, requiredStatuses) are checked before zod sees them,
 * stopping at the first element that is not a string: zod would make one issue per bad element, and a 20 MiB
 * body holds ten million of them. After this, zod meets at most a handful of issues.
 */
function firstBadListElement(lists: ReadonlySet<string>, json: unknown): string | undefined {
  if (lists.size === 0 || typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  for (const field of lists) {
    const value = Object.hasOwn(json, field) ? (json as Record<string, unknown>)[field] : undefined;
    if (!Array.isArray(value)) continue;
    for (let i = 0; i < value.length; i++) {
      const element: unknown = value[i];
      if (typeof element !== 'string') return `${field}[${i}]: expected a string, received ${jsonTypeOf(element)}`;
    }
  }
  return undefined;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

const stringListFields = new WeakMap<z.ZodType, ReadonlySet<string>>();

/** The top-level fields of a request schema that take a list of strings (in any branch of a union). */
function stringListsOf(schema: z.ZodType): ReadonlySet<string> {
  let fields = stringListFields.get(schema);
  if (!fields) {
    const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
    fields = new Set(Object.keys(shape).filter((key) => takesStringList(shape[key]!)));
    stringListFields.set(schema, fields);
  }
  return fields;
}

function takesStringList(schema: z.ZodType): boolean {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return takesStringList(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return takesStringList(schema.in as z.ZodType);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).some(takesStringList);
  return schema instanceof z.ZodArray && schema.element instanceof z.ZodString;
}

type Authorize<S extends z.ZodType> = (context: RouteContext, input: z.output<S>) => Answer | undefined;

/**
 * A POST operation, answered with the engine's result (or `{}`); journaled under `op` when it changes the state.
 * `authorize` may refuse a request the token check let through on conditions of its body.
 */
function operation<S extends z.ZodType>(schema: S, apply: (engine: QueueEngine, input: z.output<S>) => unknown, op?: string, authorize?: Authorize<S>): Route {
  return {
    method: 'POST',
    isRead: op === undefined,
    forkUploads: authorize !== undefined,
    handle: (context) => {
      const { engine, body } = context;
      const parsed = parse(schema, body);
      if ('answer' in parsed) return parsed;
      const refused = authorize?.(context, parsed.input);
      if (refused) return { answer: refused };
      const answer = jsonAnswer(apply(engine, parsed.input) ?? {});
      return op === undefined ? { answer } : { answer, change: { op, input: parsed.input } };
    },
  };
}

const query = <S extends z.ZodType>(schema: S, apply: (engine: QueueEngine, input: z.output<S>) => unknown): Route => operation(schema, apply);

function mutation(op: string, authorize?: Authorize<z.ZodType>): Route {
  const { schema, apply } = CHANGES[op]!;
  return operation(schema, apply, op, authorize);
}

/**
 * A fork's upload carries a workflow run id instead of a token; the service checks that run against the PR's
 * head SHA. The sandbox cannot ask the code host about the run, so it takes any run id with the head SHA.
 */
const forkUploadOfHeadSha: Authorize<typeof SetImpactedTargetsRequest> = ({ engine, forkedRunId }, { repo, pr }) => {
  if (forkedRunId === undefined) return undefined;
  if (pr.sha !== undefined && engine.isHeadSha(repo, pr.number, pr.sha)) return undefined;
  return errorAnswer(401, `a forked workflow run uploads only for the PR's head SHA: pr.sha ${pr.sha ?? '(missing)'} is not the head of #${pr.number}`);
};

const getMergeQueueMetrics: Route = {
  method: 'GET',
  handle: ({ engine, query }) => {
    const repo = query.get('repo');
    const repoHost = query.get('repoHost');
    if (repo === null && repoHost === null) return metricsAnswer(engine.getMergeQueueMetrics());
    if (repoHost === null || repoHost === '') return { answer: errorAnswer(400, 'repoHost: required when repo is given') };
    if (repo === null) return { answer: errorAnswer(400, 'repo: required when repoHost is given') };
    const parts = /^([^/\s]+)\/([^/\s]+)$/.exec(repo);
    if (!parts) return { answer: errorAnswer(400, `repo: give the repository as owner/name, not "${repo}"`) };
    return metricsAnswer(engine.getMergeQueueMetrics({ repo: { host: repoHost, owner: parts[1]!, name: parts[2]! } }));
  },
};

function metricsAnswer(text: string): Handled {
  return { answer: { status: 200, contentType: METRICS_CONTENT_TYPE, body: text } };
}

/** The service's own health: the sandbox is always up. */
const status: Route = {
  method: 'GET',
  isRead: true,
  anonymous: true,
  handle: () => ({
    answer: jsonAnswer({
      overallStatus: { type: 'up', color: 'green', overallStatusDescription: 'All systems operational' },
      statuses: [],
    }),
  }),
};

const OPERATIONS: Record<string, Route> = {
  submitPullRequest: mutation('submitPullRequest'),
  cancelPullRequest: mutation('cancelPullRequest'),
  restartTestsOnPullRequest: mutation('restartTestsOnPullRequest'),
  getSubmittedPullRequest: query(GetSubmittedPullRequestRequest, (engine, input) => engine.getSubmittedPullRequest(input)),
  listPullRequests: query(ListPullRequestsRequest, (engine, input) => engine.listPullRequests(input)),
  getQueue: query(QueueRequest, (engine, input) => engine.getQueue(input)),
  createQueue: mutation('createQueue'),
  updateQueue: mutation('updateQueue'),
  deleteQueue: mutation('deleteQueue'),
  setImpactedTargets: mutation('setImpactedTargets', forkUploadOfHeadSha as Authorize<z.ZodType>),
  getMergeQueueTestingDetails: query(GetMergeQueueTestingDetailsRequest, (engine, input) => engine.getMergeQueueTestingDetails(input)),
  'flaky-tests/get-test-details': query(GetTestDetailsRequest, (engine, input) => engine.getTestDetails(input)),
  'flaky-tests/list-quarantined-tests': query(ListQuarantinedTestsRequest, (engine, input) => engine.listQuarantinedTests(input)),
  'flaky-tests/list-unhealthy-tests': query(ListUnhealthyTestsRequest, (engine, input) => engine.listUnhealthyTests(input)),
  'flaky-tests/list-failing-tests': query(ListFailingTestsRequest, (engine, input) => engine.listFailingTests(input)),
  'flaky-tests/link-ticket-to-test-case': mutation('flaky-tests/link-ticket-to-test-case'),
  getMergeQueueMetrics,
  status,
};

const CONTROLS: Record<string, Route> = {
  advance: {
    method: 'POST',
    handle: ({ engine, clock, body }) => {
      const parsed = parse(AdvanceRequest, body);
      if ('answer' in parsed) return parsed;
      // Checked before the clock moves: a refused advance leaves the time as it was.
      checkAdvance(clock.now(), parsed.input.seconds);
      clock.advance(parsed.input.seconds);
      engine.tick(clock.now());
      return { answer: jsonAnswer({ now: engine.now.toISOString() }), change: TIME_PASSED };
    },
  },
  pullRequests: mutation('describePullRequest'),
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

/**
 * The route a request target names when it is exactly a route's path, as well-behaved clients send it: such a
 * target is its own pathname with no query, so it needs no URL parsed. Anything else goes the long way.
 */
export function exactRoute(target: string | undefined): Route | undefined {
  return target === undefined ? undefined : ROUTES.get(target);
}

/** A refusal from the engine as its status; anything else is the sandbox's own bug, a 500. */
export function answerForError(error: unknown): Answer {
  if (error instanceof EngineRefusal) return errorAnswer(REFUSAL_STATUS[error.kind], error.message);
  return errorAnswer(500, `sandbox error: ${error instanceof Error ? error.message : String(error)}`);
}
