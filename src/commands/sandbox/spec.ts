import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { V2_KEY_PREFIX } from '../../model/vocabulary.js';

export const SANDBOX = {
  name: 'sandbox',
  description: 'run the local emulator of the service (prints its base URL first)',
  flags: [
    { flags: '--port <n>', description: 'port to listen on, 0-65535 (0 picks a free one)' },
    { flags: '--state <file>', description: 'keep the state in this file across restarts' },
    { flags: '--seed <file>', description: 'the first state (unless --state holds one): a seed, YAML or JSON, or an exported state' },
    { flags: '--token <token>', description: 'accept only this token (default: any non-empty one)' },
    {
      flags: '--key <key[=perms]>',
      description: `accept this v2 key, with a comma list of submit, priority, skip-batching, direct, settings or all (none: read only); repeatable (default: any key starting ${V2_KEY_PREFIX}, with every permission)`,
      parse: (value: string, previous: unknown): string[] => [...(Array.isArray(previous) ? (previous as string[]) : []), value],
    },
    {
      flags: '--webhook <url[#kinds]>',
      description:
        'send the webhooks to this URL, signed and retried as the service does; #kinds takes only those (a comma list of kinds or family.*, e.g. #pull_request.merged, pull_request_batch.*); repeatable',
      parse: (value: string, previous: unknown): string[] => [...(Array.isArray(previous) ? (previous as string[]) : []), value],
    },
    {
      flags: '--webhook-secret <whsec_…>',
      description: "every --webhook endpoint's signing secret (default: one made for each, printed at start and kept with --state)",
    },
    { flags: '--clock <clock>', description: 'real time, or manual (moved by POST /_sandbox/advance)', choices: ['real', 'manual'] },
    { flags: '--speed <x>', description: 'with the real clock: sandbox seconds per real second, more than 0 and at most 86400' },
    { flags: '--rate-limits <on|off>', description: "the service's rate limits, v1's and v2's (default on)", choices: ['on', 'off'] },
    { flags: '--estimates <on|off>', description: "v2's queue-entry estimates (default on)", choices: ['on', 'off'] },
    {
      flags: '--graph-soft-cap <n|none>',
      description:
        "admit at most n PRs of a queue's line to its graph; those behind wait, pending, for one ahead to leave (v2's order lists them under awaitingAdmission). Kept with --state; default none",
    },
  ],
  examples: [
    'mq sandbox',
    'mq sandbox --port 8080 --state ./sandbox.json',
    'mq sandbox --clock manual --port 0',
    "mq sandbox --webhook 'http://localhost:3000/#pull_request.merged'",
  ],
  load: async (): Promise<AnyParse> => (await import('./sandbox.js')).parseSandbox,
  subcommands: [
    {
      name: 'exec',
      description: "run a command against a fresh sandbox (mq's and the service's clients pointed at it), then stop it; exits with the command's status",
      args: [{ name: '<command...>', description: 'the command and its arguments, after --' }],
      flags: [{ flags: '--export-on-exit <file>', description: 'write the final state here (a state file: --state and --seed load it)' }],
      examples: ['mq sandbox exec -- npm test', 'mq sandbox exec --clock manual --seed seed.yaml --export-on-exit final.json -- ./queue-bot.sh'],
      notes:
        "Takes mq sandbox's flags (before exec). The command's environment: MQ_API_URL, MQ_TOKEN and the api setting (mq: the API mq speaks here, v2 with a v2 key), API_URL, API_TOKEN (the upload scripts of merge-action, bazel-action, nx-action), TRUNK_BASE_URL, TRUNK_API_KEY (terraform-provider-trunk), MQ_SANDBOX_URL, MQ_SANDBOX_KEY (the sandbox's origin, a v2 key).",
      load: async (): Promise<AnyParse> => (await import('./exec.js')).parseExec,
      groupFlags: true,
    },
  ],
} as const satisfies CommandSpec;
