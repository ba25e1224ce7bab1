// Every command of mq as data: its name, arguments, flags and help, and where its code is. Nothing here loads
// a command: `load` imports the command's module only when commander has chosen it, so `mq --help`, `mq help`
// and `mq completion` read this table and no more, and `mq status` loads status alone.
import type { ArgSpec, FlagSpec, WordSpecs } from '../argv-spec.js';
import type { ArgvIo, Invocation, Parse } from '../commands/invocation.js';
import {
  COMPLETION,
  CONFIG_INIT,
  EDIT,
  FLAKY_LINK_TICKET,
  FLAKY_LIST,
  HELP,
  HISTORY,
  LIST,
  METRICS,
  PR_LIST,
  QUEUE_DELETE,
  QUEUE_DRAIN,
  QUEUE_GET,
  QUEUE_GRAPH,
  QUEUE_ORDER,
  QUEUE_PAUSE,
  QUEUE_RESUME,
  QUEUE_SWITCH_MODE,
  QUEUES,
  RUNS,
  SANDBOX,
  STATS,
  STATUS,
  SUBMIT,
  TARGETS_SET,
  TEST_DETAILS,
  TESTING,
  VOICE_FLAGS,
  WAIT,
} from '../commands/command-words.js';
import { COMPLETION_INSTALL, SHELLS } from '../completion/shells.js';
import { parseCount } from '../commands/input.js';
import { HELP_TOPICS } from '../help/topics.js';
import { VOCABULARY } from '../commands/vocabulary.js';
import { SETTING_FLAGS, envName } from '../config/setting-rows.js';

export type { ArgSpec, FlagSpec };

/** What runs a command's words, whichever specs they have: `parsedBy` checks each pairing where the table makes it. */
// biome-ignore lint/suspicious/noExplicitAny: commander hands each parse function the words of the specs parsedBy paired it with
export type AnyParse = (words: any, io: ArgvIo) => Invocation | Promise<Invocation>;

export interface CommandSpec {
  name: string;
  description: string;
  args?: readonly ArgSpec[];
  flags?: readonly FlagSpec[];
  /** Shown under "Examples:" in the command's help, each after `$ `. */
  examples: readonly string[];
  /** Help text after the examples. */
  notes?: string;
  subcommands?: readonly CommandSpec[];
  /** The command's argv parsing, which hands the runner its input and handler; a group has none. */
  load?: () => Promise<AnyParse>;
}

/** A command's arguments and flags, with the parse function typed by them: loaded when commander has chosen it. */
function parsedBy<const S extends WordSpecs>(specs: S, load: () => Promise<Parse<S>>): S & { load: () => Promise<AnyParse> } {
  return { ...specs, load };
}

