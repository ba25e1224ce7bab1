// Seeds: a sandbox's first state declared in a file (YAML or JSON) or an object: repositories, queues and their
// settings, PRs with their facts (submitted to a queue or not), tickets linked to the flaky tests, v2 keys. A seed
// is turned into the state file's document by doing its changes on a fresh engine, so it is checked as requests
// are; a state file's document (a snapshot) is taken as a seed as it is. docs/sandbox.md (Seeds) shows one.
import * as z from 'zod';
import { describeIssues } from '../../api/format-path.js';
import { SigningSecret, WebhookUrl } from '../../api/sandbox-webhooks.js';
import { grantedPermissions, V2_PERMISSIONS } from '../../api/v2/contract.js';
import { repoFrom } from '../../config/repo.js';
import { ConfigError } from '../../errors.js';
import type { Repo } from '../../model/repository.js';
import { PRIORITY_NAMES, QUEUE_MODES, SETTING_MAX } from '../../model/vocabulary.js';
import { GraphSoftCap, perform, RecordedDescription, SettingsChange } from '../engine/changes.js';
import { QueueEngine } from '../engine/engine.js';
import { MANUAL_CLOCK_START } from './clock.js';
import type { SandboxOptions as ServerOptions } from './server.js';
import type { V2Key } from './v2/face.js';
import { refuseFilter } from './webhooks/control-routes.js';
import { IN_ENGLISH } from '../../text/in-english.js';

/** `owner/name` or `host/owner/name`, as --repo takes it. */
const RepoName = z.string().transform((text, context): Repo => {
  const parsed = repoFrom(text);
  if (parsed.ok) return parsed.value;
  context.addIssue({ code: 'custom', message: `"${text}" ${parsed.problem}` });
  return z.NEVER;
});

const Priority = z.union([z.number().int().min(0), z.enum(Object.keys(PRIORITY_NAMES) as [string, ...string[]])]);

const SeedQueue = z.strictObject({
  repo: RepoName,
  branch: z.string().min(1),
  mode: z.enum(QUEUE_MODES).optional(),
  concurrency: z.number().int().min(1).max(SETTING_MAX).optional(),
  /** The settings `mq queue update` sets, state (paused, draining) too. */
  settings: SettingsChange.optional(),
});

const SeedPullRequest = RecordedDescription.omit({ repo: true })
  .extend({
    repo: RepoName,
    /** Submitted to this branch's queue once its facts are set. */
    submit: z.strictObject({ branch: z.string().min(1), priority: Priority.optional(), noBatch: z.boolean().optional() }).optional(),
  })
  .strict();

const SeedKey = z.strictObject({
  key: z.string().regex(/^\S+$/, 'a key has no spaces'),
  permissions: z.union([z.literal('all'), z.array(z.enum(V2_PERMISSIONS as [string, ...string[]]))]).optional(),
});

/** A seed as a file or `startSandbox({ seed })` declares it. */
export const Seed = z.strictObject({
  $schema: z.string().optional(),
  /** Known to the service without a queue (v2 lists them). */
  repositories: z.array(RepoName).optional(),
  queues: z.array(SeedQueue).optional(),
  pullRequests: z.array(SeedPullRequest).optional(),
  /** Tickets linked to the catalogue's flaky tests (docs/sandbox.md: the flaky tests), by test id. */
  flakyTests: z.array(z.strictObject({ repo: RepoName, testId: z.string().min(1), ticket: z.string().min(1) })).optional(),
  /** v2 keys: exactly these (with `--key`'s), read-only without permissions. */
  keys: z.array(SeedKey).optional(),
  /**
   * Webhook endpoints, as `--webhook` and the library's `webhooks` give them: each sent the events of its kinds (all
   * without), signed with its secret (one made for it without: a receiver configured with one needs it given).
   */
  webhooks: z.array(z.strictObject({ url: WebhookUrl, events: z.array(z.string()).optional(), secret: SigningSecret.optional() })).optional(),
  /** How many of a queue's line its graph admits, as `--graph-soft-cap` (which, given, is taken instead). */
  graphSoftCap: GraphSoftCap.optional(),
});

export type SeedInput = z.input<typeof Seed>;

/** What a seed starts a sandbox with: the state's document, and the keys it declares. */
export interface SeedState {
  document: string;
  keys?: V2Key[];
  webhooks?: { url: string; events: string[]; secret?: string }[];
}

