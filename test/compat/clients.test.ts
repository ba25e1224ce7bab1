// The service's real clients, which we did not write, against the sandbox: each request they send is replayed as
// recorded (method, path, headers, body bytes; test/compat/clients/*.json, README.md beside this file), and each
// answer is judged the way that client judges it. Then the effect is checked through the API.
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';

/** The token the recorded requests carry; the sandbox accepts no other, so a replay proves the header was read. */
const TOKEN = 'mq-token';

interface RecordedRequest {
  comment: string;
  method: string;
  path: string;
  /** In the order sent, without Host (the replay sends the sandbox's). */
  headers: Record<string, string>;
  body: string;
}

type TerraformValue = string | number | boolean | string[] | { host: string; owner: string; name: string };
type TerraformConfig = Record<string, TerraformValue>;

interface Recording {
  client: string;
  follows: string[];
  notes: string[];
  requests: Record<string, RecordedRequest>;
  configs?: Record<string, TerraformConfig>;
}

function recording(file: string): Recording {
  return JSON.parse(readFileSync(new URL(`./clients/${file}`, import.meta.url), 'utf8')) as Recording;
}

const mergeAction = recording('merge-action.json');
const bazelAction = recording('bazel-action.json');
const nxAction = recording('nx-action.json');
const terraform = recording('terraform-provider-trunk.json');
const RECORDINGS = [mergeAction, bazelAction, nxAction, terraform];

function recorded(from: Recording, name: string): RecordedRequest {
  const found = from.requests[name];
  if (!found) throw new Error(`${from.client} has no recorded request ${name}`);
  return found;
}

function config(name: string): TerraformConfig {
  const found = terraform.configs?.[name];
  if (!found) throw new Error(`no Terraform config ${name}`);
  return found;
}

// ---------------------------------------------------------------- the wire

interface WireAnswer {
  status: number;
  contentType: string | undefined;
  text: string;
}

/** What each replay got, for the summary a maintainer can ask for (MQ_COMPAT_TRANSCRIPT=file). */
const transcript: { client: string; request: string; status: number; body: string }[] = [];

/** Sends the request as recorded: headers in their order and spelling, empty ones included, the body's bytes. */
function replay(sandbox: RunningSandbox, request: RecordedRequest): Promise<WireAnswer> {
  const base = new URL(sandbox.url);
  const headers = ['Host', base.host];
  for (const [name, value] of Object.entries(request.headers)) headers.push(name, value);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: base.hostname, port: base.port, method: request.method, path: request.path, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, contentType: incoming.headers['content-type'], text: Buffer.concat(chunks).toString('utf8') }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

async function replayAs(sandbox: RunningSandbox, from: Recording, name: string, request = recorded(from, name)): Promise<WireAnswer> {
  const answer = await replay(sandbox, request);
  transcript.push({ client: from.client, request: name, status: answer.status, body: answer.text });
  return answer;
}

/** The recorded request with some headers changed; `undefined` takes a header out, as curl does with an empty one. */
function withHeaders(request: RecordedRequest, changes: Record<string, string | undefined>): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    const changed = Object.hasOwn(changes, name) ? changes[name] : value;
    if (changed !== undefined) headers[name] = changed;
  }
  return { ...request, headers };
}

/** The recorded request sent elsewhere or with another body, its Content-Length counted again as the client would. */
function withBody(request: RecordedRequest, body: string, path = request.path): RecordedRequest {
  const headers = { ...request.headers };
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-length') headers[name] = String(Buffer.byteLength(body));
  return { ...request, path, headers, body };
}

// ---------------------------------------------------------------- our own calls, to set up and to look

function harness(sandbox: RunningSandbox) {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${sandbox.url}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
  const ok = async (path: string, body: unknown): Promise<any> => {
    const answer = await post(path, body);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text);
  };
  return { post, ok };
}

interface UploadBody {
  repo: { host: string; owner: string; name: string };
  targetBranch: string;
  pr: { number: string; sha: string };
  impactedTargets: string[] | string;
}

const uploadBody = (request: RecordedRequest) => JSON.parse(request.body) as UploadBody;

// ---------------------------------------------------------------- Go's encoding/json into types.go's Queue

type GoKind = 'string' | 'int' | 'bool' | 'stringSlicePointer' | 'repo';

