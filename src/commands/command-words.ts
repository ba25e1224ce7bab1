// Each command's positional arguments and its own flags, as data: the command table (src/cli/table.ts) gives
// them to commander, and the command's parse function is typed by them (`Words<typeof LIST>` reads
// `{ state?: string; since?: string; … }`), so a flag is declared here once and read with no cast. Plain data:
// `mq --help` loads this file, and no command's code with it.
import type { ArgSpec, FlagSpec, WordSpecs } from '../argv-spec.js';
import { SHELLS } from '../completion/shells.js';
import { TEST_RUN_STATUSES } from '../model/vocabulary.js';

/** How much to say: flags every command takes besides the settings' (src/config/setting-rows.ts). */
export const VOICE_FLAGS = [
  { flags: '-q, --quiet', description: 'print only results and errors' },
  { flags: '-v, --verbose', description: 'say more about what is happening' },
  { flags: '--debug', description: 'trace every HTTP exchange on stderr (token redacted)' },
] as const satisfies readonly FlagSpec[];

const PRS = { name: '<pr...>', description: 'PR numbers' } as const satisfies ArgSpec;
const YES = { flags: '-y, --yes', description: 'do not ask for confirmation' } as const satisfies FlagSpec;
const WAIT_INTERVAL = {
  flags: '--interval <duration>',
  description: 'with --wait: pause between checks, at least 1s (default 10s)',
} as const satisfies FlagSpec;

export const SUBMIT = {
  args: [PRS],
  flags: [
    { flags: '--priority <priority>', description: 'urgent, high, medium, low, or 0-255 (0 is most urgent)' },
    { flags: '--no-batch', description: 'test these PRs on their own, never in a batch' },
    { flags: '--wait', description: 'then wait until they merge, as mq wait does (--timeout bounds the wait, default 30m)' },
    WAIT_INTERVAL,
  ],
} as const satisfies WordSpecs;

export const WAIT = {
  args: [PRS],
  flags: [
    { flags: '--for <state>', description: 'the state to wait for: merged (default) or any PR state' },
    { flags: '--timeout <duration>', description: 'give up after this long, with exit 7 (default 30m)' },
    { flags: '--interval <duration>', description: 'pause between checks, at least 1s (default 10s); it grows while nothing changes' },
  ],
} as const satisfies WordSpecs;

/** cancel, restart: PR numbers and nothing else. */
export const PR_LIST = { args: [PRS] } as const satisfies WordSpecs;

export const STATUS = { args: [{ name: '[pr]', description: 'PR number (default: the PR of the current git branch)' }] } as const satisfies WordSpecs;

export const LIST = {
  flags: [
    { flags: '--state <state>', description: 'only PRs in this state' },
    { flags: '--since <time>', description: 'only PRs concluded since then: an ISO time or a duration ago (2h)' },
    { flags: '--until <time>', description: 'only PRs concluded until then: an ISO time or a duration ago (1h)' },
    { flags: '--limit <n>', description: 'at most this many PRs (default 50)' },
  ],
} as const satisfies WordSpecs;

export const STATS = {
  flags: [
    { flags: '--since <time>', description: 'window start: an ISO time or a duration ago (default 7d)' },
    { flags: '--until <time>', description: 'window end: an ISO time or a duration ago (default now)' },
    { flags: '--by <key>', description: 'break the counts down by: author' },
  ],
} as const satisfies WordSpecs;

export const TESTING = {
  args: [{ name: '[pr]', description: 'PR number: its run is the one the service names in its record (verifiedByTestRun)' }],
  flags: [{ flags: '--run <testRunId>', description: 'test run id' }],
} as const satisfies WordSpecs;

export const QUEUE_GET = {
  flags: [
    { flags: '--settings', description: 'on a terminal, every setting rather than a summary (as does -v; a pipe gets them all)' },
    { flags: '--watch', description: 'refresh until Ctrl-C: a full-window view on a terminal, once per change in a pipe (NDJSON under --json)' },
    { flags: '--interval <duration>', description: 'with --watch: pause between refreshes, at least 1s (default 2s)' },
  ],
} as const satisfies WordSpecs;

const ALL_QUEUES = {
  flags: '--all-queues',
  description: 'every queue of the organization (v2 API): each reported on its own line, exit 1 if any failed',
} as const satisfies FlagSpec;

export const QUEUE_PAUSE = {
  flags: [
    { flags: '--reason <text>', description: 'why, for the confirmation and the printed result (CI logs) only: the service stores no reason' },
    YES,
    ALL_QUEUES,
  ],
} as const satisfies WordSpecs;

export const QUEUE_DRAIN = {
  flags: [
    YES,
    { flags: '--wait', description: 'then wait until no admitted PR is left (--timeout bounds the wait: exit 7, default 30m)' },
    WAIT_INTERVAL,
    ALL_QUEUES,
  ],
} as const satisfies WordSpecs;

export const QUEUE_RESUME = { flags: [ALL_QUEUES, YES] } as const satisfies WordSpecs;

export const QUEUE_SWITCH_MODE = {
  args: [{ name: '<mode>', description: "single or parallel (or v2's names, queue or graph)", choices: ['single', 'parallel', 'queue', 'graph'] }],
  flags: [
    { flags: '--wait', description: 'then wait until the queue no longer reads switching_modes (--timeout bounds the wait: exit 7, default 30m)' },
    WAIT_INTERVAL,
  ],
} as const satisfies WordSpecs;

/** `mq queues`: no words of its own. */
export const QUEUES = {} as const satisfies WordSpecs;

export const QUEUE_DELETE = {
  flags: [YES, { flags: '--cancel-all', description: 'cancel the PRs still in the queue first' }],
} as const satisfies WordSpecs;