/** A seed's changes done on a fresh engine at `now`; a mistake found by the engine names the seed's path too. */
function seedState(input: unknown, now: number, where: string, graphSoftCap: number | null | undefined): SeedState {
  if (isStateDocument(input)) return { document: JSON.stringify(input) };
  const parsed = Seed.safeParse(input, IN_ENGLISH);
  if (!parsed.success) throw new ConfigError(`${where}: ${describeIssues(parsed.error)}`);
  const seed = parsed.data;
  const engine = QueueEngine.create({ now });
  // The sandbox's cap holds from the start: the seed's PRs are admitted under it, as later ones are.
  const cap = graphSoftCap === undefined ? seed.graphSoftCap : graphSoftCap;
  if (cap != null) perform(engine, 'setGraphSoftCap', { cap });
  const at = (path: string, change: () => void) => {
    try {
      change();
    } catch (error) {
      throw new ConfigError(`${where}: ${path}: ${(error as Error).message}`, { cause: error });
    }
  };
  seed.repositories?.forEach((repo, i) => at(`repositories[${i}]`, () => perform(engine, 'knowRepository', { repo })));
  seed.queues?.forEach(({ repo, branch, mode, concurrency, settings }, i) =>
    at(`queues[${i}]`, () => {
      const queue = { repo, targetBranch: branch };
      perform(engine, 'createQueue', { queue, settings: { mode, concurrency } });
      if (settings) perform(engine, 'updateQueue', { queue, change: settings });
    }),
  );
  seed.pullRequests?.forEach(({ submit, ...facts }, i) =>
    at(`pullRequests[${i}]`, () => {
      perform(engine, 'describePullRequest', facts);
      if (submit) {
        const options = { priority: submit.priority as never, noBatch: submit.noBatch };
        perform(engine, 'submitPullRequest', { queue: { repo: facts.repo, targetBranch: submit.branch }, pr: facts.number, options });
      }
    }),
  );
  seed.flakyTests?.forEach(({ repo, testId, ticket }, i) =>
    at(`flakyTests[${i}]`, () => perform(engine, 'linkTicketToTestCase', { repo, testId, ticketId: ticket })),
  );
  const keys = seed.keys?.map(({ key, permissions }) => ({ key, permissions: grantedPermissions(permissions) })) as V2Key[] | undefined;
  const webhooks = seed.webhooks?.map(({ url, events = [], secret }, i) => {
    const refused = refuseFilter(events);
    if (refused) throw new ConfigError(`${where}: webhooks[${i}].events: ${refused}`);
    return { url, events, ...(secret !== undefined && { secret }) };
  });
  return { document: engine.serialize(), ...(keys && { keys }), ...(webhooks && { webhooks }) };
}

/** A state file's document (what `snapshot()` and `--export-on-exit` write): its version and clock. */
function isStateDocument(input: unknown): boolean {
  return typeof input === 'object' && input !== null && 'version' in input && 'now' in input;
}

/** A seed given as an object, a file's path, or a snapshot (a string holding a JSON document). */
export async function loadSeed(seed: SeedInput | string | undefined, now: number, graphSoftCap?: number | null): Promise<SeedState | undefined> {
  if (seed === undefined) return undefined;
  if (typeof seed !== 'string') return seedState(seed, now, 'seed', graphSoftCap);
  if (seed.startsWith('{')) return seedState(JSON.parse(seed) as unknown, now, 'seed', graphSoftCap);
  const { loadDataFile } = await import('../../config/config-loader.js');
  return seedState((await loadDataFile(seed, `seed ${seed}`)).data, now, `seed ${seed}`, graphSoftCap);
}

/**
 * A server's options with a seed's, for the library and `mq sandbox` alike: the seed's state to start from (its
 * changes made at the manual clock's start, or now), its keys and webhook endpoints after those given outright.
 */
export async function withSeed(options: ServerOptions, seed: SeedInput | string | undefined): Promise<ServerOptions> {
  const seeded = await loadSeed(seed, options.clock === 'manual' ? MANUAL_CLOCK_START : Date.now(), options.graphSoftCap);
  if (!seeded) return options;
  const keys = [...(options.keys ?? []), ...(seeded.keys ?? [])];
  const webhooks = [...(options.webhooks ?? []), ...(seeded.webhooks ?? [])];
  return { ...options, initial: seeded.document, ...(keys.length > 0 && { keys }), ...(webhooks.length > 0 && { webhooks }) };
}