/** types.go's Queue: its JSON names and Go types, and the Terraform attribute each one fills (fromQueue). */
const QUEUE_FIELDS: readonly { json: string; kind: GoKind; attribute?: string }[] = [
  { json: 'repo', kind: 'repo' },
  { json: 'targetBranch', kind: 'string' },
  { json: 'mode', kind: 'string', attribute: 'mode' },
  { json: 'concurrency', kind: 'int', attribute: 'concurrency' },
  { json: 'state', kind: 'string', attribute: 'state' },
  { json: 'testingTimeoutMinutes', kind: 'int', attribute: 'testing_timeout_minutes' },
  { json: 'pendingFailureDepth', kind: 'int', attribute: 'pending_failure_depth' },
  { json: 'canOptimisticallyMerge', kind: 'bool', attribute: 'can_optimistically_merge' },
  { json: 'batch', kind: 'bool', attribute: 'batch' },
  { json: 'batchingMaxWaitTimeMinutes', kind: 'int', attribute: 'batching_max_wait_time_minutes' },
  { json: 'batchingMinSize', kind: 'int', attribute: 'batching_min_size' },
  { json: 'createPrsForTestingBranches', kind: 'bool', attribute: 'create_prs_for_testing_branches' },
  { json: 'mergeMethod', kind: 'string', attribute: 'merge_method' },
  { json: 'commentsEnabled', kind: 'bool', attribute: 'comments_enabled' },
  { json: 'commandsEnabled', kind: 'bool', attribute: 'commands_enabled' },
  { json: 'statusCheckEnabled', kind: 'bool', attribute: 'status_check_enabled' },
  { json: 'directMergeMode', kind: 'string', attribute: 'direct_merge_mode' },
  { json: 'optimizationMode', kind: 'string', attribute: 'optimization_mode' },
  { json: 'bisectionConcurrency', kind: 'int', attribute: 'bisection_concurrency' },
  { json: 'extensionEnabled', kind: 'bool', attribute: 'extension_enabled' },
  { json: 'enqueueingLabel', kind: 'string', attribute: 'enqueueing_label' },
  { json: 'labelCommandsEnabled', kind: 'bool', attribute: 'label_commands_enabled' },
  { json: 'stateLabelsEnabled', kind: 'bool', attribute: 'state_labels_enabled' },
  { json: 'requiredStatuses', kind: 'stringSlicePointer', attribute: 'required_statuses' },
];

const GO_ZERO: Record<GoKind, unknown> = { string: '', int: 0, bool: false, stringSlicePointer: null, repo: { host: '', owner: '', name: '' } };
const INT64_LIMIT = 2 ** 63;

/** Whether Go would store this JSON value in a field of this kind (null is always taken: it leaves the zero value). */
function goAccepts(kind: GoKind, value: unknown): boolean {
  if (value === null) return true;
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < INT64_LIMIT;
    case 'bool':
      return typeof value === 'boolean';
    case 'stringSlicePointer':
      return Array.isArray(value) && value.every((item) => item === null || typeof item === 'string');
    case 'repo':
      return (
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.entries(value as object).every(([key, item]) => !['host', 'owner', 'name'].includes(key.toLowerCase()) || goAccepts('string', item))
      );
  }
}

/**
 * json.Unmarshal of an answer into a Queue, as the provider's client does: unknown keys are skipped, a key
 * matches a field exactly or else in any letter case, and a value of the wrong type is an error.
 */
function goUnmarshalQueue(text: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(text);
  const queue: Record<string, unknown> = {};
  for (const field of QUEUE_FIELDS) queue[field.json] = structuredClone(GO_ZERO[field.kind]);
  if (parsed === null) return queue;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`json: cannot unmarshal ${text.slice(0, 20)} into Go value of type client.Queue`);
  for (const [key, value] of Object.entries(parsed)) {
    const field = QUEUE_FIELDS.find((f) => f.json === key) ?? QUEUE_FIELDS.find((f) => f.json.toLowerCase() === key.toLowerCase());
    if (!field) continue;
    if (!goAccepts(field.kind, value)) throw new Error(`json: cannot unmarshal ${JSON.stringify(value)} into Go struct field Queue.${field.json}`);
    if (value === null) {
      if (field.kind === 'stringSlicePointer') queue[field.json] = null;
    } else if (field.kind === 'stringSlicePointer') {
      queue[field.json] = (value as (string | null)[]).map((item) => item ?? '');
    } else {
      queue[field.json] = value;
    }
  }
  return queue;
}

