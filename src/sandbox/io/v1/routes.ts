// The v1 face: each operation's work against the engine; its path and rules are the contract's row
// (src/api/v1/endpoints.ts). Changes go through engine/changes.ts, so the journal holds the engine's operation.
import * as z from 'zod';
import { API_VERSION, type Endpoint, ENDPOINTS, type EndpointName, type PostName } from '../../../api/v1/endpoints.js';
import type { ServedSetImpactedTargetsRequest } from '../../../api/v1/schemas.js';
import type { Repo } from '../../../model/repository.js';
import type { FlakyPageQuery, FlakyScope } from '../../../model/service.js';
import { applyChange } from '../../engine/changes.js';
import type { QueueEngine } from '../../engine/engine.js';
import { getTestDetails, listFailingTests, listQuarantinedTests, listUnhealthyTests } from '../../engine/catalogue.js';
import { METRICS_CONTENT_TYPE } from '../../engine/metrics.js';
import { errorAnswer, jsonAnswer, type Answer } from '../http.js';
import { parse, type Handled, type Route, type RouteContext } from '../route.js';
import type { DeviceDecision, DeviceLogins } from './device-login.js';
import { queueRefOf, type ServedRequest, servedRequest, V1_CHANGES, type V1Change, type WriteName } from './mutations.js';

// v1 bodies → the engine's terms (reads)
function scopeOf(body: { repo: Repo; org_url_slug: string }): FlakyScope {
  return { repo: body.repo, org: body.org_url_slug };
}

function pageOf(body: { page_query: { page_size: number; page_token?: string | undefined } }): FlakyPageQuery {
  const { page_size: size, page_token: token } = body.page_query;
  return token === undefined ? { size } : { size, token };
}

type Authorize<S extends z.ZodType> = (context: RouteContext, input: z.output<S>) => Answer | undefined;
/** Completes a body from the state before it is mapped (a repository named by its id). */
type Resolve<S extends z.ZodType> = (context: RouteContext, input: z.output<S>) => { input: z.output<S> } | { answer: Answer };

/** A route's method and rules, from the contract's row. */
function rules(name: EndpointName): Omit<Route, 'handle'> {
  const endpoint: Endpoint = ENDPOINTS[name];
  return {
    method: endpoint.method,
    ...(endpoint.keep && { isRead: true }),
    ...(endpoint.anonymous && { anonymous: true }),
    ...(endpoint.forkUploads && { forkUploads: true }),
  };
}

type Input<N extends PostName> = z.output<ServedRequest<N>>;

/** `timely`: the answer depends on the clock as well as the state, so it is not kept for the next request. */
function query<N extends PostName>(
  name: N,
  answer: (engine: QueueEngine, input: Input<N>, context: RouteContext) => unknown,
  timely?: (input: Input<N>) => boolean,
): Route {
  const schema = servedRequest(name);
  return {
    ...rules(name),
    handle: (context) => {
      const parsed = parse<ServedRequest<N>>(schema, context.body, context.parsed);
      if ('answer' in parsed) return parsed;
      const handled: Handled = { answer: jsonAnswer(answer(context.engine, parsed.input, context)) };
      if (timely?.(parsed.input)) handled.timely = true;
      return handled;
    },
  };
}

/** A change, done and journaled; `authorize` may refuse on conditions of the body the token check let through. */
function mutation<N extends WriteName>(name: N, authorize?: Authorize<ServedRequest<N>>, resolve?: Resolve<ServedRequest<N>>): Route {
  const { schema, toChange }: V1Change<ServedRequest<N>> = V1_CHANGES[name];
  return {
    ...rules(name),
    handle: (context) => {
      const parsed = parse(schema, context.body, context.parsed);
      if ('answer' in parsed) return parsed;
      const resolved = resolve ? resolve(context, parsed.input) : { input: parsed.input };
      if ('answer' in resolved) return resolved;
      const refused = authorize?.(context, resolved.input);
      if (refused) return { answer: refused };
      const change = toChange(resolved.input, { terraform: context.fromTerraform === true });
      const result = applyChange(context.engine, change);
      return { answer: jsonAnswer(result ?? {}), change };
    },
  };
}

