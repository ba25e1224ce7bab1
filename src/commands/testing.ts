// mq testing: the details of a test run, by its id or by the PR it tested. The service knows runs only by id:
// a PR's run is the one its record names (`verifiedByTestRun`).
import { ApiError } from '../errors.js';
import type { Context } from './context.js';
import type { CommandResult } from './result.js';

export type TestingInput = { pr: number; testRunId?: undefined } | { testRunId: string; pr?: undefined };

export async function testing(input: TestingInput, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  let testRunId = input.testRunId;
  if (testRunId === undefined) {
    const pullRequest = await client.getSubmittedPullRequest({ ...ref, pr: { number: input.pr! } });
    testRunId = pullRequest.verifiedByTestRun ?? undefined;
    if (testRunId === undefined) {
      throw new ApiError(
        404,
        `the service names no test run for #${input.pr} (${pullRequest.state ?? 'state unknown'}): it has not been tested yet; give a run id with --run <testRunId> if you have one`,
        'getSubmittedPullRequest',
      );
    }
  }
  const details = await client.getMergeQueueTestingDetails({ ...ref, testRunId });
  return { kind: 'testingDetails', details };
}