/** fromQueue: the resource's attributes after an answer (identity attributes come from the request, not here). */
function terraformState(queue: Record<string, unknown>): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const field of QUEUE_FIELDS) if (field.attribute) state[field.attribute] = queue[field.json];
  return state;
}

const IDENTITY_ATTRIBUTES = new Set(['repo', 'target_branch']);

/** The attributes a config sets beyond the queue's identity. */
function configured(config: TerraformConfig): Record<string, TerraformValue> {
  return Object.fromEntries(Object.entries(config).filter(([attribute]) => !IDENTITY_ATTRIBUTES.has(attribute)));
}

/** The stricter reading the brief asks for: every field of Queue but the identity ones is present, with its JSON type. */
function expectEveryQueueField(text: string): void {
  const answer = JSON.parse(text) as Record<string, unknown>;
  for (const field of QUEUE_FIELDS) {
    if (field.json === 'repo' || field.json === 'targetBranch') continue;
    expect(Object.hasOwn(answer, field.json), `${field.json} is in the answer`).toBe(true);
    const value = answer[field.json];
    if (field.kind === 'stringSlicePointer') expect(value === null || Array.isArray(value), `${field.json} is null or an array`).toBe(true);
    else expect(value !== null && goAccepts(field.kind, value), `${field.json} is a ${field.kind}: ${JSON.stringify(value)}`).toBe(true);
  }
}

/** The provider's view of a 2xx answer it decodes: the decoded Queue as the resource's state. */
function decodedState(answer: WireAnswer): Record<string, unknown> {
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(200);
  expect(answer.status, answer.text).toBeLessThan(300);
  expectEveryQueueField(answer.text);
  return terraformState(goUnmarshalQueue(answer.text));
}

// ---------------------------------------------------------------- the tests

let sandbox: RunningSandbox;
let api: ReturnType<typeof harness>;

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual', port: 0, token: TOKEN });
  api = harness(sandbox);
});

afterAll(async () => {
  await sandbox?.close();
  const file = process.env.MQ_COMPAT_TRANSCRIPT;
  if (file) writeFileSync(file, `${JSON.stringify(transcript, null, 2)}\n`);
});

describe('the recordings', () => {
  it('are what the clients send: a Content-Length that counts the body, a JSON body, a token or a fork run id', () => {
    for (const from of RECORDINGS) {
      for (const [name, request] of Object.entries(from.requests)) {
        const where = `${from.client} ${name}`;
        expect(request.method, where).toBe('POST');
        expect(request.path, where).toMatch(/^\/v1\/[A-Za-z]+$/);
        const length = Object.entries(request.headers).find(([header]) => header.toLowerCase() === 'content-length')?.[1];
        expect(length, where).toBe(String(Buffer.byteLength(request.body)));
        expect(() => JSON.parse(request.body), where).not.toThrow();
      }
    }
  });

  it('send the Terraform attributes a config sets, and nothing else', () => {
    const sent = (name: string) => JSON.parse(recorded(terraform, name).body) as Record<string, unknown>;
    const expectUpdateOf = (request: string, configName: string) => {
      const body = sent(request);
      const attributes = configured(config(configName));
      const names = QUEUE_FIELDS.filter((field) => field.attribute !== undefined && Object.hasOwn(attributes, field.attribute)).map((field) => field.json);
      if (!Object.hasOwn(attributes, 'required_statuses')) names.push('deleteRequiredStatuses');
      expect(Object.keys(body).sort()).toEqual(['repo', 'targetBranch', ...names].sort());
      for (const field of QUEUE_FIELDS)
        if (field.attribute && Object.hasOwn(attributes, field.attribute)) expect(body[field.json]).toEqual(attributes[field.attribute]);
    };
    expectUpdateOf('configureFull', 'full');
    expectUpdateOf('updateFull', 'fullUpdated');
    expectUpdateOf('configureMinimal', 'minimal');
    expectUpdateOf('updateMinimal', 'minimalDraining');
    expect(sent('createFull')).toEqual({ repo: config('full').repo, targetBranch: 'main', mode: 'parallel', concurrency: 3 });
    expect(sent('createMinimal')).toEqual({ repo: config('minimal').repo, targetBranch: 'main' });
  });
});

