// mq queue: the queue itself, its state, settings and maintenance window, and what tests next.
import type { FlagSpec } from '../../argv-spec.js';
import { parseCount } from '../../command-kit/input.js';
import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { VOCABULARY } from '../../command-kit/vocabulary.js';
import { WAIT_INTERVAL } from '../../command-kit/words.js';

const YES = { flags: '-y, --yes', description: 'do not ask for confirmation' } as const satisfies FlagSpec;

const ALL_QUEUES = {
  flags: '--all-queues',
  description: 'every queue of the organization (v2 API): each reported on its own line, exit 1 if any failed',
} as const satisfies FlagSpec;

const ALL_QUEUES_NOTES = `
--all-queues acts on every queue of the organization, as mq queues lists them (the v2 API; on v1, exit 2):
the confirmation lists them (or --yes), each is changed and reported on its own line, a queue already so
is left as it is, and a failure on one does not stop the others (exit 1 if any failed).
`;

/** One flag per queue setting (queue create, queue update), from the QueueSettings schema. */
const QUEUE_SETTING_FLAGS: readonly FlagSpec[] = VOCABULARY.settingFlags.flatMap((flag): FlagSpec[] => {
  const name = `--${flag.name}`;
  switch (flag.kind) {
    case 'boolean':
      // deleteRequiredStatuses is an action, not a setting to turn off.
      return [
        { flags: name, description: flag.description },
        ...(flag.key === 'deleteRequiredStatuses' ? [] : [{ flags: `--no-${flag.name}`, description: '' }]),
      ];
    case 'choice':
      return [{ flags: `${name} <value>`, description: flag.description, choices: flag.choices ?? [] }];
    case 'list':
      return [{ flags: `${name} <name>`, description: flag.description, parse: (value, previous) => [...((previous as string[] | undefined) ?? []), value] }];
    case 'number':
      return [{ flags: `${name} <n>`, description: flag.description, parse: (value) => parseCount(name, value, { min: flag.min }) }];
    case 'text':
      return [{ flags: `${name} <text>`, description: flag.description }];
  }
});

export const QUEUE_GET = {
  name: 'get',
  description: "the queue's state and its PRs, then its settings",
  flags: [
    { flags: '--settings', description: 'on a terminal, every setting rather than a summary (as does -v; a pipe gets them all)' },
    { flags: '--watch', description: 'refresh until Ctrl-C: a full-window view on a terminal, once per change in a pipe (NDJSON under --json)' },
    { flags: '--interval <duration>', description: 'with --watch: pause between refreshes, at least 1s (default 2s)' },
  ],
  examples: ['mq queue get', 'mq queue get --settings', 'mq queue get --json', 'mq queue get --watch', 'mq queue get --watch --interval 5s > queue.log'],
  load: async (): Promise<AnyParse> => (await import('./get.js')).parseQueueGet,
} as const satisfies CommandSpec;

const QUEUE_CREATE = {
  name: 'create',
  description: 'create the queue for the target branch',
  flags: QUEUE_SETTING_FLAGS,
  examples: ['mq queue create', 'mq queue create --mode parallel --concurrency 4 --batch'],
  load: async (): Promise<AnyParse> => (await import('./create.js')).parseQueueCreate,
} as const satisfies CommandSpec;

export const QUEUE_UPDATE = {
  name: 'update',
  description: "change the queue's settings",
  flags: [...QUEUE_SETTING_FLAGS, { flags: '--plan', description: "print what the change would do (the last 14 days' workload simulated) and change nothing" }],
  examples: [
    'mq queue update --concurrency 3',
    'mq queue update --concurrency 6 --plan',
    'mq queue update --batch --batching-min-size 4',
    'mq queue update --required-status ci/build --required-status ci/test',
  ],
  load: async (): Promise<AnyParse> => (await import('./update.js')).parseQueueUpdate,
} as const satisfies CommandSpec;

export const QUEUE_PAUSE = {
  name: 'pause',
  description: 'stop starting tests and merging (runs in flight finish); a paused queue is left as it is',
  flags: [
    { flags: '--reason <text>', description: 'why, for the confirmation and the printed result (CI logs) only: the service stores no reason' },
    YES,
    ALL_QUEUES,
  ],
  examples: ['mq queue pause', 'mq queue pause --reason "release 4.2" --yes', 'mq queue pause --all-queues --reason "deploy freeze" --yes'],
  notes: ALL_QUEUES_NOTES,
  load: async (): Promise<AnyParse> => (await import('./state.js')).parseQueuePause,
} as const satisfies CommandSpec;

export const QUEUE_DRAIN = {
  name: 'drain',
  description: 'finish the PRs in the queue, admit no new ones; a draining queue is left as it is',
  flags: [
    YES,
    { flags: '--wait', description: 'then wait until no admitted PR is left (--timeout bounds the wait: exit 7, default 30m)' },
    WAIT_INTERVAL,
    ALL_QUEUES,
  ],
  examples: ['mq queue drain --yes', 'mq queue drain --yes --wait --timeout 2h && deploy.sh', 'mq queue drain --all-queues --yes'],
  notes: ALL_QUEUES_NOTES,
  load: async (): Promise<AnyParse> => (await import('./state.js')).parseQueueDrain,
} as const satisfies CommandSpec;

