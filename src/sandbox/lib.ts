// `mq/sandbox`: the sandbox as a library for other projects' tests, in-process, loading none of the command line.
// Each call is a sandbox of its own (its engine, clock, keys and server): two share nothing. docs/sandbox.md
// (The sandbox as a library) shows it in a vitest suite.
import { SigningSecret, WEBHOOK_ROUTES, WebhookUrl } from '../api/sandbox-webhooks.js';
import * as z from 'zod';
import { describeIssues } from '../api/format-path.js';
import { grantedPermissions, V2_PERMISSIONS, type V2Permission } from '../api/v2/contract.js';
import type { ControlBodies, ControlName } from './io/control.js';
import { type SeedInput, withSeed } from './io/seed.js';
import { checkGraphSoftCap, startSandbox as startServer, TOKEN_RULE } from './io/server.js';
import { SPEED_MAX, SPEED_RANGE } from './io/clock.js';
import { shownValue } from './engine/state.js';
import type { V2Key } from './io/v2/face.js';
import { refuseFilter } from './io/webhooks/control-routes.js';
import { StateFileError } from './io/store.js';
import { ConfigError } from '../errors.js';
import { IN_ENGLISH } from '../text/in-english.js';

export type { SeedInput, V2Key };

/** A v2 key the sandbox takes, and what it may do: a list of permissions, or `'all'` of them (alone or in the list);
 *  left out (or `[]`), it reads only, as `--key KEY` and a seed's key without permissions. */
export interface KeyOption {
  key: string;
  permissions?: 'all' | readonly (V2Permission | 'all')[] | undefined;
}
export type PullRequestFacts = ControlBodies['pullRequests'];

// Each option may be given as undefined (`state: process.env.STATE_FILE`), as if left out: the types say so for
// projects with exactOptionalPropertyTypes.
export interface SandboxOptions {
  /** 'manual' (the default here: tests move time with advance()) or 'real'. */
  clock?: 'manual' | 'real' | undefined;
  /** Real clock only: sandbox seconds per real second. */
  speed?: number | undefined;
  /** A state file to load and keep every change in; default in memory. */
  state?: string | undefined;
  /** The first state: a seed (an object, or a YAML or JSON file's path) or a snapshot(); with `state`, only when the file holds none. */
  seed?: SeedInput | string | undefined;
  /** The only v1 token accepted; default any (`token` answers 'sandbox'). */
  token?: string | undefined;
  /** v2 keys and what each may do (`'all'`, as `--key KEY=all`, for every permission; none: read only, as `--key KEY`); default any key starting trunk_v2_, with every permission. */
  keys?: readonly KeyOption[] | undefined;
  /** The service's rate limits, on both APIs (default on); false lifts them, as `mq sandbox --rate-limits off`. */
  rateLimits?: boolean | undefined;
  estimates?: boolean | undefined;
  /** How many of a queue's line its graph admits, as `mq sandbox --graph-soft-cap` (null: none); setGraphSoftCap() changes it. */
  graphSoftCap?: number | null | undefined;
  /** Default 0, a free port. */
  port?: number | undefined;
  /** Where to send the service's webhooks, as `mq sandbox --webhook` (docs/sandbox.md#webhooks); a secret is made for each left without. */
  webhooks?: readonly { url: string; events?: readonly string[] | undefined; secret?: string | undefined }[] | undefined;
}

export interface Sandbox {
  /** The server's origin: http://127.0.0.1:PORT */
  url: string;
  v1Url: string;
  v2Url: string;
  /** A v1 token and a v2 key it accepts. */
  token: string;
  key: string;
  /** Moves the clock on (a real clock keeps running from there); answers the sandbox's time. */
  advance(seconds: number): Promise<Date>;
  /** Sets a PR's facts on the host (title, author, sha, mergeable, test outcome…); those left out keep theirs. */
  setPullRequest(facts: PullRequestFacts): Promise<void>;
  /** How many of a queue's line its graph admits from now on, null none, as `POST /_sandbox/graphSoftCap`; rejects with a RangeError, changing nothing, unless a whole number from 1 to 4294967295 or null. */
  setGraphSoftCap(cap: number | null): Promise<void>;
  /** The whole state now, in the state file's format (restore() and `seed` take it): read at once, it holds the calls settled so far. Throws once close() was called. */
  snapshot(): string;
  restore(snapshot: string): Promise<void>;
  /** Back to the state it started from: the state file's, else the seed's, else an empty sandbox. */
  reset(): Promise<void>;
  /** The webhook events made so far (the last 10,000), oldest first, with the ids they are sent under. */
  events(): Promise<{ id: string; type: string; payload: Record<string, unknown> }[]>;
  /** The webhook endpoints with their secrets, to verify deliveries with; read at once, as snapshot() is. */
  webhookEndpoints(): { id: string; url: string; events: string[]; secret: string }[];
  close(): Promise<void>;
}

