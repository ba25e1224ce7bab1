// The verdicts of mq doctor's checks, from the facts each is given: the exit code a failure stands for, the fix
// it names, and which failure decides the command's exit code.
import { describe, expect, it } from 'vitest';
import {
  apiUrlCheck,
  clockCheck,
  firstFailure,
  nodeCheck,
  proxyCheck,
  queueChecks,
  reachableCheck,
  serviceStatusCheck,
  unresolved,
} from '../../src/commands/doctor/doctor.js';
import { ApiError, ConfigError, EXIT, NetworkError, ResponseError, UsageError } from '../../src/errors.js';
import type { QueueFacts } from '../../src/model/queue.js';

const API = 'https://api.trunk.io/v1';
/** The fix of a missing queue, as doctor builds it for a queue named by no flag. */
const NO_QUEUE = 'create it with mq queue create, or name another branch with -b';

describe('mq doctor checks', () => {
  it('takes Node.js 20.18 and later', () => {
    expect(nodeCheck('20.18.1').ok).toBe(true);
    expect(nodeCheck('22.0.0').ok).toBe(true);
    expect(nodeCheck('20.17.0')).toMatchObject({ ok: false, exitCode: EXIT.config, fix: expect.stringContaining('20.18') });
    expect(nodeCheck('18.20.4').ok).toBe(false);
  });

  it('refuses plain http off this machine and a project URL the user has not trusted', () => {
    const trust = { trustedApiUrls: [], userConfigPath: '/home/u/.config/mq/config.yaml' };
    const at = (apiUrl: string, apiUrlFrom?: { path: string; kind: 'project'; key: string }) =>
      apiUrlCheck({
        settings: { apiUrl, insecure: false } as never,
        trust: { ...trust, ...(apiUrlFrom && { apiUrlFrom }) },
        origins: { apiUrl: 'env MQ_API_URL' },
      });
    expect(at(API).ok).toBe(true);
    expect(at('http://127.0.0.1:4000/v1').ok).toBe(true);
    expect(at('http://mq.example.com/v1')).toMatchObject({ ok: false, exitCode: EXIT.config, fix: expect.stringContaining('--insecure') });
    expect(at('https://evil.example.com/v1', { path: '/repo/.mqrc', kind: 'project', key: 'apiUrl' })).toMatchObject({
      ok: false,
      fix: expect.stringContaining('trustedApiUrls in /home/u/.config/mq/config.yaml'),
    });
  });

  it('tells a refused connection (6) from a URL that is not the base URL (3)', () => {
    const refused = new NetworkError('connection refused by 127.0.0.1:1', { failure: 'refused', sent: false });
    expect(reachableCheck(API, 'default', { ok: false, error: refused }, 3)).toMatchObject({
      ok: false,
      exitCode: EXIT.unavailable,
      fix: expect.stringContaining('mq sandbox'),
    });
    const missing = new ApiError(404, 'no route GET /v1/v1/status', 'status');
    expect(reachableCheck(`${API}/v1`, 'flag --api-url', { ok: false, error: missing }, 3)).toMatchObject({
      ok: false,
      exitCode: EXIT.config,
      fix: expect.stringContaining('/v1'),
    });
    expect(reachableCheck(API, 'default', { ok: false, error: new ApiError(503, 'down', 'status') }, 3)).toMatchObject({
      ok: false,
      exitCode: EXIT.unavailable,
    });
    // An answer of the wrong shape still came back: reachable, and the status check says what is wrong.
    const odd = { ok: false as const, error: new ResponseError('status answered with a body that is not JSON') };
    expect(reachableCheck(API, 'default', odd, 3).ok).toBe(true);
    expect(serviceStatusCheck(odd, true)).toMatchObject({ ok: false, exitCode: EXIT.unavailable });
  });

  it('reads a 4xx from the status page as a wrong API URL, not a failing service', () => {
    const refused = new ApiError(401, 'missing x-api-token header', 'status');
    expect(reachableCheck('http://127.0.0.1:4000/api', 'env MQ_API_URL', { ok: false, error: refused }, 3)).toMatchObject({
      ok: false,
      exitCode: EXIT.config,
      fix: expect.stringMatching(/^check the apiUrl setting, http:\/\/127\.0\.0\.1:4000\/api \(env MQ_API_URL\)/),
    });
  });

  it("reads getQueue's 404 from a router as a wrong API URL, and the service's own as no queue", () => {
    const where = { url: 'https://proxy.example.com/api', origin: 'flag --api-url', api: 'v1' as const };
    const router = new ApiError(404, 'no route POST /api/v1/getQueue', 'getQueue', { routeMissing: true });
    const [token, queue] = queueChecks({ ok: false, error: router }, 'github.com/acme/w', 'main', 'env MQ_TOKEN', NO_QUEUE, where);
    expect(token).toMatchObject({ skipped: true });
    expect(queue).toMatchObject({
      ok: false,
      exitCode: EXIT.config,
      detail: expect.stringContaining('the apiUrl setting, https://proxy.example.com/api (flag --api-url)'),
    });
    const none = new ApiError(404, 'no queue for github.com/acme/w branch main', 'getQueue');
    expect(queueChecks({ ok: false, error: none }, 'github.com/acme/w', 'main', 'env MQ_TOKEN', NO_QUEUE, where)[1]).toMatchObject({
      exitCode: EXIT.notFound,
      fix: expect.stringContaining('mq queue create'),
    });
  });

  it("reads the service's own status", () => {
    const up = { overallStatus: { type: 'up', color: 'green', overallStatusDescription: 'All systems operational' }, statuses: [] };
    expect(serviceStatusCheck({ ok: true, value: up }, true)).toMatchObject({ ok: true, detail: 'up (green): All systems operational' });
    const impacted = {
      overallStatus: {
        type: 'impacted',
        color: 'red',
        overallStatusDescription: 'Impacted',
        impactedStatuses: [{ name: 'Merge Queue', color: 'red', statusDescription: 'Major outage' }],
      },
      statuses: [],
    };
    expect(serviceStatusCheck({ ok: true, value: impacted }, true)).toMatchObject({
      ok: false,
      exitCode: EXIT.unavailable,
      detail: expect.stringContaining('Merge Queue Major outage'),
    });
    expect(serviceStatusCheck({ ok: true, value: up }, false)).toMatchObject({ ok: false, skipped: true });
  });

  it('fails a clock more than a minute off, except against a loopback sandbox, which keeps its own time', () => {
    expect(clockCheck(-800, false).ok).toBe(true);
    expect(clockCheck(30_000, false)).toMatchObject({ ok: true, detail: 'local clock 30s behind the service' });
    expect(clockCheck(-120_000, false)).toMatchObject({ ok: false, exitCode: EXIT.negative, detail: 'local clock 2m ahead of the service' });
    expect(clockCheck(-150_000, false)).toMatchObject({ detail: 'local clock 2m 30s ahead of the service' });
    // A sandbox on its own clock may be months away: in days, not as "2183h".
    expect(clockCheck(90 * 86_400_000 + 7_200_000, true)).toMatchObject({
      ok: true,
      detail: 'local clock 90d 2h behind the service: a sandbox keeps its own time',
    });
    expect(clockCheck(undefined, false).ok).toBe(true);
  });

  it('reads a 401 as the token refused and a 404 as an accepted token without a queue', () => {
    const queue = { ok: true as const, value: { state: 'running', mode: 'single', pullRequests: 2 } as QueueFacts & { pullRequests: number } };
    expect(queueChecks(queue, 'github.com/acme/w', 'main', 'env MQ_TOKEN', NO_QUEUE)).toMatchObject([
      { ok: true, detail: 'POST /v1/getQueue answered' },
      { ok: true, detail: 'main of github.com/acme/w: running, single mode, 2 PRs enqueued' },
    ]);
    // Each API's request named as it went; a count the service did not give is left out, not said as 0.
    const v2 = { url: 'https://api.trunk.io', origin: 'default', api: 'v2' as const };
    const uncounted = { ok: true as const, value: { ...queue.value, pullRequests: null } };
    expect(queueChecks(uncounted, 'github.com/acme/w', 'main', 'env MQ_TOKEN', NO_QUEUE, v2)).toMatchObject([
      { ok: true, detail: 'GET /v2/merge-queues/{id} answered' },
      { ok: true, detail: 'main of github.com/acme/w: running, single mode' },
    ]);
    const [refused, afterRefused] = queueChecks({ ok: false, error: new ApiError(401, 'bad token', 'getQueue') }, 'r', 'main', 'env MQ_TOKEN', NO_QUEUE);
    expect(refused).toMatchObject({ ok: false, exitCode: EXIT.config, fix: expect.stringContaining('env MQ_TOKEN') });
    expect(afterRefused).toMatchObject({ skipped: true });
    const [accepted, missing] = queueChecks({ ok: false, error: new ApiError(404, 'no queue', 'getQueue') }, 'r', 'main', 'env MQ_TOKEN', NO_QUEUE);
    expect(accepted.ok).toBe(true);
    expect(missing).toMatchObject({ ok: false, exitCode: EXIT.notFound, fix: expect.stringContaining('mq queue create') });
  });

  it('names the proxy without its password, and none for loopback', () => {
    const env = { HTTPS_PROXY: 'http://user:pa55@proxy.corp:3128', NO_PROXY: '.corp' };
    const detail = proxyCheck(new URL(API), env).detail;
    expect(detail).toMatch(/proxy\.corp:3128.* \(HTTPS_PROXY\)/);
    expect(detail).not.toContain('pa55');
    expect(proxyCheck(new URL(API), {}).detail).toBe('none');
    expect(proxyCheck(new URL('http://127.0.0.1:4000/v1'), env).detail).toContain('loopback');
  });

  it('exits with the first failure, skipped checks aside', () => {
    expect(firstFailure([{ name: 'a', ok: true, detail: '' }])).toBe(EXIT.ok);
    expect(
      firstFailure([
        { name: 'a', ok: false, skipped: true, detail: '' },
        { name: 'b', ok: false, detail: '', exitCode: EXIT.unavailable },
        { name: 'c', ok: false, detail: '', exitCode: EXIT.config },
      ]),
    ).toBe(EXIT.unavailable);
  });

  it('reports settings that do not resolve as the config check, and skips what needs them', () => {
    const result = unresolved(new ConfigError('invalid MQ_API_URL "http://h": must end in /v1, as in http://h/v1'), '22.1.0');
    expect(result).toMatchObject({ kind: 'doctor', exitCode: EXIT.config });
    if (result.kind !== 'doctor') throw new Error('not a doctor result');
    expect(result.checks.map((c) => (c.ok ? 'ok' : c.skipped ? 'skipped' : 'failed'))).toEqual(['ok', 'failed', ...Array(14).fill('skipped')]);
  });

  it('gives a bad flag the exit code every command gives it (2), and a bad config file or variable 3', () => {
    expect(unresolved(new UsageError('invalid --api-url "x": must be an http(s) URL ending in /v1'), '22.1.0')).toMatchObject({ exitCode: EXIT.usage });
    expect(unresolved(new ConfigError('/r/.mqrc.json: unknown key "branch"'), '22.1.0')).toMatchObject({ exitCode: EXIT.config });
  });
});