export const QUEUE_RESUME = {
  name: 'resume',
  description: 'set the queue running again; a running queue is left as it is',
  flags: [ALL_QUEUES, YES],
  examples: ['mq queue resume', 'mq queue resume --all-queues --yes'],
  notes: ALL_QUEUES_NOTES,
  load: async (): Promise<AnyParse> => (await import('./state.js')).parseQueueResume,
} as const satisfies CommandSpec;

export const QUEUE_DELETE = {
  name: 'delete',
  description: 'delete the queue (it must be empty)',
  flags: [YES, { flags: '--cancel-all', description: 'cancel the PRs still in the queue first' }],
  examples: ['mq queue delete --yes', 'mq queue delete --cancel-all --yes'],
  load: async (): Promise<AnyParse> => (await import('./delete.js')).parseQueueDelete,
} as const satisfies CommandSpec;

export const QUEUE_SWITCH_MODE = {
  name: 'switch-mode',
  description: 'convert the queue to single or parallel mode (v2 names: queue, graph)',
  args: [{ name: '<mode>', description: "single or parallel (or v2's names, queue or graph)", choices: ['single', 'parallel', 'queue', 'graph'] }],
  flags: [
    { flags: '--wait', description: 'then wait until the queue no longer reads switching_modes (--timeout bounds the wait: exit 7, default 30m)' },
    WAIT_INTERVAL,
  ],
  examples: ['mq queue switch-mode parallel', 'mq queue switch-mode single --wait --timeout 10m'],
  notes:
    '\nThe queue reads switching_modes until the runs in flight finish; --wait returns when it no longer does\n' +
    '(exit 7 on --timeout). A queue already in that mode is left as it is. A switch already under way is\n' +
    'refused by the service (409 MODE_CHANGE_IN_PROGRESS, exit 5).\n',
  load: async (): Promise<AnyParse> => (await import('./switch-mode.js')).parseQueueSwitchMode,
} as const satisfies CommandSpec;

// -- what tests next
const QUEUE_ORDER = {
  name: 'order',
  description: 'what tests next: batches with a run, then the PRs waiting, each with its predicted batch and what it waits on',
  examples: ['mq queue order', "mq queue order --json | jq -c '.pending[] | [.pullRequest.prNumber, .directlyAhead]'"],
  notes:
    '\nA predicted batch is the order the queue considers PRs in, not a wait: several batches start together, and in a\n' +
    'parallel queue the PRs ahead may be on unrelated branches; WAITS ON names the PRs each waits on directly. PRs\n' +
    "not ready hold no place and are left out (mq queue get lists them). Where the service tells only the queue's\n" +
    'order, that is what is shown: no predicted batch, nothing waited on (null under --json).\n',
  load: async (): Promise<AnyParse> => (await import('./order.js')).parseQueueOrder,
} as const satisfies CommandSpec;

export const QUEUE_GRAPH = {
  name: 'graph',
  description: 'the dependency graph of a parallel queue: lanes in the terminal, or Graphviz / Mermaid text',
  flags: [
    {
      flags: '--format <format>',
      description: 'text: lanes drawn in the terminal (default); dot: Graphviz; mermaid: a Mermaid flowchart',
      choices: ['text', 'dot', 'mermaid'],
    },
    { flags: '--impacted-targets', description: "ask for each PR's impacted targets and each edge's common ones, shown under --json (costly for the service)" },
  ],
  examples: [
    'mq queue graph',
    'mq queue graph --format dot | dot -Tsvg > queue.svg',
    'mq queue graph --format mermaid',
    'mq queue graph --json --impacted-targets',
  ],
  notes:
    '\nA PR below another, joined by a line, waits on it: their impacted targets overlap. Each PR reads\n' +
    '`#N title (state)`. The graph says what depends on what, not what tests next (mq queue order). It holds the\n' +
    "PRs admitted to it: past the queue's graph soft cap, mq queue order lists the rest (awaiting admission). It\n" +
    'needs the v2 API (a v2 API key): on v1 it is refused, exit 2.\n',
  load: async (): Promise<AnyParse> => (await import('./order.js')).parseQueueGraph,
} as const satisfies CommandSpec;

export const QUEUE = {
  name: 'queue',
  description: 'the queue itself: its state, settings and maintenance window',
  examples: ['mq queue get', 'mq queue pause --reason "deploy freeze" --yes', 'mq queue drain --yes', 'mq queue resume'],
  subcommands: [QUEUE_GET, QUEUE_CREATE, QUEUE_UPDATE, QUEUE_PAUSE, QUEUE_DRAIN, QUEUE_RESUME, QUEUE_DELETE, QUEUE_SWITCH_MODE, QUEUE_ORDER, QUEUE_GRAPH],
} as const satisfies CommandSpec;