/** A fork's upload carries a workflow run id, not a token: the sandbox cannot check the run, so takes any with the head SHA. */
const forkUploadOfHeadSha: Authorize<typeof ServedSetImpactedTargetsRequest> = ({ engine, forkedRunId }, { repo, pr }) => {
  if (forkedRunId === undefined || repo === undefined) return undefined;
  if (pr.sha !== undefined && engine.pullRequestFacts(repo, pr.number)?.sha === pr.sha) return undefined;
  return errorAnswer(401, `a forked workflow run uploads only for the PR's head SHA: pr.sha ${pr.sha ?? '(missing)'} is not the head of #${pr.number}`);
};

/** `repoId` names the repository by its id: the one of a queue the sandbox has, else 404 as for an unknown queue. */
const repositoryOfId: Resolve<typeof ServedSetImpactedTargetsRequest> = ({ engine }, input) => {
  if (input.repoId === undefined) return { input };
  const repo = engine.repositoryWithId(input.repoId);
  if (!repo) return { answer: errorAnswer(404, `no repository with id ${input.repoId}`) };
  const { repoId: _id, ...rest } = input;
  return { input: { ...rest, repo } };
};

/** listMergeQueueTestingResults: the window's bounds as times; the engine checks the span. */
const listMergeQueueTestingResults: Route = query(
  'listMergeQueueTestingResults',
  (engine, body) =>
    engine.listTestingResults(
      queueRefOf(body),
      body.until === undefined ? { since: Date.parse(body.since) } : { since: Date.parse(body.since), until: Date.parse(body.until) },
      { ...(body.offset !== undefined && { offset: body.offset }), ...(body.take !== undefined && { take: body.take }) },
    ),
  // Without `until` the window ends now, and its 45 days move with the clock.
  (body) => body.until === undefined,
);

const getMergeQueueMetrics: Route = {
  ...rules('getMergeQueueMetrics'),
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
  return { answer: { status: 200, contentType: METRICS_CONTENT_TYPE, body: text }, timely: true };
}

const status: Route = {
  ...rules('status'),
  handle: () => ({
    answer: jsonAnswer({
      overallStatus: { type: 'up', color: 'green', overallStatusDescription: 'All systems operational' },
      statuses: [],
    }),
  }),
};

/** The body of `POST /_sandbox/device/approve` and `/deny`: the user code initiate gave (any case, with or without its dash). */
const DeviceDecisionRequest = z.object({ userCode: z.string().min(1) });

function decide(decision: DeviceDecision): Route {
  return {
    method: 'POST',
    handle: withDeviceLogins((logins, { engine, body }) => {
      const checked = parse(DeviceDecisionRequest, body);
      if ('answer' in checked) return checked;
      const view = logins.decide(checked.input.userCode, decision, engine.now.getTime());
      return { answer: view ? jsonAnswer(view) : noUserCode(checked.input.userCode) };
    }),
  };
}

function noUserCode(userCode: string): Answer {
  return errorAnswer(404, `no device login has the user code ${JSON.stringify(userCode.slice(0, 20))}`);
}

/**
 * The device logins' control routes, under `/_sandbox/`: `device` is where verificationUri points, and takes no
 * token (a person opens it in a browser); it only shows. A test approves or denies with the sandbox's token.
 */
export const DEVICE_CONTROLS: Readonly<Record<string, Route>> = {
  device: {
    method: 'GET',
    anonymous: true,
    handle: withDeviceLogins((logins, { engine, query }) => {
      const userCode = query.get('user_code') ?? undefined;
      const shown = logins.view(engine.now.getTime(), userCode);
      return { answer: shown ? jsonAnswer({ logins: shown }) : noUserCode(userCode ?? '') };
    }),
  },
  'device/approve': decide('approved'),
  'device/deny': decide('denied'),
};

/** A route of the device logins, which a sandbox run in-process without its server does not have. */
function withDeviceLogins(handle: (logins: DeviceLogins, context: RouteContext) => Handled): Route['handle'] {
  return (context) => (context.deviceLogins ? handle(context.deviceLogins, context) : { answer: errorAnswer(404, 'this sandbox keeps no device logins') });
}

const deviceAuthInitiate: Route = {
  ...rules('deviceAuthInitiate'),
  handle: withDeviceLogins((logins, { engine, body, parsed }) => {
    const checked = parse(servedRequest('deviceAuthInitiate'), body, parsed);
    if ('answer' in checked) return checked;
    return { answer: jsonAnswer(logins.initiate(engine.now.getTime(), (name) => engine.stableId(name))) };
  }),
};

