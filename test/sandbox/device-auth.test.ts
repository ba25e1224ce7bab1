// The v1 operations mq does not call but the service serves (helper-99): device login (initiate, then poll for the
// session) and Flaky Tests' create-ci-run. Over HTTP, every request and 200 answer held to the published description.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { validateRequest, validateResponse } from '../support/openapi/validate.js';

const TOKEN = 'device-token';

let sandbox: RunningSandbox;
let origin: string;

beforeEach(async () => {
  sandbox = await startSandbox({ clock: 'manual', token: TOKEN });
  origin = sandbox.url.replace(/\/v1$/, '');
});
afterEach(() => sandbox?.close());

interface Reply {
  status: number;
  text: string;
  json?: unknown;
}

async function send(url: string, init: RequestInit): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  return response.headers.get('content-type')?.startsWith('application/json')
    ? { status: response.status, text, json: JSON.parse(text) }
    : { status: response.status, text };
}

/** A v1 operation, its body checked against the description first; a 200's answer too. `valid`: whether the description takes the body. */
async function v1(operation: string, body: unknown, { token, valid = true }: { token?: string; valid?: boolean } = {}): Promise<Reply> {
  expect(validateRequest(operation, body).length === 0).toBe(valid);
  const reply = await send(`${sandbox.url}/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== undefined && { 'x-api-token': token }) },
    body: JSON.stringify(body),
  });
  if (reply.status === 200) expect(validateResponse(operation, reply.json)).toEqual([]);
  return reply;
}

const control = (name: string, body: unknown, token = TOKEN) =>
  send(`${origin}/_sandbox/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-token': token }, body: JSON.stringify(body) });

interface Started {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
}

async function initiate(): Promise<Started> {
  const reply = await v1('device-auth/initiate', {});
  expect(reply.status).toBe(200);
  return reply.json as Started;
}

const poll = (deviceCode: unknown) => v1('device-auth/tokens', { deviceCode });

describe('device login', () => {
  it('starts without a token, with codes that last 300 s, polled every 5 s, verified at the sandbox itself', async () => {
    const started = await initiate();
    expect(started).toMatchObject({ expiresIn: 300, interval: 5, verificationUri: `${origin}/_sandbox/device` });
    expect(started.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(started.verificationUriComplete).toBe(`${origin}/_sandbox/device?user_code=${started.userCode}`);
    // The page a person opens, without a token: it shows the login, and changes nothing.
    const page = await send(started.verificationUriComplete, {});
    expect(page).toMatchObject({ status: 200, json: { logins: [{ userCode: started.userCode, state: 'pending', expiresAt: '2026-01-01T00:05:00.000Z' }] } });
  });

  it('answers pending until a test approves, then success once with a sealed session; the code is then spent', async () => {
    const { deviceCode, userCode } = await initiate();
    expect((await poll(deviceCode)).json).toEqual({ status: 'pending' });
    await sandbox.control('advance', { seconds: 5 });
    // Typed as a person might: lower case, without the dash.
    const approved = await control('device/approve', { userCode: userCode.replace('-', '').toLowerCase() });
    expect(approved).toMatchObject({ status: 200, json: { userCode, state: 'approved' } });
    const success = await poll(deviceCode);
    expect(success.json).toEqual({ status: 'success', sealedSession: expect.stringMatching(/^sandbox_session_[0-9a-f]{32}$/) });
    expect(await poll(deviceCode)).toMatchObject({ status: 404, text: expect.stringMatching(/^deviceCode: no device login has this code/) });
  });

  it('answers denied once a test denies, and a decision once made stands', async () => {
    const { deviceCode, userCode } = await initiate();
    expect(await control('device/deny', { userCode })).toMatchObject({ status: 200, json: { state: 'denied' } });
    expect(await control('device/approve', { userCode })).toMatchObject({ status: 200, json: { state: 'denied' } });
    expect((await poll(deviceCode)).json).toEqual({ status: 'denied' });
  });

  it('answers slow_down to a poll sooner than the interval on the sandbox clock, and lengthens the interval by 5 s', async () => {
    const { deviceCode } = await initiate();
    expect((await poll(deviceCode)).json).toEqual({ status: 'pending' });
    await sandbox.control('advance', { seconds: 4 });
    expect((await poll(deviceCode)).json).toEqual({ status: 'slow_down', interval: 10 });
    await sandbox.control('advance', { seconds: 5 });
    expect((await poll(deviceCode)).json).toEqual({ status: 'slow_down', interval: 15 });
    await sandbox.control('advance', { seconds: 15 });
    expect((await poll(deviceCode)).json).toEqual({ status: 'pending' });
  });

  it('answers expired once expiresIn has passed on the sandbox clock, approved or not', async () => {
    const { deviceCode, userCode } = await initiate();
    await sandbox.control('advance', { seconds: 299 });
    expect((await poll(deviceCode)).json).toEqual({ status: 'pending' });
    await sandbox.control('advance', { seconds: 1 });
    expect(await control('device/approve', { userCode })).toMatchObject({ status: 200, json: { state: 'expired' } });
    expect((await poll(deviceCode)).json).toEqual({ status: 'expired' });
  });

  it('gives each login its own codes, the same ones on every run of a manual clock', async () => {
    const [first, second] = [await initiate(), await initiate()];
    expect(second.deviceCode).not.toBe(first.deviceCode);
    expect(second.userCode).not.toBe(first.userCode);
    await sandbox.close();
    sandbox = await startSandbox({ clock: 'manual', token: TOKEN });
    expect((await initiate()).deviceCode).toBe(first.deviceCode);
  });

  it('refuses a poll without a deviceCode or with one of another type (400), and an unknown one (404), in plain text', async () => {
    for (const body of [{}, { deviceCode: 5 }, []]) {
      const reply = await v1('device-auth/tokens', body, { valid: false });
      expect(reply).toMatchObject({ status: 400, text: expect.stringContaining(Array.isArray(body) ? 'expected object' : 'deviceCode') });
    }
    expect(await poll('no-such-code')).toMatchObject({ status: 404, text: expect.stringContaining('deviceCode') });
    expect((await v1('device-auth/initiate', [], { valid: false })).status).toBe(400);
  });

  it('takes a decision only with the sandbox token, and only for a user code it gave', async () => {
    const { userCode } = await initiate();
    expect((await control('device/approve', { userCode }, 'wrong')).status).toBe(401);
    expect(await control('device/approve', { userCode: 'BCDF-GHJK' })).toMatchObject({ status: 404, text: expect.stringContaining('no device login') });
    expect((await control('device/approve', {})).status).toBe(400);
    expect((await send(`${origin}/_sandbox/device?user_code=BCDF-GHJK`, {})).status).toBe(404);
  });
});

describe('create-ci-run', () => {
  const RUN = {
    repo: { host: 'github.com', owner: 'acme', name: 'widgets' },
    org_url_slug: 'acme',
    ci_job_name: 'unit tests',
    run_start: '2026-01-01T00:00:00Z',
    run_end: '2026-01-01T00:10:00Z',
    branch: 'main',
    sha: 'abc123',
    attempt: 0,
  };
  const FULL = {
    ...RUN,
    provider: 'github',
    run_conclusion: 'failure',
    run_conclusion_cause: 'test',
    providers_job_id: '17',
    providers_run_id: '4242',
  };

  it('records a run with the token and answers its run_id: the same run the same id, another run another', async () => {
    const first = await v1('flaky-ci/create-ci-run', RUN, { token: TOKEN });
    expect(first.status).toBe(200);
    expect((await v1('flaky-ci/create-ci-run', RUN, { token: TOKEN })).json).toEqual(first.json);
    const full = await v1('flaky-ci/create-ci-run', FULL, { token: TOKEN });
    expect(full.status).toBe(200);
    expect(full.json).not.toEqual(first.json);
    expect((await v1('flaky-ci/create-ci-run', { ...RUN, attempt: 4_294_967_295 }, { token: TOKEN })).status).toBe(200);
  });

  it('takes its enums in either letter case, as v1 takes every enum, and records the run as in lower case', async () => {
    const lower = await v1('flaky-ci/create-ci-run', FULL, { token: TOKEN });
    for (const spelling of [
      { provider: 'GitHub', run_conclusion: 'FAILURE', run_conclusion_cause: 'TEST' },
      { provider: 'GITHUB', run_conclusion: 'Failure', run_conclusion_cause: 'Test' },
    ]) {
      const reply = await v1('flaky-ci/create-ci-run', { ...FULL, ...spelling }, { token: TOKEN, valid: false });
      expect(reply, JSON.stringify(spelling)).toMatchObject({ status: 200, json: lower.json });
    }
  });

  it('is 401 without a token, or with one the sandbox does not take', async () => {
    expect((await v1('flaky-ci/create-ci-run', RUN)).status).toBe(401);
    expect((await v1('flaky-ci/create-ci-run', RUN, { token: 'wrong' })).status).toBe(401);
  });

  it.each(Object.keys(RUN))('refuses a run without %s: 400 naming it', async (field) => {
    const { [field as keyof typeof RUN]: _, ...body } = RUN;
    expect(await v1('flaky-ci/create-ci-run', body, { token: TOKEN, valid: false })).toMatchObject({ status: 400, text: expect.stringContaining(field) });
  });

  it.each([
    ['attempt', { attempt: -1 }],
    ['attempt', { attempt: 4_294_967_296 }],
    ['attempt', { attempt: 1.5 }],
    ['run_start', { run_start: '2026-01-01' }],
    ['run_end', { run_end: 'yesterday' }],
    ['provider', { provider: 'teamcity' }],
    ['run_conclusion', { run_conclusion: 'timed_out' }],
    ['run_conclusion_cause', { run_conclusion_cause: 'flaky' }],
    ['repo', { repo: { host: 'github.com', owner: 'acme' } }],
    ['sha', { sha: 7 }],
  ])('refuses %s as the description does: %j', async (field, change) => {
    expect(await v1('flaky-ci/create-ci-run', { ...RUN, ...change }, { token: TOKEN, valid: false })).toMatchObject({
      status: 400,
      text: expect.stringContaining(field),
    });
  });
});
