// mq flaky list | link-ticket: the flaky-test lists, page by page, and linking a ticket to a test case.
import type { FlakyTestsPage, UnhealthyTest } from '../../model/flaky-tests.js';
import type { FlakyPageQuery, FlakyScope, MergeQueueService } from '../../model/service.js';
import { FAILING_WINDOW_MAX_MS, FLAKY_PAGE_SIZE_MAX, UNHEALTHY_STATUSES } from '../../model/vocabulary.js';
import { envName } from '../../config/setting-rows.js';
import { ConfigError, UsageError } from '../../errors.js';
import type { FLAKY_LINK_TICKET, FLAKY_LIST } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { badValue } from '../../argv-values.js';
import { parseCount, parseInstant, parseTestId, parseTicketId } from '../../command-kit/input.js';
import { atOn, type Instant, isoAt, serviceClock } from '../../model/clock.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';
import { checkCommand, settle } from '../../command-kit/uncertain.js';

export type UnhealthyStatus = (typeof UNHEALTHY_STATUSES)[number];

export type FlakyListInput = { pageSize: number } & (
  | { list: 'quarantined' }
  /** The service takes one status a request: without --status, mq asks for each. */
  | { list: 'unhealthy'; statuses: UnhealthyStatus[] }
  /** From `since` (inclusive) to the service's now (exclusive). */
  | { list: 'failing'; since: Instant }
);

/** What --failing --since may reach back: the 7 days the service looks at. */
const FAILING_WINDOW = { ms: FAILING_WINDOW_MAX_MS, phrase: 'reaches back more than 7d, the most the service looks at', use: 'e.g. 24h, 3d or 7d' };

const SELECTORS = ['quarantined', 'unhealthy', 'failing'] as const;

/** `mq flaky list --quarantined | --unhealthy [--status s] | --failing [--since t] [--page-size n]` */
export function parseFlakyList(words: Words<typeof FLAKY_LIST>): Invocation {
  const flags = words.flags;
  const chosen = SELECTORS.filter((selector) => flags[selector] === true);
  if (chosen.length !== 1) throw new UsageError('flaky list takes exactly one of --quarantined, --unhealthy, --failing');
  const [list] = chosen as [(typeof SELECTORS)[number]];
  if (flags.status !== undefined && list !== 'unhealthy') throw new UsageError('--status goes with --unhealthy');
  if (flags.since !== undefined && list !== 'failing') throw new UsageError('--since goes with --failing');
  const pageSize = flags.pageSize === undefined ? FLAKY_PAGE_SIZE_MAX : parseCount('--page-size', flags.pageSize, { max: FLAKY_PAGE_SIZE_MAX, example: 50 });
  switch (list) {
    case 'quarantined':
      return work.result({ list, pageSize }, flakyList);
    case 'unhealthy': {
      const statuses: UnhealthyStatus[] = flags.status === undefined ? [...UNHEALTHY_STATUSES] : [flags.status.toUpperCase() as UnhealthyStatus];
      return work.result({ list, statuses, pageSize }, flakyList);
    }
    case 'failing': {
      const since = flags.since ?? '24h';
      const instant = parseInstant('--since', since, FAILING_WINDOW);
      // The service refuses a window wider than 7 days; its end is the service's now, against which an ISO time is
      // judged once read (refuseOutsideWindow): a sandbox's clock may be months from this machine's.
      if ('agoMs' in instant && instant.agoMs <= 0) throw badValue('--since', since, 'is not in the past', FAILING_WINDOW.use);
      return work.result({ list, since: instant, pageSize }, flakyList);
    }
  }
}

export async function flakyList(input: FlakyListInput, ctx: Context): Promise<CommandResult> {
  const { service, scope } = await flakyScope(ctx);
  if (input.list === 'quarantined') {
    const tests = await allPages(input.pageSize, (page) => service.listQuarantinedTests(scope, page));
    return { kind: 'flakyTests', testIds: service.testIds, list: 'quarantined', tests };
  }
  if (input.list === 'unhealthy') {
    const tests: UnhealthyTest[] = [];
    for (const status of input.statuses) tests.push(...(await allPages(input.pageSize, (page) => service.listUnhealthyTests(scope, status, page))));
    return { kind: 'flakyTests', testIds: service.testIds, list: 'unhealthy', tests };
  }
  const now = await serviceClock(service, ctx.now);
  const window = { start: isoAt(input.since, now), end: new Date(now).toISOString() };
  refuseOutsideWindow(window, now - atOn(input.since, now));
  const tests = await allPages(input.pageSize, (page) => service.listFailingTests(scope, window, page));
  return { kind: 'flakyTests', testIds: service.testIds, list: 'failing', tests };
}

/** A --since (an ISO time) after the service's now, or more than 7 days before it: exit 2, as on either API alike. */
function refuseOutsideWindow(window: { start: string; end: string }, back: number): void {
  if (back <= 0) throw badValue('--since', window.start, `is not in the past: the service's now is ${window.end}`, FAILING_WINDOW.use);
  if (back > FAILING_WINDOW_MAX_MS)
    throw badValue('--since', window.start, `${FAILING_WINDOW.phrase} from the service's now, ${window.end}`, FAILING_WINDOW.use);
}

/** Every page, following next_page_token until it is empty. */
async function allPages<T>(size: number, fetchPage: (query: FlakyPageQuery) => Promise<FlakyTestsPage<T>>): Promise<T[]> {
  const rows: T[] = [];
  const seen = new Set<string>();
  let token: string | undefined;
  for (;;) {
    const { tests: more, page } = await fetchPage(token === undefined ? { size } : { size, token });
    rows.push(...more);
    // A token seen before would page forever.
    if (!page.next_page_token || seen.has(page.next_page_token)) return rows;
    seen.add(page.next_page_token);
    token = page.next_page_token;
  }
}

/** `mq flaky link-ticket <test-id> <ticket-id>` */
export function parseLinkTicket(words: Words<typeof FLAKY_LINK_TICKET>): Invocation {
  const [testId, ticketId] = words.args;
  return work.result({ testId: parseTestId(testId), ticketId: parseTicketId(ticketId) }, linkTicket);
}

export async function linkTicket(input: { testId: string; ticketId: string }, ctx: Context): Promise<CommandResult> {
  const { repo } = ctx.queueRef();
  const service = await ctx.service();
  await settle(ctx, service.linkTicketToTestCase(repo, input.testId, input.ticketId), {
    what: `the link of ${input.ticketId} to test ${input.testId}`,
    check: checkCommand(ctx, 'test-details', input.testId),
  });
  return { kind: 'ticketLinked', testId: input.testId, ticketId: input.ticketId, testIds: service.testIds };
}

/** The service and who the read is about: the organization's slug is needed where the API asks for it (v1). */
export async function flakyScope(ctx: Context): Promise<{ service: MergeQueueService; scope: FlakyScope }> {
  const { repo } = ctx.queueRef();
  const service = await ctx.service();
  const org = ctx.resolved.settings.org;
  if (!org && service.needsOrgForFlakyTests) {
    throw new ConfigError(`no organization slug: pass --org SLUG, set ${envName('org')}, or set "org" in a config file`);
  }
  return { service, scope: { repo, org: org ?? '' } };
}