export const TARGETS_SET = {
  args: [
    { name: '<pr>', description: 'PR number' },
    { name: '[target...]', description: 'targets' },
  ],
  flags: [
    { flags: '--file <path>', description: "read targets from a file ('-' for stdin): one a line, or a JSON array" },
    { flags: '--all', description: 'the PR impacts every target' },
    { flags: '--sha <sha>', description: "the PR's head SHA (default: the one the queue knows)" },
  ],
} as const satisfies WordSpecs;

export const METRICS = {
  flags: [
    { flags: '--all-repos', description: 'every repository of the organization' },
    { flags: '--raw', description: 'print the Prometheus text as received' },
  ],
} as const satisfies WordSpecs;

const TEST_ID = { name: '<test-id>', description: 'test id (a UUID)' } as const satisfies ArgSpec;

export const TEST_DETAILS = { args: [TEST_ID] } as const satisfies WordSpecs;

export const FLAKY_LIST = {
  flags: [
    { flags: '--quarantined', description: 'tests whose failures count as passes' },
    { flags: '--unhealthy', description: 'flaky and broken tests' },
    { flags: '--status <status>', description: 'with --unhealthy: only this status (default both)', choices: ['flaky', 'broken'] },
    { flags: '--failing', description: 'tests that failed in a window up to now' },
    {
      flags: '--since <time>',
      description: 'with --failing: start of the window, a duration ago (24h, the default) or an ISO time; at most 7 days (168h) back',
    },
    { flags: '--page-size <n>', description: 'tests per request, 1-100 (default 100); every page is read' },
  ],
} as const satisfies WordSpecs;

export const FLAKY_LINK_TICKET = {
  args: [TEST_ID, { name: '<ticket-id>', description: 'the ticket key: the project key in capitals, a dash and the number, e.g. KAN-123' }],
} as const satisfies WordSpecs;

export const CONFIG_INIT = {
  flags: [
    { flags: '--user', description: 'write the user config file instead of the project one' },
    { flags: '--token-command <command>', description: 'a command that prints the token (written as tokenCommand)' },
    { flags: '--token-file <path>', description: 'a file that holds the token (written as tokenFile)' },
    { flags: '--force', description: 'replace the config file already there' },
  ],
} as const satisfies WordSpecs;

export const COMPLETION = { args: [{ name: '<shell>', description: 'bash, zsh or fish', choices: SHELLS }] } as const satisfies WordSpecs;

export const HELP = { args: [{ name: '[command-or-topic...]', description: 'a command (queue update) or a topic' }] } as const satisfies WordSpecs;

export const SANDBOX = {
  flags: [
    { flags: '--port <n>', description: 'port to listen on, 0-65535 (0 picks a free one)' },
    { flags: '--state <file>', description: 'keep the state in this file across restarts' },
    { flags: '--token <token>', description: 'accept only this token (default: any non-empty one)' },
    {
      flags: '--key <key[=perms]>',
      description:
        'accept this v2 key, with a comma list of submit, priority, skip-batching, direct, settings or all (none: read only); repeatable (default: any key starting trunk_v2_, with every permission)',
      parse: (value: string, previous: unknown): string[] => [...(Array.isArray(previous) ? (previous as string[]) : []), value],
    },
    { flags: '--clock <clock>', description: 'real time, or manual (moved by POST /_sandbox/advance)', choices: ['real', 'manual'] },
    { flags: '--speed <x>', description: 'with the real clock: sandbox seconds per real second, more than 0 and at most 86400' },
    { flags: '--rate-limits <on|off>', description: "v2's rate limits (default on)", choices: ['on', 'off'] },
    { flags: '--estimates <on|off>', description: "v2's queue-entry estimates (default on)", choices: ['on', 'off'] },
  ],
} as const satisfies WordSpecs;

// -- what tests next: mq queue order, mq queue graph
export const QUEUE_ORDER = {} as const satisfies WordSpecs;

export const QUEUE_GRAPH = {
  flags: [
    {
      flags: '--format <format>',
      description: 'text: lanes drawn in the terminal (default); dot: Graphviz; mermaid: a Mermaid flowchart',
      choices: ['text', 'dot', 'mermaid'],
    },
    { flags: '--impacted-targets', description: "ask for each PR's impacted targets and each edge's common ones, shown under --json (costly for the service)" },
  ],
} as const satisfies WordSpecs;

// ---- queue entries: edit, history, runs (v2; see src/commands/entries.ts)

export const EDIT = {
  args: [PRS],
  flags: [
    { flags: '--priority <priority>', description: 'urgent, high, medium, low, or 0-255 (0 is most urgent)' },
    { flags: '--batch', description: 'let them be tested in batches again' },
    { flags: '--no-batch', description: 'test them on their own, never in a batch' },
    { flags: '--direct', description: 'send them past unmet branch protection (the queue still tests them)' },
    { flags: '--no-direct', description: 'no longer send them past branch protection' },
  ],
} as const satisfies WordSpecs;

export const HISTORY = { args: [{ name: '<pr>', description: 'PR number' }] } as const satisfies WordSpecs;

export const RUNS = {
  args: [{ name: '[pr]', description: "PR number: the runs that tested it (default: the queue's runs)" }],
  flags: [
    { flags: '--status <status>', description: 'only runs with this status', choices: TEST_RUN_STATUSES },
    { flags: '--since <time>', description: 'only runs created after then: an ISO time or a duration ago (2h)' },
    { flags: '--limit <n>', description: 'at most this many runs, newest first (default 50)' },
  ],
} as const satisfies WordSpecs;
