// mq test-details: one test case of the flaky-test catalogue.
import type { TEST_DETAILS } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { parseTestId } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';
import { flakyScope } from './flaky.js';

/** `mq test-details <test-id>` */
export function parseTestDetails(words: Words<typeof TEST_DETAILS>): Invocation {
  const [testId] = words.args;
  return work.result({ testId: parseTestId(testId) }, testDetails);
}

export async function testDetails(input: { testId: string }, ctx: Context): Promise<CommandResult> {
  const { service, scope } = await flakyScope(ctx);
  const test = await service.getTestDetails(scope, input.testId);
  return { kind: 'testDetails', test };
}