const deviceAuthTokens: Route = {
  ...rules('deviceAuthTokens'),
  handle: withDeviceLogins((logins, { engine, body, parsed }) => {
    const checked = parse(servedRequest('deviceAuthTokens'), body, parsed);
    if ('answer' in checked) return checked;
    const answer = logins.poll(checked.input.deviceCode, engine.now.getTime(), (name) => engine.stableId(name));
    if (!answer) {
      return { answer: errorAnswer(404, 'deviceCode: no device login has this code (never made, expired long ago, or its session handed out already)') };
    }
    return { answer: jsonAnswer(answer) };
  }),
};

/** The run is not kept, nor acted on: its id comes from the seed and the run itself, so the same run answers the same id. */
const createCiRun: Route = query('createCiRun', (engine, run) => ({ run_id: engine.stableId(`ci-run:${JSON.stringify(run)}`) }));

/** Each v1 operation's work, by the contract's name. */
const OPERATIONS: { readonly [N in EndpointName]: Route } = {
  submitPullRequest: mutation('submitPullRequest'),
  cancelPullRequest: mutation('cancelPullRequest'),
  restartTestsOnPullRequest: mutation('restartTestsOnPullRequest'),
  getSubmittedPullRequest: query(
    'getSubmittedPullRequest',
    (engine, body, context) =>
      engine.getSubmittedPullRequest(queueRefOf(body), body.pr.number !== undefined ? { number: body.pr.number } : { branch: body.pr.branch }, {
        timeline: body.includeTimeline === true,
        // A queue that serves no estimates gives none on either face (v2 answers 404 for it).
        estimate: body.includeEstimatedTimeToMerge === true && context.estimates !== false,
      }),
    // The estimate is made at the clock's time (computedAt, a slot free "now").
    (body) => body.includeEstimatedTimeToMerge === true,
  ),
  // The docs name `notFound` only: the list is `pullRequests` (as listPullRequests names its list), and a PR not
  // found is `{number}`, the shape the request gives it.
  getSubmittedPullRequests: query('getSubmittedPullRequests', (engine, body) => {
    const { pullRequests, notFound } = engine.getSubmittedPullRequests(
      queueRefOf(body),
      body.prs.map((pr) => pr.number),
      { timeline: body.includeTimeline === true },
    );
    return { pullRequests, notFound: notFound.map((number) => ({ number })) };
  }),
  listMergeQueueTestingResults,
  listPullRequests: query('listPullRequests', (engine, { repo, targetBranch, ...history }) => engine.listPullRequests({ repo, targetBranch }, history)),
  getQueue: query('getQueue', (engine, body) => engine.getQueue(queueRefOf(body))),
  createQueue: mutation('createQueue'),
  updateQueue: mutation('updateQueue'),
  deleteQueue: mutation('deleteQueue'),
  setImpactedTargets: mutation('setImpactedTargets', forkUploadOfHeadSha, repositoryOfId),
  getMergeQueueTestingDetails: query('getMergeQueueTestingDetails', (engine, body) => engine.getMergeQueueTestingDetails(queueRefOf(body), body.testRunId)),
  getTestDetails: query('getTestDetails', (engine, body) => ({ test: getTestDetails(engine.world, scopeOf(body), body.test_id) })),
  listQuarantinedTests: query('listQuarantinedTests', (_engine, body) => {
    const { tests, page } = listQuarantinedTests(pageOf(body));
    return { quarantined_tests: tests, page };
  }),
  listUnhealthyTests: query('listUnhealthyTests', (engine, body) => listUnhealthyTests(engine.world, scopeOf(body), body.status, pageOf(body))),
  listFailingTests: query('listFailingTests', (engine, body) =>
    listFailingTests(engine.world, scopeOf(body), { start: body.start_time, end: body.end_time }, pageOf(body)),
  ),
  linkTicketToTestCase: mutation('linkTicketToTestCase'),
  getMergeQueueMetrics,
  status,
  deviceAuthInitiate,
  deviceAuthTokens,
  createCiRun,
};

/** Where the v1 face answers: the API's path under the service's root. */
export const V1_ROOT = `/${API_VERSION}`;

/** The v1 operations by their path from the service's root (`/v1/getQueue`). */
export const V1_ROUTES: ReadonlyMap<string, Route> = new Map(
  (Object.keys(OPERATIONS) as EndpointName[]).map((name) => [`${V1_ROOT}${ENDPOINTS[name].path}`, OPERATIONS[name]]),
);
