// mq testing: the details of a test run, by its id or by the PR it is testing.
import type { Context } from './context.js';
import type { CommandResult } from './result.js';

export type TestingInput = { pr: number; testRunId?: undefined } | { testRunId: string; pr?: undefined };

export async function testing(input: TestingInput, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const details = await client.getMergeQueueTestingDetails(
    input.testRunId !== undefined ? { ...ref, testRunId: input.testRunId } : { ...ref, pr: { number: input.pr } },
  );
  return { kind: 'testingDetails', details };
}