const STATE_WANTED = "a state file's path";
const SEED_WANTED = "a seed (an object), a snapshot() or a YAML or JSON file's path";

/**
 * The options as `mq sandbox` takes its flags, checked before anything starts: a RangeError naming each option it
 * cannot take (a typo, a clock or permission it does not know, a port that is no number, an empty token), where
 * the server would run on something else than asked (a real clock, a Unix socket, a read-only key).
 */
const Options = z.strictObject({
  clock: z.enum(['manual', 'real']).optional(),
  speed: z.number().optional(),
  // An empty path too said in the option's words: zod's own ("Too small: …") would not say what it takes.
  state: z.string({ error: STATE_WANTED }).min(1, STATE_WANTED).optional(),
  seed: z.union([z.string().min(1, SEED_WANTED), z.record(z.string(), z.unknown())], { error: SEED_WANTED }).optional(),
  token: z.string().regex(TOKEN_RULE.pattern, TOKEN_RULE.problem).optional(),
  keys: z
    .array(
      z.strictObject({
        key: z.string().regex(/^\S+$/, 'a key is one or more characters, no spaces'),
        permissions: z.union([z.literal('all'), z.array(z.string())], { error: "a list of permissions, or 'all'" }).optional(),
      }),
    )
    .optional(),
  rateLimits: z.boolean().optional(),
  estimates: z.boolean().optional(),
  graphSoftCap: z.unknown().optional(),
  port: z.number().int().min(0).max(65_535).optional(),
  webhooks: z
    .array(
      z.strictObject({
        url: WebhookUrl,
        events: z.array(z.string()).optional(),
        secret: SigningSecret.optional(),
      }),
    )
    .optional(),
});

function checkedOptions(options: SandboxOptions): Omit<SandboxOptions, 'keys'> & { keys?: V2Key[] } {
  const parsed = Options.safeParse(options, IN_ENGLISH);
  if (!parsed.success) throw new RangeError(`startSandbox: ${describeIssues(parsed.error)}`);
  if (options.speed !== undefined && options.clock !== 'real') throw new RangeError("startSandbox: speed: only with clock: 'real'");
  if (options.speed !== undefined && !(options.speed > 0 && options.speed <= SPEED_MAX)) {
    throw new RangeError(`startSandbox: speed: ${shownValue(options.speed)} is not ${SPEED_RANGE}`);
  }
  options.keys?.forEach(({ permissions = [] }, i) => {
    const unknown = permissions === 'all' ? undefined : permissions.find((word) => word !== 'all' && !(V2_PERMISSIONS as readonly string[]).includes(word));
    if (unknown !== undefined) {
      throw new RangeError(`startSandbox: keys[${i}].permissions: ${shownValue(unknown)} is no permission: give ${V2_PERMISSIONS.join(', ')} or all`);
    }
  });
  options.webhooks?.forEach((webhook, i) => {
    const refused = refuseFilter(webhook.events ?? []);
    if (refused) throw new RangeError(`startSandbox: webhooks[${i}].events: ${refused}`);
  });
  // `all` as --key takes it: every permission, alone or in the list.
  const keys = options.keys?.map(({ key, permissions }): V2Key => ({ key, permissions: grantedPermissions(permissions) }));
  const { keys: _given, ...rest } = options;
  return { ...rest, ...(keys && { keys }) };
}

/** Each control route by the method that calls it, to name that method in a refusal. */
const LIB_NAMES: Record<ControlName, string> = { advance: 'advance', pullRequests: 'setPullRequest', graphSoftCap: 'setGraphSoftCap' };

