// mq testing: the details of a test run, by its id or by the PR it tested. The service knows runs only by id:
// a PR's run is the one its record names (`verifiedByTestRun`), and only that id is sent.
import { isFinalState } from '../api/schemas.js';
import { EXIT, MqError } from '../errors.js';
import type { Context } from './context.js';
import type { CommandResult } from './result.js';

export type TestingInput = { pr: number; testRunId?: undefined } | { testRunId: string; pr?: undefined };

export async function testing(input: TestingInput, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  let testRunId = input.testRunId;
  if (testRunId === undefined) {
    const pullRequest = await client.getSubmittedPullRequest({ ...ref, pr: { number: input.pr! } });
    testRunId = pullRequest.verifiedByTestRun || undefined;
    if (testRunId === undefined) {
      // Not a 404 from the service (the PR is known), but nothing to show all the same: exit 4, no status.
      const state = pullRequest.state;
      const when = isFinalState(state) ? `it ended ${state} without one` : `try again once it is testing${state === undefined ? '' : ` (it is ${state})`}`;
      throw new MqError(
        `the service names no test run for #${input.pr}: ${when}; for a run you know, give its id: mq testing --run <testRunId>`,
        'not_found',
        EXIT.notFound,
      );
    }
    ctx.info(`#${input.pr} was last tested by run ${testRunId}`);
  }
  const details = await client.getMergeQueueTestingDetails({ ...ref, testRunId });
  return { kind: 'testingDetails', details };
}