describe('uploads of impacted targets (merge-action, bazel-action, nx-action)', () => {
  const uploads = [...Object.values(mergeAction.requests), ...Object.values(bazelAction.requests), ...Object.values(nxAction.requests)].map(uploadBody);
  const queue = { repo: uploads[0]!.repo, targetBranch: uploads[0]!.targetBranch };

  /** The PR as getSubmittedPullRequest shows it, asked with the number as the client spelled it (a string). */
  const submitted = (number: string) => api.ok('getSubmittedPullRequest', { ...queue, pr: { number } });

  /** What a client's upload must have done: the PR has targets for its head SHA and has left not_ready. */
  const expectUploadTook = async (request: RecordedRequest) => {
    const { pr } = uploadBody(request);
    const status = await submitted(pr.number);
    expect(status).toMatchObject({ prNumber: Number(pr.number), prSha: pr.sha, readiness: { requiresImpactedTargets: true, hasImpactedTargets: true } });
    expect(['pending', 'testing']).toContain(status.state);
    return status;
  };

  const expectNoUpload = async (request: RecordedRequest) => {
    const status = await submitted(uploadBody(request).pr.number);
    expect(status).toMatchObject({ state: 'not_ready', readiness: { hasImpactedTargets: false } });
  };

  /** The targets the run testing the PR holds for it, as getMergeQueueTestingDetails shows them. */
  const testedTargets = async (status: { verifiedByTestRun: string | null }) => {
    expect(status.verifiedByTestRun).toEqual(expect.any(String));
    const details = await api.ok('getMergeQueueTestingDetails', { ...queue, testRunId: status.verifiedByTestRun });
    return details.impactedTargetsForTestedPrs as string[] | undefined;
  };

  beforeAll(async () => {
    // A parallel queue, so a PR waits in not_ready for its targets; room for every PR to test at once.
    await api.ok('createQueue', { ...queue, mode: 'parallel', concurrency: 10 });
    for (const { pr } of uploads) {
      const number = Number(pr.number);
      await api.ok('_sandbox/pullRequests', { repo: queue.repo, number, sha: pr.sha, baseBranch: queue.targetBranch, title: `Change ${number}` });
      await api.ok('submitPullRequest', { ...queue, pr: { number } });
    }
    for (const { pr } of uploads) {
      expect(await submitted(pr.number)).toMatchObject({ state: 'not_ready', readiness: { requiresImpactedTargets: true, hasImpactedTargets: false } });
    }
  });

  describe('merge-action (curl, jq --arg)', () => {
    it('uploads a list of targets with pr.number as a string: 200', async () => {
      const answer = await replayAs(sandbox, mergeAction, 'targets');
      expect(answer.status, answer.text).toBe(200);
      const status = await expectUploadTook(recorded(mergeAction, 'targets'));
      expect(await testedTargets(status)).toEqual(['//libs/auth:lib', '//services/api:test']);
    });

    it('uploads an empty list, which counts as an upload: 200', async () => {
      const answer = await replayAs(sandbox, mergeAction, 'emptyTargets');
      expect(answer.status, answer.text).toBe(200);
      await expectUploadTook(recorded(mergeAction, 'emptyTargets'));
    });

    it('uploads "ALL": 200', async () => {
      const answer = await replayAs(sandbox, mergeAction, 'impactsAll');
      expect(answer.status, answer.text).toBe(200);
      const status = await expectUploadTook(recorded(mergeAction, 'impactsAll'));
      expect(await testedTargets(status)).toEqual(['ALL']);
    });

    it("refuses a fork's upload for a SHA that is not the PR's head: 401, and nothing recorded", async () => {
      const fork = recorded(mergeAction, 'forkTargets');
      const otherSha = '0000000000000000000000000000000000000001';
      const answer = await replayAs(sandbox, mergeAction, 'forkTargets (another SHA)', withBody(fork, fork.body.replace(uploadBody(fork).pr.sha, otherSha)));
      expect(answer.status, answer.text).toBe(401);
      await expectNoUpload(fork);
    });

    it('refuses a request with neither a token nor a fork run id: 401', async () => {
      const fork = recorded(mergeAction, 'forkTargets');
      expect(Object.keys(fork.headers).map((name) => name.toLowerCase())).not.toContain('x-api-token');
      const anonymous = withHeaders(fork, { 'x-forked-workflow-run-id': undefined });
      const answer = await replayAs(sandbox, mergeAction, 'forkTargets (no run id)', anonymous);
      expect(answer.status, answer.text).toBe(401);
      await expectNoUpload(fork);
    });

    it('refuses a fork run id on any endpoint but setImpactedTargets: 401', async () => {
      const fork = recorded(mergeAction, 'forkTargets');
      const { repo, targetBranch, pr } = uploadBody(fork);
      const cancel = withBody(fork, JSON.stringify({ repo, targetBranch, pr: { number: pr.number } }), '/v1/cancelPullRequest');
      const submit = withBody(fork, JSON.stringify({ repo, targetBranch, pr: { number: '999' } }), '/v1/submitPullRequest');
      const read = withBody(fork, JSON.stringify({ repo, targetBranch }), '/v1/getQueue');
      for (const [name, request] of [
        ['cancelPullRequest', cancel],
        ['submitPullRequest', submit],
        ['getQueue', read],
      ] as const) {
        const answer = await replayAs(sandbox, mergeAction, `forkTargets headers on ${name}`, request);
        expect(answer.status, `${name}: ${answer.text}`).toBe(401);
      }
      await expectNoUpload(fork);
      expect((await api.post('getSubmittedPullRequest', { ...queue, pr: { number: 999 } })).status).toBe(404);
    });

    it("uploads from a fork with no token header, only the run id, for the PR's head SHA: 200", async () => {
      const answer = await replayAs(sandbox, mergeAction, 'forkTargets');
      expect(answer.status, answer.text).toBe(200);
      await expectUploadTook(recorded(mergeAction, 'forkTargets'));
    });
  });

  describe('bazel-action (curl, token only)', () => {
    it('uploads a list of targets: 200', async () => {
      const answer = await replayAs(sandbox, bazelAction, 'targets');
      expect(answer.status, answer.text).toBe(200);
      await expectUploadTook(recorded(bazelAction, 'targets'));
    });
  });

  describe('nx-action (python requests)', () => {
    it('uploads a list of targets: 200', async () => {
      const answer = await replayAs(sandbox, nxAction, 'targets');
      expect(answer.status, answer.text).toBe(200);
      const status = await expectUploadTook(recorded(nxAction, 'targets'));
      expect(await testedTargets(status)).toEqual(['apps/web', 'libs/ui']);
    });

    it('uploads "IMPACTS_ALL", which means ALL: 200', async () => {
      const answer = await replayAs(sandbox, nxAction, 'impactsAll');
      expect(answer.status, answer.text).toBe(200);
      const status = await expectUploadTook(recorded(nxAction, 'impactsAll'));
      expect(await testedTargets(status)).toEqual(['ALL']);
    });

    it('refuses both headers empty: 401', async () => {
      const fork = recorded(nxAction, 'forkTargets');
      const answer = await replayAs(sandbox, nxAction, 'forkTargets (run id empty)', withHeaders(fork, { 'x-forked-workflow-run-id': '' }));
      expect(answer.status, answer.text).toBe(401);
      await expectNoUpload(fork);
    });

    it("uploads from a fork with an empty token header and the run id, for the PR's head SHA: 200", async () => {
      const fork = recorded(nxAction, 'forkTargets');
      expect(fork.headers['x-api-token']).toBe('');
      const answer = await replayAs(sandbox, nxAction, 'forkTargets');
      expect(answer.status, answer.text).toBe(200);
      await expectUploadTook(fork);
    });
  });
});

