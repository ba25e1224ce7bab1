// mq sandbox: runs the local emulator until interrupted. Its base URL is the first line of stdout, so a
// script can start it in the background and read where it listens; the rest, for a person, goes to stderr.
import { shownUrl } from '../../text/urls.js';
import { resolve } from 'node:path';
import { badValue } from '../../argv-values.js';
import { envName } from '../../config/setting-rows.js';
import { SETTING_MAX, V2_KEY_PREFIX } from '../../model/vocabulary.js';
import { ConfigError, InterruptedError, UsageError } from '../../errors.js';
import { type RunningSandbox, startSandbox, type SandboxOptions, TOKEN_RULE } from '../../sandbox/io/server.js';
import { type V2Key, V2_PERMISSIONS, type V2Permission } from '../../sandbox/io/v2/face.js';
import { StateFileError } from '../../sandbox/io/store.js';
import type { EndpointSetting } from '../../sandbox/io/webhooks/delivery.js';
import { refuseFilter } from '../../sandbox/io/webhooks/control-routes.js';
import { keyOf, NOT_A_SECRET } from '../../model/webhook-signature.js';
import { kindFilter, webhookUrlProblem } from '../../model/webhooks.js';
import { withSeed } from '../../sandbox/io/seed.js';
import { SPEED_MAX, SPEED_RANGE } from '../../sandbox/io/clock.js';
import type { SANDBOX } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { parseCount } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { portFailure, untilStopped } from '../../command-kit/serve.js';

export type { RunningSandbox };

/** `mq sandbox [--port n] [--state file] [--token t] [--key k[=perms]]... [--webhook url[#kinds]]... [--webhook-secret s] [--clock real|manual] [--speed x] [--rate-limits on|off] [--estimates on|off] [--graph-soft-cap n|none]` */
export function parseSandbox(words: Words<typeof SANDBOX>): Invocation {
  return work.serve(sandboxOptions(words.flags), sandbox);
}

/** The sandbox's flags, read into the server's options (`mq sandbox exec` reads the same). */
export function sandboxOptions(flags: Words<typeof SANDBOX>['flags']): SandboxInput {
  const input: SandboxInput = {
    port: flags.port === undefined ? 0 : parseCount('--port', flags.port, { min: 0, max: 65_535, example: 8080 }),
    stateFile: flags.state,
    ...(flags.seed !== undefined && { seed: flags.seed }),
    token: flags.token,
    clock: flags.clock ?? 'real',
    speed: flags.speed === undefined ? undefined : parseSpeed(flags.speed),
  };
  // As the library refuses it: a token no client sends as given would leave the sandbox taking none. Not echoed.
  if (input.token !== undefined && !TOKEN_RULE.pattern.test(input.token)) throw new UsageError(`--token: ${TOKEN_RULE.problem}`);
  // As the library refuses it: a manual clock moves only when told, and --speed would be said and not done.
  if (input.speed !== undefined && input.clock !== 'real')
    throw new UsageError('--speed goes with the real clock (--clock real); a manual clock moves only when advanced');
  if (flags.key !== undefined) input.keys = parseKeys(flags.key);
  if (flags.rateLimits === 'off') input.rateLimits = false;
  if (flags.estimates === 'off') input.estimates = false;
  if (flags.graphSoftCap !== undefined) input.graphSoftCap = parseGraphSoftCap(flags.graphSoftCap);
  if (flags.webhook !== undefined) input.webhooks = parseWebhooks(flags.webhook, flags.webhookSecret);
  else if (flags.webhookSecret !== undefined) throw new UsageError('--webhook-secret: give a --webhook URL for it to sign');
  return input;
}

/** `--graph-soft-cap N|none`: none lifts a cap the state file holds. */
function parseGraphSoftCap(text: string): number | null {
  if (text === 'none') return null;
  try {
    return parseCount('--graph-soft-cap', text);
  } catch {
    throw badValue('--graph-soft-cap', text, `is neither a whole number from 1 to ${SETTING_MAX} nor none`, 'e.g. 100, or none for no cap');
  }
}