export async function startSandbox(given: SandboxOptions = {}): Promise<Sandbox> {
  const options = checkedOptions(given);
  // A seed or state file it cannot take is an option it cannot take, said as the others are (the command line's
  // error classes are no library's).
  const optionFailure = (error: unknown): never => {
    if (error instanceof ConfigError || error instanceof StateFileError) throw new RangeError(`startSandbox: ${error.message}`, { cause: error });
    throw error;
  };
  const serverOptions = await withSeed(
    {
      clock: options.clock ?? 'manual',
      port: options.port ?? 0,
      ...(options.speed !== undefined && { speed: options.speed }),
      ...(options.state !== undefined && { stateFile: options.state }),
      ...(options.token !== undefined && { token: options.token }),
      ...(options.keys !== undefined && options.keys.length > 0 && { keys: options.keys }),
      ...(options.rateLimits !== undefined && { rateLimits: options.rateLimits }),
      ...(options.estimates !== undefined && { estimates: options.estimates }),
      ...(options.graphSoftCap !== undefined && { graphSoftCap: options.graphSoftCap }),
      ...(options.webhooks !== undefined && options.webhooks.length > 0 && { webhooks: options.webhooks }),
    },
    options.seed,
  ).catch(optionFailure);
  const server = await startServer(serverOptions).catch((error: NodeJS.ErrnoException) => {
    if (error.syscall === 'listen' && error.code === 'EADDRINUSE') {
      throw new RangeError(`startSandbox: port: ${options.port} is in use: give 0 (any free port) or another port`, { cause: error });
    }
    return optionFailure(error);
  });
  // What reset() returns to: the state file's state when it held one (the seed was not used), else the seed's.
  const first = server.snapshot();
  const control = async <K extends ControlName>(name: K, body: ControlBodies[K]): Promise<unknown> => {
    const answer = await server.control(name, body);
    // A body the route refused is a bad argument, as those refused here are, and so are facts GitHub would refuse
    // (a merged PR's new base: 422); anything else the sandbox's failure.
    if (answer.status === 400 || answer.status === 422)
      throw new RangeError(
        `${LIB_NAMES[name]}: ${String(answer.body)
          .trim()
          .replace(/^invalid request: /, '')}`,
      );
    if (answer.status !== 200) throw new Error(`sandbox: ${name}: ${String(answer.body).trim()}`);
    return JSON.parse(String(answer.body)) as unknown;
  };
  const { origin } = server;
  // The calls take effect in the order they are made, awaited or not (`restore(s); advance(5)` advances the
  // restored state), and none after close(): the changes would be lost, and a state file not written.
  let turn: Promise<unknown> = Promise.resolve();
  let closed = false;
  const CLOSED = 'sandbox: closed (close() was called): start another';
  // The two reads that answer at once: they cannot wait their turn, and say so rather than read a sandbox gone.
  const open = <T>(read: () => T): T => {
    if (closed) throw new Error(CLOSED);
    return read();
  };
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error(CLOSED));
    const run = turn.then(work);
    turn = run.catch(() => undefined);
    return run;
  };
  return {
    url: origin,
    v1Url: server.url,
    v2Url: `${origin}/v2`,
    token: server.token,
    key: server.key,
    advance: (seconds) =>
      inTurn(async () => {
        // Said here: JSON would send NaN and Infinity as null, and the refusal would speak of a null.
        if (typeof seconds !== 'number' || !Number.isFinite(seconds))
          throw new RangeError(`advance: seconds must be a finite number, not ${shownValue(seconds)}`);
        return new Date(((await control('advance', { seconds })) as { now: string }).now);
      }),
    setPullRequest: (facts) =>
      inTurn(async () => {
        if (typeof facts !== 'object' || facts === null || Array.isArray(facts)) {
          throw new RangeError(`setPullRequest: facts must be an object ({ repo, number, … }), not ${shownValue(facts)}`);
        }
        await control('pullRequests', facts);
      }),
    setGraphSoftCap: (cap) =>
      inTurn(async () => {
        checkGraphSoftCap(cap);
        await control('graphSoftCap', { cap });
      }),
    snapshot: () => open(() => server.snapshot()),
    restore: (snapshot) => inTurn(() => server.restore(snapshot)),
    // The cap given to startSandbox is the sandbox's, as its token is: a seed without it does not lift it.
    reset: () =>
      inTurn(async () => {
        await server.restore(first);
        if (options.graphSoftCap !== undefined) await control('graphSoftCap', { cap: options.graphSoftCap });
      }),
    events: () =>
      inTurn(async () => {
        const response = await fetch(`${origin}/_sandbox/${WEBHOOK_ROUTES.events.path}`, { headers: { 'x-api-token': server.token } });
        if (!response.ok) throw new Error(`sandbox: events: ${response.status} ${(await response.text()).trim()}`);
        return ((await response.json()) as { events: { id: string; type: string; payload: Record<string, unknown> }[] }).events;
      }),
    webhookEndpoints: () => open(() => server.webhookEndpoints().map(({ id, url, events, secret }) => ({ id, url, events, secret }))),
    close: () => {
      closed = true;
      return turn.then(async () => void (await server.close()));
    },
  };
}