describe('the Terraform provider (Go net/http, encoding/json)', () => {
  const repoOf = (name: string) => config(name).repo as { host: string; owner: string; name: string };

  it('creates, reads, updates, reads and destroys a queue configured with every attribute', async () => {
    // Create: createQueue, then updateQueue; Terraform requires every configured attribute back as it was set.
    const created = await replayAs(sandbox, terraform, 'createFull');
    expect(created.status, created.text).toBe(200);
    const state = decodedState(await replayAs(sandbox, terraform, 'configureFull'));
    expect(state).toMatchObject(configured(config('full')));
    expect(state.pending_failure_depth).toBe(0);

    // Refresh: no drift, so the next plan is empty.
    expect(decodedState(await replayAs(sandbox, terraform, 'readFull'))).toEqual(state);

    // Update: the plan is the config over the prior state (UseStateForUnknown), and the answer is the plan but for
    // required_statuses = [], sent as []: v1 ignores an empty list (only deleteRequiredStatuses drops it), so the
    // statuses stay, as the service keeps them, and the provider plans the change again (its users' drift).
    const planned = { ...state, ...configured(config('fullUpdated')) };
    expect(config('fullUpdated')).not.toHaveProperty('bisection_concurrency');
    const updated = decodedState(await replayAs(sandbox, terraform, 'updateFull'));
    expect(updated).toEqual({ ...planned, required_statuses: state.required_statuses });
    expect(state.required_statuses).not.toEqual([]);
    expect(decodedState(await replayAs(sandbox, terraform, 'readFull'))).toEqual(updated);

    // Destroy: refused while a PR is in the queue ("queue is not empty"), done once it has left.
    const queue = { repo: repoOf('full'), targetBranch: 'main' };
    await api.ok('submitPullRequest', { ...queue, pr: { number: 7 } });
    const refused = await replayAs(sandbox, terraform, 'deleteFull');
    expect(refused.status, refused.text).toBe(400);
    expect(decodedState(await replayAs(sandbox, terraform, 'readFull'))).toEqual(updated);
    await api.ok('cancelPullRequest', { ...queue, pr: { number: 7 } });
    const deleted = await replayAs(sandbox, terraform, 'deleteFull');
    expect(deleted.status, deleted.text).toBe(200);

    // Refresh after the queue is gone: 404, which the provider reads as "removed".
    const gone = await replayAs(sandbox, terraform, 'readFull');
    expect(gone.status, gone.text).toBe(404);
  });

  it('creates a queue with only the required attributes, refuses it twice (409), updates and destroys it', async () => {
    const created = await replayAs(sandbox, terraform, 'createMinimal');
    expect(created.status, created.text).toBe(200);
    const duplicate = await replayAs(sandbox, terraform, 'createMinimal');
    expect(duplicate.status, duplicate.text).toBe(409);

    const state = decodedState(await replayAs(sandbox, terraform, 'configureMinimal'));
    // Nothing was configured, so Terraform takes what came back; these are the service's documented defaults.
    expect(state).toEqual({
      mode: 'single',
      concurrency: 1,
      state: 'running',
      testing_timeout_minutes: 300,
      pending_failure_depth: 0,
      can_optimistically_merge: expect.any(Boolean),
      batch: false,
      batching_max_wait_time_minutes: 5,
      batching_min_size: 4,
      create_prs_for_testing_branches: expect.any(Boolean),
      merge_method: 'squash',
      comments_enabled: expect.any(Boolean),
      commands_enabled: expect.any(Boolean),
      status_check_enabled: expect.any(Boolean),
      direct_merge_mode: 'off',
      optimization_mode: expect.any(String),
      bisection_concurrency: 1,
      extension_enabled: expect.any(Boolean),
      enqueueing_label: expect.any(String),
      label_commands_enabled: expect.any(Boolean),
      state_labels_enabled: expect.any(Boolean),
      required_statuses: null,
    });
    expect(decodedState(await replayAs(sandbox, terraform, 'readMinimal'))).toEqual(state);

    const updated = decodedState(await replayAs(sandbox, terraform, 'updateMinimal'));
    expect(updated).toEqual({ ...state, ...configured(config('minimalDraining')) });
    expect(decodedState(await replayAs(sandbox, terraform, 'readMinimal'))).toEqual(updated);

    const deleted = await replayAs(sandbox, terraform, 'deleteMinimal');
    expect(deleted.status, deleted.text).toBe(200);
    const gone = await replayAs(sandbox, terraform, 'readMinimal');
    expect(gone.status, gone.text).toBe(404);
  });
});
