// The flaky-test data: the lists, one test case, and the tickets linked to test cases.
import type { ArgSpec } from '../../argv-spec.js';
import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { envName } from '../../config/setting-rows.js';

/** The flag they need is a global one, listed in its topic, not in their help. */
const NEEDS_ORG = `On v1, needs the organization slug: --org, ${envName('org')}, or "org" in a config file. A v2 key needs none; its test ids are v2's.`;

const TEST_ID = { name: '<test-id>', description: 'test id (a UUID)' } as const satisfies ArgSpec;

export const TEST_DETAILS = {
  name: 'test-details',
  description: 'one test case of the flaky-test data',
  args: [TEST_ID],
  examples: ['mq test-details 6f1c2a3e-8b4d-4c5e-9f60-1a2b3c4d5e01 --org acme'],
  notes: NEEDS_ORG,
  load: async (): Promise<AnyParse> => (await import('./test-details.js')).parseTestDetails,
} as const satisfies CommandSpec;

export const FLAKY_LIST = {
  name: 'list',
  description: 'test cases, each with the id mq test-details takes: one of --quarantined, --unhealthy, --failing',
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
  examples: ['mq flaky list --quarantined', 'mq flaky list --unhealthy --status flaky --json', 'mq flaky list --failing --since 72h'],
  notes: NEEDS_ORG,
  load: async (): Promise<AnyParse> => (await import('./flaky.js')).parseFlakyList,
} as const satisfies CommandSpec;

export const FLAKY_LINK_TICKET = {
  name: 'link-ticket',
  description: 'link a ticket (Jira, Linear) to a test case',
  args: [TEST_ID, { name: '<ticket-id>', description: 'the ticket key: the project key in capitals, a dash and the number, e.g. KAN-123' }],
  examples: ['mq flaky link-ticket 6f1c2a3e-8b4d-4c5e-9f60-1a2b3c4d5e01 KAN-123'],
  load: async (): Promise<AnyParse> => (await import('./flaky.js')).parseLinkTicket,
} as const satisfies CommandSpec;

export const FLAKY = {
  name: 'flaky',
  description: 'the flaky-test lists, and tickets linked to test cases',
  examples: [
    'mq flaky list --quarantined --org acme',
    'mq flaky list --unhealthy --status broken',
    'mq flaky link-ticket 6f1c2a3e-8b4d-4c5e-9f60-1a2b3c4d5e01 KAN-123',
  ],
  subcommands: [FLAKY_LIST, FLAKY_LINK_TICKET],
} as const satisfies CommandSpec;
