// mq doctor: what stands between this machine and a working queue, a check at a time, each failure with its fix. A
// check that needs a failed one is skipped: the first failure is the cause, its exit code the command's. Requests get
// one short try each: a diagnosis must not hang or back off.
import { proxyFor } from '../../api/proxy.js';
import { shownUrl } from '../../text/urls.js';
import type { QueueFacts } from '../../model/queue.js';
import type { ServiceStatus } from '../../model/service.js';
import { checkTokenDestination, isLoopback } from '../../config/destination.js';
import { configEntries } from '../../config/entries.js';
import type { ResolvedSettings } from '../../config/settings.js';
import { readToken } from '../../config/token.js';
import { type Api, chooseApi } from '../../config/api-choice.js';
import { formatRepo } from '../../config/repo.js';
import { envName, envNames } from '../../config/setting-rows.js';
import { ApiError, EXIT, MqError, NetworkError, ResponseError, type ExitCode } from '../../errors.js';
import { formatDuration as inWords } from '../../text/durations.js';
import type { Context } from '../../command-kit/context.js';
import { noQueueHint } from '../../command-kit/read-queue.js';
import { checkCommand } from '../../command-kit/uncertain.js';
import type { Invocation, ResultWork, Words } from '../../command-kit/invocation.js';
import type { CommandResult, DoctorCheck } from '../../model/result.js';
import type { DOCTOR } from './spec.js';
import { CI_CHECK_NAMES, ciChecks, fail, pass, type QueueFixes, type QueueRead, readCi } from './workflows.js';

/** The oldest Node.js mq supports (package.json's engines). */
export const SUPPORTED_NODE = { major: 20, minor: 18 } as const;
/** Doctor's requests wait at most this long (or --timeout, if shorter). */
export const PROBE_TIMEOUT_MS = 5_000;
/** A service clock further off than this is worth fixing: `--since 2h` and ages would be read wrong. */
export const SKEW_LIMIT_MS = 60_000;

