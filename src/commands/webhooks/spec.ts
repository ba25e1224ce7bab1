// mq webhooks: receive, check and ask for the service's webhooks (docs/commands.md#webhooks-listen-verify-trigger).
import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

const SECRET = { flags: '--secret <secret>', description: "the endpoint's signing secret (whsec_ and base64 of 24 to 64 bytes; whsec_ optional)" } as const;

export const LISTEN = {
  name: 'listen',
  description: 'receive webhooks locally: verify each, print one line per event, forward verified ones',
  flags: [
    { flags: '--port <n>', description: 'port to listen on, 0-65535 (default 0: a free one)' },
    { flags: '--forward-to <url>', description: 'send each verified event on, with its headers and body as received' },
    { flags: '--events <types>', description: 'a comma list of event types or family.* patterns (default: every type)' },
    { ...SECRET, description: `${SECRET.description} (default: one made once and kept in mq's cache folder)` },
  ],
  examples: [
    'mq webhooks listen',
    'mq webhooks listen --forward-to http://localhost:3000/hooks --events pull_request.merged,pull_request.failed',
    'mq webhooks listen --json | jq .type',
  ],
  notes: `
Against a sandbox (the API URL a loopback address), it subscribes itself with its URL, --events and secret, and
removes the endpoint when it stops. Against the service, add the URL it prints in Trunk's webhook settings (it
must be reachable from the internet) and pass the secret Trunk shows with --secret. A delivery whose signature does
not verify is printed as such, answered 400 and not forwarded; a retry of an event already received is marked as a
retry. Forwarded, the sender gets the forward's status (502 when the forward failed); otherwise 200.
`,
  load: async (): Promise<AnyParse> => (await import('./listen.js')).parseListen,
} as const satisfies CommandSpec;

export const VERIFY = {
  name: 'verify',
  description: 'check the signature of a captured delivery read from stdin',
  flags: [
    SECRET,
    {
      flags: '--at <time|signed>',
      description: "check as at this ISO time (or duration ago), or at the time it was signed: an old capture's age is not held against it",
    },
  ],
  examples: ['curl -si … | mq webhooks verify --secret whsec_…', 'mq webhooks verify --secret whsec_… --at signed < delivery.http'],
  notes: `
stdin holds the request as raw HTTP (headers, a blank line, the body; a request or status line first is skipped)
or as JSON {"headers": {...}, "body": "..."}, the body exactly as received. Exit 0 when it verifies; 1 naming what
failed: a missing header, a timestamp more than 5 minutes old or ahead, or no matching v1 signature.
`,
  load: async (): Promise<AnyParse> => (await import('./verify.js')).parseVerify,
} as const satisfies CommandSpec;

export const TRIGGER = {
  name: 'trigger',
  description: 'ask a sandbox for one event of a type, sent to its endpoints',
  args: [{ name: '<type>', description: 'the event type, e.g. pull_request.merged' }],
  flags: [{ flags: '--pr <n>', description: 'the PR the event is about, where the type is about a PR' }],
  examples: ['mq webhooks trigger pull_request.merged --pr 42', 'mq webhooks trigger pull_request_batch.failed'],
  load: async (): Promise<AnyParse> => (await import('./trigger.js')).parseTrigger,
} as const satisfies CommandSpec;

export const WEBHOOKS = {
  name: 'webhooks',
  description: "the service's webhooks: receive them, check a signature, trigger one on a sandbox",
  examples: ['mq webhooks listen --forward-to http://localhost:3000/hooks', 'mq webhooks trigger pull_request.merged --pr 42'],
  subcommands: [LISTEN, VERIFY, TRIGGER],
} as const satisfies CommandSpec;
