import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { V2_KEY_PREFIX } from '../../model/vocabulary.js';

export const SANDBOX = {
  name: 'sandbox',
  description: 'run the local emulator of the service (prints its base URL first)',
  flags: [
    { flags: '--port <n>', description: 'port to listen on, 0-65535 (0 picks a free one)' },
    { flags: '--state <file>', description: 'keep the state in this file across restarts' },
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
    { flags: '--rate-limits <on|off>', description: "v2's rate limits (default on)", choices: ['on', 'off'] },
    { flags: '--estimates <on|off>', description: "v2's queue-entry estimates (default on)", choices: ['on', 'off'] },
  ],
  examples: [
    'mq sandbox',
    'mq sandbox --port 8080 --state ./sandbox.json',
    'mq sandbox --clock manual --port 0',
    "mq sandbox --webhook 'http://localhost:3000/#pull_request.merged'",
  ],
  load: async (): Promise<AnyParse> => (await import('./sandbox.js')).parseSandbox,
} as const satisfies CommandSpec;