/** The checks in the order they run: a failure's exit code is the first one's. */
export const CHECK_NAMES = [
  'node',
  'config',
  'apiUrl',
  'token',
  'api',
  'reachable',
  'serviceStatus',
  'clock',
  'repo',
  'tokenAccepted',
  'queue',
  'proxy',
  ...CI_CHECK_NAMES,
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

const skip = (name: CheckName, needs: string): DoctorCheck => ({ name, ok: false, skipped: true, detail: `skipped: needs ${needs}` });

/** `--ci`: the checks of the repository's CI alone. */
interface DoctorInput {
  ci?: true;
}

/** `mq doctor [--ci]` */
export function parseDoctor(words: Words<typeof DOCTOR>): Invocation {
  const invocation: ResultWork<DoctorInput> = {
    mode: 'result',
    input: words.flags.ci ? { ci: true } : {},
    handler: doctor,
    // The workflows are read without settings: only the queue's part of the checks needs them.
    unresolved: (input, error, where) =>
      input.ci ? ciDoctor(where.cwd, { ok: false, needs: `settings that resolve: ${error.message}` }, queueFixes({})) : unresolved(error),
  };
  return invocation;
}

export async function doctor(input: DoctorInput, ctx: Context): Promise<CommandResult> {
  const { resolved } = ctx;
  if (input.ci) return ciDoctor(ctx.cwd, await queueForCi(ctx), queueFixes(ctx));
  const { settings } = resolved;
  const files = resolved.files.length === 0 ? 'no config file' : `read ${resolved.files.join(', ')}`;
  const checks: DoctorCheck[] = [nodeCheck(process.versions.node), pass('config', files)];
  const apiUrl = apiUrlCheck(resolved);
  checks.push(apiUrl);

  // The token is read only for a URL it may go to: a tokenCommand must not run for nothing.
  let token: string | undefined;
  if (!apiUrl.ok) checks.push(skip('token', 'an API URL the token may go to'));
  else {
    try {
      token = await readToken(settings);
      checks.push(pass('token', entryOf(resolved, 'token')));
    } catch (error) {
      checks.push(
        settings.token === undefined
          ? fail('token', 'not set', `set ${envNames('token')}, or tokenCommand or tokenFile in your user config file (mq help config)`, EXIT.config)
          : fail('token', messageOf(error), `correct the token's source: ${entryOf(resolved, 'token')}`, EXIT.config),
      );
    }
  }

  const chosen = chooseApi(settings.api, token, resolved.origins.api ?? 'the api setting');
  // v2 lets no one read a key's permissions: the most doctor can say is how a missing one shows.
  const permissions = chosen.api === 'v2' ? '; the API does not show a key its permissions: a command that needs one it lacks names it (exit 3)' : '';
  checks.push(pass('api', `${chosen.api}, because ${chosen.because}${permissions}`));

  const service = await ctx.probeService(token, Math.min(settings.timeoutMs, PROBE_TIMEOUT_MS));
  let queueRead: QueueRead = { ok: false, needs: 'the queue (see its check)' };
  try {
    // v1's /status takes no token: reachability is told even when the token is missing. v2 has no status page:
    // its smallest read tells whether the service answers (a 401 is an answer too).
    const started = performance.now();
    const status = await attempt(() => service.getStatus());
    const statusPage = status.ok && status.value === undefined ? undefined : status;
    const answered = statusPage ?? (await attempt(() => service.syncClock()));
    const latencyMs = performance.now() - started;
    const reach = reachableCheck(settings.apiUrl, resolved.origins.apiUrl ?? 'default', answered, latencyMs, chosen.api);
    checks.push(
      reach,
      statusPage ? serviceStatusCheck(statusPage as Attempt<ServiceStatus>, reach.ok) : skip('serviceStatus', 'the v1 API (v2 has no status page)'),
    );
    const skewMs = service.serviceNow() === undefined ? undefined : service.serviceNow()! - Date.now();
    checks.push(reach.ok ? clockCheck(skewMs, isLoopback(new URL(settings.apiUrl))) : skip('clock', 'an answer from the API'));

    const repo = repoCheck(resolved);
    checks.push(repo);
    const needs = [token === undefined && 'a token', !reach.ok && 'the API reachable', !repo.ok && 'a repository'].filter(Boolean);
    if (needs.length > 0) {
      checks.push(skip('tokenAccepted', needs.join(' and ')), skip('queue', needs.join(' and ')));
      queueRead = { ok: false, needs: needs.join(' and ') };
    } else {
      const ref = ctx.queueRef();
      const queue = await attempt(() => service.getQueueCounted(ref));
      const where = { url: shownUrl(settings.apiUrl), origin: resolved.origins.apiUrl ?? 'default', api: chosen.api };
      checks.push(...queueChecks(queue, formatRepo(ref.repo), ref.targetBranch, resolved.origins.token ?? 'not set', noQueueHint(ctx).hint, where));
      if (queue.ok) queueRead = { ok: true, queue: queue.value };
    }
  } finally {
    await service.close();
  }
  checks.push(proxyCheck(new URL(settings.apiUrl)), ...ciChecks(await readCi(ctx.cwd), queueRead, 'skip', queueFixes(ctx)));
  return { kind: 'doctor', checks, entries: configEntries(resolved), exitCode: firstFailure(checks) };
}

async function ciDoctor(cwd: string, queue: QueueRead, fixes: QueueFixes): Promise<CommandResult> {
  return report(ciChecks(await readCi(cwd), queue, 'fail', fixes));
}

/** The queue's settings a fix names, aimed at the queue checked: the flags that named it go along (none where the settings did not resolve). */
function queueFixes(ctx: Partial<Pick<Context, 'resolved'>>): QueueFixes {
  return {
    requiredStatus: checkCommand(ctx, 'queue', 'update', '--required-status', 'NAME'),
    testingTimeout: checkCommand(ctx, 'queue', 'update', '--testing-timeout-minutes', '60'),
  };
}

function report(checks: DoctorCheck[]): CommandResult {
  return { kind: 'doctor', checks, exitCode: firstFailure(checks) };
}

/** The queue's settings for `--ci`, when a token and a repository are at hand; offline, why not. */
async function queueForCi(ctx: Context): Promise<QueueRead> {
  const { resolved } = ctx;
  if (!resolved.settings.repo) return { ok: false, needs: 'a repository (-R owner/name, or a checkout with an origin remote)' };
  if (!apiUrlCheck(resolved).ok) return { ok: false, needs: 'an API URL the token may go to (mq doctor says why this one may not)' };
  let token: string;
  try {
    token = await readToken(resolved.settings);
  } catch (error) {
    return { ok: false, needs: resolved.settings.token === undefined ? `a token (${envName('token')})` : `a token: ${messageOf(error)}` };
  }
  const service = await ctx.probeService(token, Math.min(resolved.settings.timeoutMs, PROBE_TIMEOUT_MS));
  try {
    const queue = await attempt(() => service.getQueueFacts(ctx.queueRef()));
    return queue.ok ? { ok: true, queue: queue.value } : { ok: false, needs: `the queue, which the service did not give: ${queue.error.message}` };
  } finally {
    await service.close();
  }
}

/** The settings did not resolve: nothing past them is checked; exit 2 for a bad flag or variable, 3 for a bad file, as every other command gives. */
export function unresolved(error: MqError, nodeVersion = process.versions.node): CommandResult {
  return report([
    nodeCheck(nodeVersion),
    fail(
      'config',
      error.message,
      'correct the value the message names; mq config path shows the config files mq reads, and which one is broken',
      error.exitCode,
    ),
    ...CHECK_NAMES.slice(2).map((name) => skip(name, 'settings that resolve')),
  ]);
}

export function firstFailure(checks: readonly DoctorCheck[]): ExitCode {
  return checks.find((check) => !check.ok && !check.skipped)?.exitCode ?? EXIT.ok;
}

export function nodeCheck(version: string): DoctorCheck {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const supported = `supported: ${SUPPORTED_NODE.major}.${SUPPORTED_NODE.minor}+`;
  if (major > SUPPORTED_NODE.major || (major === SUPPORTED_NODE.major && minor >= SUPPORTED_NODE.minor)) {
    return pass('node', `v${version} (${supported})`);
  }
  return fail(
    'node',
    `v${version} is too old (${supported})`,
    `install Node.js ${SUPPORTED_NODE.major}.${SUPPORTED_NODE.minor} or later, e.g. the current LTS`,
    EXIT.config,
  );
}

/** Where the token may go (destination.ts): a project file's untrusted URL, or plain http off this machine. */
export function apiUrlCheck(resolved: Pick<ResolvedSettings, 'settings' | 'trust' | 'origins'>): DoctorCheck {
  const { apiUrl } = resolved.settings;
  const origin = resolved.origins.apiUrl ?? 'default';
  try {
    checkTokenDestination(resolved);
    return pass('apiUrl', `${shownUrl(apiUrl)} (${origin})`);
  } catch (error) {
    const fix =
      new URL(apiUrl).protocol === 'http:'
        ? `use https, or pass --insecure (${envName('insecure')}=1) to send the token in clear`
        : `add ${shownUrl(apiUrl)} to trustedApiUrls in ${resolved.trust.userConfigPath}, or pass it with --api-url or ${envName('apiUrl')}`;
    return fail('apiUrl', messageOf(error), fix, EXIT.config);
  }
}

/** What a request ended in: its answer, or the failure a person can act on. Anything else is a bug, thrown. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; error: ApiError | NetworkError | ResponseError };

async function attempt<T>(request: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await request() };
  } catch (error) {
    if (error instanceof ApiError || error instanceof NetworkError || error instanceof ResponseError) return { ok: false, error };
    throw error;
  }
}

/** GET /v1/status answered (even with a shape that is not the documented one, which the next check reports). */
export function reachableCheck(apiUrl: string, origin: string, status: Attempt<unknown>, latencyMs: number, api: Api = 'v1'): DoctorCheck {
  const took = `${Math.max(1, Math.round(latencyMs))} ms`;
  // Each API's request as it went, version and all, so both lines read alike: the request, then where it went.
  const asked = api === 'v1' ? 'GET /v1/status' : 'GET /v2/merge-queues';
  const error = status.ok ? undefined : status.error;
  // On v2 a refused credential is the service answering: the token's own check says what is wrong with it.
  const refused = api === 'v2' && error instanceof ApiError && (error.status === 401 || error.status === 403);
  if (error === undefined || error instanceof ResponseError || refused) return pass('reachable', `${asked} answered in ${took}`);
  const url = shownUrl(apiUrl);
  if (error instanceof ApiError && error.status === 404) {
    return fail('reachable', `${asked} at ${url} answered 404: ${wrongUrl(url, origin)}`, rootUrlFix(api), EXIT.config);
  }
  if (error instanceof ApiError) {
    // v1's /status takes no token, and v2's list is there for any key: a 4xx there is not the service's answer.
    const notService = error.status < 500 && error.status !== 429;
    const fix = notService
      ? `check the apiUrl setting, ${url} (${origin}): ${rootUrlFix(api)}; or a proxy in front of it (HTTPS_PROXY)`
      : 'the service or a proxy in front of it is failing: try again later, or check HTTPS_PROXY';
    return fail('reachable', `${asked} answered ${error.status}: ${error.message}`, fix, notService ? EXIT.config : error.exitCode);
  }
  return fail('reachable', error.message, networkFix(error as NetworkError, url, origin), EXIT.unavailable);
}

/** The words for an API URL that answered as the service's root does not. */
function wrongUrl(url: string, origin: string): string {
  return `the apiUrl setting, ${url} (${origin}), does not look like the service's root URL`;
}

function rootUrlFix(api: Api): string {
  return `give the service's root URL, as in https://api.trunk.io, to which mq adds /${api} (--api-url, ${envName('apiUrl')} or apiUrl)`;
}

function networkFix(error: NetworkError, url: string, origin: string): string {
  // The proxy's own failure (the line before names it and its variable): the service and its URL are not in question.
  if (error.atProxy) return 'start the proxy, or correct the variable that names it (HTTPS_PROXY, HTTP_PROXY); NO_PROXY sends a host around it';
  switch (error.failure) {
    case 'refused':
      return `start the service (mq sandbox for a local one), or correct the API URL ${url} (${origin})`;
    case 'dns':
      return `check the host name in ${url} (${origin}) and your network's DNS`;
    case 'timeout':
      return `check your network, firewall or proxy; doctor waits at most ${PROBE_TIMEOUT_MS / 1000}s`;
    case 'tls':
      return 'check the certificate chain: a proxy that intercepts TLS needs NODE_EXTRA_CA_CERTS';
    case 'proxy':
      return 'check HTTPS_PROXY / HTTP_PROXY, and the login the proxy may want (http://user:password@host:port)';
    default:
      return `check the API URL ${url} (${origin}) and your network`;
  }
}

export function serviceStatusCheck(status: Attempt<ServiceStatus>, reached: boolean): DoctorCheck {
  if (!reached) return skip('serviceStatus', 'the API reachable');
  if (!status.ok) return fail('serviceStatus', status.error.message, "the answer is not the service's status: check the API URL", EXIT.unavailable);
  const { overallStatus } = status.value;
  const said = `${overallStatus.type} (${overallStatus.color}): ${overallStatus.overallStatusDescription}`;
  if (overallStatus.type === 'up') return pass('serviceStatus', said);
  const impacted = (overallStatus.impactedStatuses ?? []).map((s) => `${s.name} ${s.statusDescription}`).join('; ');
  return fail(
    'serviceStatus',
    impacted ? `${said}: ${impacted}` : said,
    'nothing to fix here: the service reports trouble of its own; try again later',
    EXIT.unavailable,
  );
}

/** The service's Date header against the local clock; on loopback a difference is the sandbox's own time (--clock manual, --speed): shown, never a failure. */
export function clockCheck(skewMs: number | undefined, loopback: boolean): DoctorCheck {
  if (skewMs === undefined) return pass('clock', 'the answer had no Date header: not compared');
  // The Date header counts whole seconds.
  if (Math.abs(skewMs) < 2_000) return pass('clock', 'in step with the service (within 1s)');
  // In words ("327d 23h"), not as a flag is written: a sandbox on its own clock can be months away ("7849h11s").
  const off = `local clock ${inWords(Math.round(Math.abs(skewMs) / 1000))} ${skewMs > 0 ? 'behind' : 'ahead of'} the service`;
  if (loopback) return pass('clock', `${off}: a sandbox keeps its own time`);
  if (Math.abs(skewMs) <= SKEW_LIMIT_MS) return pass('clock', off);
  return fail('clock', off, 'synchronise the system clock (NTP): ages and --since are read against it', EXIT.negative);
}

function repoCheck(resolved: ResolvedSettings): DoctorCheck {
  const { repo } = resolved.settings;
  if (repo) return pass('repo', `${formatRepo(repo)} (${resolved.origins.repo ?? 'default'})`);
  return fail(
    'repo',
    'none given, and none inferred: no git checkout with an origin remote here',
    `pass -R owner/name, set ${envName('repo')}, or run inside a git checkout with an origin remote`,
    EXIT.config,
  );
}

/**
 * The queue's read tells both: 401/403 the token refused, 404 an accepted token and no queue, unless a router
 * answered it: then the API URL is wrong. Each API's request is named as it went, as the reachable line names its own.
 */
export function queueChecks(
  queue: Attempt<QueueFacts & { pullRequests: number | null }>,
  repo: string,
  branch: string,
  tokenOrigin: string,
  noQueue: string,
  apiUrl: { url: string; origin: string; api: Api } = { url: 'the API URL', origin: 'default', api: 'v1' },
): [DoctorCheck, DoctorCheck] {
  const asked = apiUrl.api === 'v1' ? 'POST /v1/getQueue' : 'GET /v2/merge-queues/{id}';
  if (queue.ok) {
    const { state, mode, pullRequests } = queue.value;
    const counted = pullRequests === null ? '' : `, ${pullRequests} PR${pullRequests === 1 ? '' : 's'} enqueued`;
    return [pass('tokenAccepted', `${asked} answered`), pass('queue', `${branch} of ${repo}: ${state}, ${mode} mode${counted}`)];
  }
  const { error } = queue;
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    return [
      fail(
        'tokenAccepted',
        `the service refused the token (${error.status}): ${error.message}`,
        `check the token (${tokenOrigin}): mistyped, revoked, or for another organization?`,
        EXIT.config,
      ),
      skip('queue', 'an accepted token'),
    ];
  }
  if (error instanceof ApiError && error.routeMissing) {
    return [
      skip('tokenAccepted', `an API URL where ${asked} is`),
      fail('queue', `${asked} answered ${error.status} (${error.message}): ${wrongUrl(apiUrl.url, apiUrl.origin)}`, rootUrlFix(apiUrl.api), EXIT.config),
    ];
  }
  const accepted = pass('tokenAccepted', `${asked} answered`);
  if (error instanceof ApiError && error.status === 404) {
    return [accepted, fail('queue', `no queue for ${branch} of ${repo}`, noQueue, EXIT.notFound)];
  }
  if (error instanceof ApiError) return [accepted, fail('queue', `${asked} answered ${error.status}: ${error.message}`, 'try again later', error.exitCode)];
  return [fail('tokenAccepted', error.message, `try again: the API answered, but not ${asked}`, error.exitCode), skip('queue', `an answer to ${asked}`)];
}

export function proxyCheck(url: URL, env: Record<string, string | undefined> = process.env): DoctorCheck {
  if (isLoopback(url)) return pass('proxy', 'none: a loopback address is never proxied');
  const found = proxyFor(url, env);
  if (!found) return pass('proxy', 'none');
  const noProxy = env.no_proxy ?? env.NO_PROXY;
  return pass('proxy', `${shownUrl(found.proxy)} (${found.variable})${noProxy ? `, unless NO_PROXY (${noProxy}) names ${url.hostname}` : ''}`);
}

function entryOf(resolved: ResolvedSettings, key: string): string {
  const entry = configEntries(resolved).find((e) => e.key === key);
  return `${entry?.value ?? 'not set'} (${entry?.origin ?? 'not set'})`;
}

function messageOf(error: unknown): string {
  if (error instanceof MqError) return error.message;
  throw error;
}