/** `--webhook URL[#kind,family.*,…]`, repeatable, and `--webhook-secret` for them all. */
function parseWebhooks(values: readonly string[], secret: string | undefined): EndpointSetting[] {
  if (secret !== undefined && keyOf(secret) === undefined) {
    throw new UsageError(`--webhook-secret: ${NOT_A_SECRET}`);
  }
  return values.map((value) => {
    const at = value.indexOf('#');
    const url = at < 0 ? value : value.slice(0, at);
    const events = at < 0 ? [] : kindFilter(value.slice(at + 1));
    const problem = webhookUrlProblem(url);
    if (problem) throw badValue('--webhook', shownUrl(value), `is ${problem}`, 'e.g. http://localhost:3000/hooks');
    const refused = refuseFilter(events);
    if (refused) throw new UsageError(`--webhook: ${refused}`);
    return { url, events, ...(secret === undefined ? {} : { secret }) };
  });
}

/** `--key KEY[=PERMS]`, repeatable: PERMS a comma list of permissions or `all`; none (or `none`) reads only. */
export function parseKeys(values: readonly string[]): V2Key[] {
  const keys = new Map<string, V2Key>();
  for (const value of values) {
    const at = value.indexOf('=');
    const key = at < 0 ? value : value.slice(0, at);
    const words =
      at < 0
        ? []
        : value
            .slice(at + 1)
            .split(',')
            .map((word) => word.trim());
    if (key === '' || /\s/.test(key)) throw new UsageError('--key: give a key, then =PERMS if it may do more than read');
    if (keys.has(key)) throw new UsageError('--key: the same key is given twice');
    const permissions = new Set<V2Permission>();
    for (const word of words) {
      if (word === 'all') V2_PERMISSIONS.forEach((permission) => permissions.add(permission));
      else if ((V2_PERMISSIONS as readonly string[]).includes(word)) permissions.add(word as V2Permission);
      else if (!(word === 'none' && words.length === 1) && !(word === '' && words.length === 1)) {
        throw new UsageError(`--key: "${word}" is no permission: use a comma list of ${V2_PERMISSIONS.join(', ')} or all (none: read only)`);
      }
    }
    keys.set(key, { key, permissions: [...permissions] });
  }
  return [...keys.values()];
}