/** Flags every command takes, wherever they are written: the settings' (a row each), then how much to say. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [...SETTING_FLAGS, ...VOICE_FLAGS];

export const PROGRAM = {
  name: 'mq',
  description: 'Drive a merge queue from the terminal: submit, watch, pause, drain and tune it.',
  examples: ['mq submit 42', 'mq status 42', 'mq queue get --repo acme/widgets', 'mq sandbox --clock manual'],
};

const WAIT_NOTES = `
Exit codes: 0 every PR reached the state; 1 one ended in another final state (merged, failed, cancelled)
or is unknown beside known ones; 3 a 401 or 403; 4 none is known (never submitted); 7 --timeout came first;
130 Ctrl-C. An outage (5xx, 429, refused, reset, timeout) does not end the wait: it is shown, with since when,
and the checks go on until the service is back or --timeout passes.

A PR seen past the state waited for (it moved between two checks) has reached it: --for testing is met by a
PR already merged. While nothing changes the pause grows (x1.5, up to 4x --interval or 60s); a change resets it.

On a terminal each PR has a live line; in a pipe a line per change ("#42 testing (position 1)"); under --json
an NDJSON line per change, then {"summary": …}.
`;

const CONFIG_INIT_NOTES = `
It writes .mqrc.yaml at the git root (outside a checkout: in the working directory), or with --user
$XDG_CONFIG_HOME/mq/config.yaml (default ~/.config/mq/). On a terminal it asks for what no flag gives
(repository, target branch, API URL, output); otherwise it writes the flags and what it infers (the
repository from the git remote origin) without asking. Flags it writes: --repo, --branch, --api-url, --org,
--output (not --json), and with --user --token-command, --token-file. A key at mq's default is left out, but
a project file always names its repository and target branch. It never asks for the token nor writes it: set
${envName('token')}, or name a tokenCommand or tokenFile in the user file (a project file may not). A config file
already in that directory is replaced only with --force (exit 2 otherwise); the file is checked against the
same schema mq reads config files with.
`;

/** The flaky-test commands' note: the flag they need is a global one, listed in its topic, not in their help. */
const NEEDS_ORG = `Needs the organization slug: --org, ${envName('org')}, or "org" in a config file.`;

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
      return flag.key === 'deleteRequiredStatuses'
        ? [{ flags: name, description: flag.description }]
        : [
            { flags: name, description: flag.description },
            { flags: `--no-${flag.name}`, description: '' },
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

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'submit',
    description: 'submit pull requests to the queue',
    ...parsedBy(SUBMIT, async () => (await import('../commands/submit.js')).parseSubmit),
    examples: ['mq submit 42', 'mq submit 42 43 --priority high', 'mq submit 42 --priority urgent --no-batch', 'mq submit 42 --wait --timeout 1h'],
  },
  {
    name: 'wait',
    description: 'wait until pull requests reach a state: merged, unless --for says another',
    ...parsedBy(WAIT, async () => (await import('../commands/wait.js')).parseWait),
    examples: ['mq wait 42', 'mq wait 42 43 --timeout 1h', 'mq wait 42 --for testing --interval 5s', "mq wait 42 --json | jq -c 'select(.summary)'"],
    notes: WAIT_NOTES,
  },
  {
    name: 'cancel',
    description: 'remove pull requests from the queue',
    ...parsedBy(PR_LIST, async () => (await import('../commands/pull-requests.js')).parseCancel),
    examples: ['mq cancel 42', 'mq cancel 42 43 --json'],
  },
  {
    name: 'restart',
    description: 're-run the tests of pull requests in the queue',
    ...parsedBy(PR_LIST, async () => (await import('../commands/pull-requests.js')).parseRestart),
    examples: ['mq restart 42'],
  },
  {
    name: 'edit',
    description: 'change queued pull requests in place: priority, batching, direct (v2 API)',
    ...parsedBy(EDIT, async () => (await import('../commands/entries.js')).parseEdit),
    examples: ['mq edit 42 --priority high', 'mq edit 42 43 --no-batch', 'mq edit 42 --priority urgent --direct --json'],
    notes:
      '\nNeeds the v2 API (a v2 API key); on v1 it is refused (exit 2): cancel the PR and submit it again.\n' +
      'A PR in no live state (merged, failed, cancelled) is refused by the service (409, exit 5). Raising the\n' +
      'priority of a queued PR restarts nothing: it takes effect the next time the queue places it.\n',
  },
  {
    name: 'status',
    description: "a PR's state and readiness, and why it is not moving",
    ...parsedBy(STATUS, async () => (await import('../commands/status.js')).parseStatus),
    examples: ['mq status 42', 'mq status            # the PR of the current branch', 'mq status 42 --json'],
  },
  {
    name: 'history',
    description: "every state change of a PR's queue entries, with reason, actor and run",
    ...parsedBy(HISTORY, async () => (await import('../commands/entries.js')).parseHistory),
    examples: ['mq history 42', 'mq history 42 --json'],
    notes:
      '\nOldest first. On the v2 API every entry the PR ever had, each change with who made it (none: the\n' +
      "queue itself) and the run behind it. On v1 it is the PR's timeline (getSubmittedPullRequest): the same\n" +
      'states, times and reasons, without actors or runs. Reasons are shown as the service words them.\n',
  },
  {
    name: 'runs',
    description: "the queue's test runs, or a PR's, newest first (v2 API)",
    ...parsedBy(RUNS, async () => (await import('../commands/entries.js')).parseRuns),
    examples: ['mq runs', 'mq runs --status failed --since 24h', 'mq runs 42', 'mq runs 42 --json'],
    notes:
      "\nmq testing --run <id> shows one run's checks. --since counts back on the service's clock. Needs the v2\n" +
      'API (a v2 API key): on v1 it is refused (exit 2), and mq testing <pr> shows the run that last tested a PR.\n',
  },
  {
    name: 'list',
    description: "the queue's pull requests, current and past",
    ...parsedBy(LIST, async () => (await import('../commands/list.js')).parseList),
    examples: [
      'mq list',
      'mq list --state merged --since 24h',
      'mq list --since 2026-01-01T00:00:00Z --until 2026-01-08T00:00:00Z',
      'mq list --limit 200 --json',
    ],
    notes:
      '\n--since and --until bound when a PR concluded (merged, failed or cancelled), both inclusive: a PR still\nin the queue has not concluded and is left out by either.\n',
  },
  {
    name: 'stats',
    description: 'what the queue did over a window: conclusions, rates, per day, and last-hour durations',
    ...parsedBy(STATS, async () => (await import('../commands/stats.js')).parseStats),
    examples: ['mq stats', 'mq stats --since 30d --by author', 'mq stats --since 2026-01-01T00:00:00Z --until 2026-01-08T00:00:00Z --json'],
    notes:
      '\nThe window bounds when a PR concluded (merged, failed or cancelled), both inclusive; days are UTC.\n' +
      "Time in queue, time testing and restarts come from the service's metrics, over the last hour only:\n" +
      'the v1 history records when a PR concluded, not when it entered the queue. p50/p90 are interpolated\n' +
      'within the histogram buckets; max is the bound of the highest bucket holding a PR.\n',
  },
  {
    name: 'testing',
    description: "details of a test run: the one that last tested a PR, or --run's",
    ...parsedBy(TESTING, async () => (await import('../commands/testing.js')).parseTesting),
    examples: ['mq testing 42', 'mq testing --run 3f1c…'],
    notes:
      '\nThe service finds runs by id only. For a PR, mq reads the run its record names (`verifiedByTestRun` of\n' +
      'mq status 42 --json), the latest that tested it, in flight or finished, and asks for that run. A PR not\n' +
      'tested yet has none: exit 4, and --run <testRunId> names a run directly.\n',
  },
  {
    name: 'queue',
    description: 'the queue itself: its state, settings and maintenance window',
    examples: ['mq queue get', 'mq queue pause --reason "deploy freeze" --yes', 'mq queue drain --yes', 'mq queue resume'],
    subcommands: [
      {
        name: 'get',
        description: "the queue's state and its PRs, then its settings",
        ...parsedBy(QUEUE_GET, async () => (await import('../commands/queue/get.js')).parseQueueGet),
        examples: ['mq queue get', 'mq queue get --settings', 'mq queue get --json', 'mq queue get --watch', 'mq queue get --watch --interval 5s > queue.log'],
      },
      {
        name: 'create',
        description: 'create the queue for the target branch',
        flags: QUEUE_SETTING_FLAGS,
        examples: ['mq queue create', 'mq queue create --mode parallel --concurrency 4 --batch'],
        load: async () => (await import('../commands/queue/create.js')).parseQueueCreate,
      },
      {
        name: 'update',
        description: "change the queue's settings",
        flags: QUEUE_SETTING_FLAGS,
        examples: [
          'mq queue update --concurrency 3',
          'mq queue update --batch --batching-min-size 4',
          'mq queue update --required-status ci/build --required-status ci/test',
        ],
        load: async () => (await import('../commands/queue/update.js')).parseQueueUpdate,
      },
      {
        name: 'pause',
        description: 'stop starting tests and merging (runs in flight finish); a paused queue is left as it is',
        ...parsedBy(QUEUE_PAUSE, async () => (await import('../commands/queue/state.js')).parseQueuePause),
        examples: ['mq queue pause', 'mq queue pause --reason "release 4.2" --yes', 'mq queue pause --all-queues --reason "deploy freeze" --yes'],
        notes: ALL_QUEUES_NOTES,
      },
      {
        name: 'drain',
        description: 'finish the PRs in the queue, admit no new ones; a draining queue is left as it is',
        ...parsedBy(QUEUE_DRAIN, async () => (await import('../commands/queue/state.js')).parseQueueDrain),
        examples: ['mq queue drain --yes', 'mq queue drain --yes --wait --timeout 2h && deploy.sh', 'mq queue drain --all-queues --yes'],
        notes: ALL_QUEUES_NOTES,
      },
      {
        name: 'resume',
        description: 'set the queue running again; a running queue is left as it is',
        ...parsedBy(QUEUE_RESUME, async () => (await import('../commands/queue/state.js')).parseQueueResume),
        examples: ['mq queue resume', 'mq queue resume --all-queues --yes'],
        notes: ALL_QUEUES_NOTES,
      },
      {
        name: 'delete',
        description: 'delete the queue (it must be empty)',
        ...parsedBy(QUEUE_DELETE, async () => (await import('../commands/queue/delete.js')).parseQueueDelete),
        examples: ['mq queue delete --yes', 'mq queue delete --cancel-all --yes'],
      },
      {
        name: 'switch-mode',
        description: 'convert the queue to single or parallel mode (v2 names: queue, graph)',
        ...parsedBy(QUEUE_SWITCH_MODE, async () => (await import('../commands/queue/switch-mode.js')).parseQueueSwitchMode),
        examples: ['mq queue switch-mode parallel', 'mq queue switch-mode single --wait --timeout 10m'],
        notes:
          '\nThe queue reads switching_modes until the runs in flight finish; --wait returns when it no longer does\n' +
          '(exit 7 on --timeout). A queue already in that mode is left as it is. A switch already under way is\n' +
          'refused by the service (409 MODE_CHANGE_IN_PROGRESS, exit 5).\n',
      },
      // -- what tests next
      {
        name: 'order',
        description: 'what tests next: batches with a run, then the PRs waiting, each with its predicted batch and what it waits on',
        ...parsedBy(QUEUE_ORDER, async () => (await import('../commands/queue/order.js')).parseQueueOrder),
        examples: ['mq queue order', "mq queue order --json | jq -c '.pending[] | [.pullRequest.prNumber, .directlyAhead]'"],
        notes:
          '\nA predicted batch is the order the queue considers PRs in, not a wait: several batches start together, and in a\n' +
          'parallel queue the PRs ahead may be on unrelated branches; WAITS ON names the PRs each waits on directly. PRs\n' +
          "not ready hold no place and are left out (mq queue get lists them). Where the service tells only the queue's\n" +
          'order, that is what is shown: no predicted batch, nothing waited on (null under --json).\n',
      },
      {
        name: 'graph',
        description: 'the dependency graph of a parallel queue: lanes in the terminal, or Graphviz / Mermaid text',
        ...parsedBy(QUEUE_GRAPH, async () => (await import('../commands/queue/order.js')).parseQueueGraph),
        examples: [
          'mq queue graph',
          'mq queue graph --format dot | dot -Tsvg > queue.svg',
          'mq queue graph --format mermaid',
          'mq queue graph --json --impacted-targets',
        ],
        notes:
          '\nA PR below another, joined by a line, waits on it: their impacted targets overlap. Each PR reads\n' +
          '`#N title (state)`. The graph says what depends on what, not what tests next (mq queue order). It needs the\n' +
          'v2 API (a v2 API key): on v1 it is refused, exit 2.\n',
      },
    ],
  },
  {
    name: 'queues',
    description: 'every queue of the organization: repository, branch, state, mode, PRs in it (v2 API)',
    ...parsedBy(QUEUES, async () => (await import('../commands/queues.js')).parseQueues),
    examples: ['mq queues', 'mq queues --json'],
    notes:
      '\nThe PRs counted are those in the queue now (not ready, pending, testing, tests passed, pending failure),\n' +
      'as the service counts them: one request per queue. On the v1 API there is no list of queues: exit 2.\n',
  },
  {
    name: 'targets',
    description: 'impacted targets of pull requests (parallel queues)',
    examples: ['mq targets set 42 //app:server //lib:db', 'mq targets set 42 --all'],
    subcommands: [
      {
        name: 'set',
        description: "upload a PR's impacted targets",
        ...parsedBy(TARGETS_SET, async () => (await import('../commands/targets.js')).parseTargetsSet),
        examples: ['mq targets set 42 //app:server //lib:db', 'bazel-diff … | mq targets set 42 --file -', 'mq targets set 42 --all'],
      },
    ],
  },
  {
    name: 'metrics',
    description: "the queue's health metrics, as a table",
    ...parsedBy(METRICS, async () => (await import('../commands/metrics.js')).parseMetrics),
    examples: ['mq metrics', 'mq metrics --all-repos', 'mq metrics --raw > metrics.prom'],
  },
  {
    name: 'test-details',
    description: 'one test case of the flaky-test data',
    ...parsedBy(TEST_DETAILS, async () => (await import('../commands/test-details.js')).parseTestDetails),
    examples: ['mq test-details 7f9c0a52-4b1e-4c8e-9a53-1d2e3f405162 --org acme'],
    notes: NEEDS_ORG,
  },
  {
    name: 'flaky',
    description: 'the flaky-test lists, and tickets linked to test cases',
    examples: [
      'mq flaky list --quarantined --org acme',
      'mq flaky list --unhealthy --status broken',
      'mq flaky link-ticket 7f9c0a52-4b1e-4c8e-9a53-1d2e3f405162 KAN-123',
    ],
    subcommands: [
      {
        name: 'list',
        description: 'test cases, each with the id mq test-details takes: one of --quarantined, --unhealthy, --failing',
        ...parsedBy(FLAKY_LIST, async () => (await import('../commands/flaky.js')).parseFlakyList),
        examples: ['mq flaky list --quarantined', 'mq flaky list --unhealthy --status flaky --json', 'mq flaky list --failing --since 72h'],
        notes: NEEDS_ORG,
      },
      {
        name: 'link-ticket',
        description: 'link a ticket (Jira, Linear) to a test case',
        ...parsedBy(FLAKY_LINK_TICKET, async () => (await import('../commands/flaky.js')).parseLinkTicket),
        examples: ['mq flaky link-ticket 7f9c0a52-4b1e-4c8e-9a53-1d2e3f405162 KAN-123'],
      },
    ],
  },
  {
    name: 'doctor',
    description: 'check that mq can work here: Node.js, settings, token, API, service status, clock, repository, queue, proxy',
    examples: ['mq doctor', 'mq doctor --json', `${envName('apiUrl')}=http://127.0.0.1:4000/v1 mq doctor`],
    notes:
      '\nOne line per check, a failure with its fix; a check that needs a failed one is skipped. Exit 0 when all\n' +
      "pass, else the first failure's code (3 config or token, 4 no queue, 6 unreachable or the service impacted,\n" +
      '1 a clock off by more than a minute). Each request is tried once, within 5s or --timeout if shorter.\n' +
      'The token is never shown: only where it comes from.\n',
    load: async () => (await import('../commands/doctor.js')).parseDoctor,
  },
  {
    name: 'config',
    description: "mq's own settings",
    examples: ['mq config init', 'mq config path', 'mq config show --json', 'mq help config'],
    subcommands: [
      {
        name: 'show',
        description: 'every resolved setting and where it came from (never the token)',
        examples: ['mq config show', 'mq config show --profile ci --json'],
        load: async () => (await import('../commands/config/show.js')).parseConfigShow,
      },
      {
        name: 'path',
        description: 'the config files in effect, and where new ones would be written',
        examples: ['mq config path', 'mq config path --json | jq -r .project.path'],
        load: async () => (await import('../commands/config/path.js')).parseConfigPath,
      },
      {
        name: 'init',
        description: 'write a config file: .mqrc.yaml at the git root, or your user file with --user',
        ...parsedBy(CONFIG_INIT, async () => (await import('../commands/config/init.js')).parseConfigInit),
        examples: [
          'mq config init',
          'mq config init --repo acme/widgets --branch main',
          'mq config init --user --api-url https://mq.example.com --token-command "op read op://dev/mq/token"',
        ],
        notes: CONFIG_INIT_NOTES,
      },
    ],
  },
  {
    name: 'completion',
    description: 'print a shell completion script: bash, zsh or fish',
    ...parsedBy(COMPLETION, async () => (await import('../commands/completion.js')).parseCompletion),
    examples: SHELLS.flatMap((shell) => COMPLETION_INSTALL[shell]),
    notes: '\nWrite the script again after upgrading mq: it lists the commands of this version.\n',
  },
  {
    name: 'help',
    description: `help for a command, or a topic: ${HELP_TOPICS.map((topic) => topic.name).join(', ')}`,
    ...parsedBy(HELP, async () => (await import('../commands/help.js')).parseHelp),
    examples: ['mq help queue update', 'mq help exit-codes', 'mq help config', 'mq help environment'],
  },
  {
    name: 'sandbox',
    description: 'run the local emulator of the service (prints its base URL first)',
    ...parsedBy(SANDBOX, async () => (await import('../commands/sandbox.js')).parseSandbox),
    examples: ['mq sandbox', 'mq sandbox --port 8080 --state ./sandbox.json', 'mq sandbox --clock manual --port 0'],
  },
];
