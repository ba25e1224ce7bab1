// mq test-details: one test case of the flaky-test catalogue.
import { envName } from '../../config/setting-rows.js';
import { ConfigError } from '../../errors.js';
import type { TEST_DETAILS } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { parseTestId } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';

/** `mq test-details <test-id>` */
export function parseTestDetails(words: Words<typeof TEST_DETAILS>): Invocation {
  const [testId] = words.args;
  return work.result({ testId: parseTestId(testId) }, testDetails);
}

export async function testDetails(input: { testId: string }, ctx: Context): Promise<CommandResult> {
  const org = ctx.resolved.settings.org;
  if (!org) throw new ConfigError(`no organization slug: pass --org SLUG, set ${envName('org')}, or set "org" in a config file`);
  const { repo } = ctx.queueRef();
  const service = await ctx.service();
  const test = await service.getTestDetails({ repo, org }, input.testId);
  return { kind: 'testDetails', test };
}