/** Sandbox seconds per real second: more than 0, at most SPEED_MAX (1e308 would stop the clock in the year 275760). */
function parseSpeed(text: string): number {
  const speed = /^(\d+(\.\d+)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  if (!(speed > 0 && speed <= SPEED_MAX)) throw badValue('--speed', text, `is not ${SPEED_RANGE}`, 'e.g. 60 (a sandbox minute per second)');
  return speed;
}

/** The server's options, and a seed file to start from. */
export type SandboxInput = SandboxOptions & { seed?: string };

export async function sandbox(input: SandboxInput, ctx: Context, announce: (url: string) => void): Promise<void> {
  const { running, options } = await startFromFlags(input, ctx.cwd);
  announce(running.url);
  for (const step of [...firstSteps(running.url, input, running.graphSoftCap()), ...webhookLines(running.webhookEndpoints())]) {
    if (typeof step === 'string') ctx.note(step);
    else ctx.note(step.command, 'command');
  }
  await untilStopped(ctx.signal);
  const { deliveriesCutShort } = await running.close();
  // Stopped by Ctrl-C or SIGTERM, as `mq webhooks listen` and any command: 130.
  throw new InterruptedError(stoppedWords(deliveriesCutShort, options.stateFile));
}

/**
 * The sandbox `mq sandbox`'s flags describe (`mq sandbox exec`'s too), started; a relative --state or --seed is the
 * caller's working directory's, as every other path mq is given. One it cannot start is said with the fix.
 */
export async function startFromFlags(input: SandboxInput, cwd: string): Promise<{ running: RunningSandbox; options: SandboxOptions }> {
  const options = input.stateFile === undefined ? input : { ...input, stateFile: resolve(cwd, input.stateFile) };
  try {
    return { running: await startSandbox(await withSeed(options, input.seed === undefined ? undefined : resolve(cwd, input.seed))), options };
  } catch (error) {
    throw startFailure(error, options);
  }
}

/** The last line: the sandbox stopped, and what became of the webhook deliveries it cut short. */
function stoppedWords(cutShort: number, stateFile: string | undefined): string {
  if (cutShort === 0) return 'sandbox stopped';
  const deliveries = cutShort === 1 ? '1 webhook delivery in flight was' : `${cutShort} webhook deliveries in flight were`;
  return stateFile === undefined
    ? `sandbox stopped: ${deliveries} cut short, and not kept (the state was in memory: keep it with --state)`
    : `sandbox stopped: ${deliveries} cut short, kept in ${stateFile}.webhooks to be sent again at the next start`;
}

/**
 * For stderr (stdout is the URL alone): a line pointing mq at it (a --token never echoed), what to try, and on a
 * real clock, --speed. The graph soft cap where there is one, which a state file may hold unasked. The line to
 * paste is a `command`: on a narrow terminal it goes on after ` \`, still one command when pasted.
 */
function firstSteps(url: string, input: SandboxOptions, graphSoftCap: number | null): (string | { command: string })[] {
  const clock = input.clock ?? 'real';
  const token = input.token === undefined ? 'sandbox' : "'<your --token>'";
  const cap = graphSoftCap === null ? '' : `, graph soft cap ${graphSoftCap}`;
  return [
    `sandbox listening on ${url} (${clock} clock${input.stateFile ? `, state in ${input.stateFile}` : ', state in memory'}${cap})`,
    { command: `export ${envName('apiUrl')}=${url} ${envName('token')}=${token} ${envName('repo')}=acme/widgets ${envName('org')}=acme` },
    // Commands to paste too: folded as one (` \`), never between words.
    { command: 'try: mq queue create && mq submit 1 && mq queue get; mq flaky list --failing' },
    `v2 is at ${url.replace(/\/v1$/, '/v2')} with Authorization: Bearer ${input.keys === undefined ? `${V2_KEY_PREFIX}<anything>` : "'<your --key>'"}`,
    ...(clock === 'real' && input.speed === undefined ? ['Tests take minutes of sandbox time: run with --speed 60 to move them 60× faster'] : []),
    'stop with Ctrl-C',
  ];
}

/** Each endpoint with its secret, which the receiver needs to check the signatures. */
function webhookLines(endpoints: ReturnType<RunningSandbox['webhookEndpoints']>): string[] {
  return endpoints.map((e) => `webhooks to ${shownUrl(e.url)}${e.events.length === 0 ? '' : ` (${e.events.join(', ')})`}: id ${e.id}, secret ${e.secret}`);
}

/** Why the sandbox could not start, with the fix: a port it cannot have is a bad --port (exit 2), an unusable state file configuration (exit 3). */
function startFailure(error: unknown, input: SandboxOptions): unknown {
  if (error instanceof ConfigError) return error;
  if (error instanceof StateFileError) return new ConfigError(`${error.message}: ${STATE_FIXES[error.problem]}`, { cause: error });
  return portFailure(error, input.port ?? 0);
}

const STATE_FIXES: Record<StateFileError['problem'], string> = {
  folder: 'create it, or give --state a file in a folder that exists',
  read: 'give --state a file this user can read and write',
  content: 'move it aside (the sandbox then starts afresh) or give --state another file',
  journal: 'put the file back as the sandbox left it, or move the journal aside to start from the file as it is (its changes are then lost)',
  busy: 'stop it (where none runs, its process id was taken by another: remove the .lock file beside it), or give --state another file',
  write: 'give --state a file in a folder this user can write to',
};
