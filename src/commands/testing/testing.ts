// mq testing: the details of a test run, by its id or by the PR it tested. The service knows runs only by id:
// a PR's run is the one its record names (`verifiedByTestRun`), and only that id is sent.
import { isFinalState } from '../../model/vocabulary.js';
import { EXIT, MqError, UsageError } from '../../errors.js';
import { badValue } from '../../argv-values.js';
import type { TESTING } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { parsePrNumber } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { checkCommand } from '../../command-kit/uncertain.js';
import type { CommandResult } from '../../model/result.js';

export type TestingInput = { pr: number; testRunId?: undefined } | { testRunId: string; pr?: undefined };

/** `mq testing <pr>` or `mq testing --run <testRunId>`: one of the two. */
export function parseTesting(words: Words<typeof TESTING>): Invocation {
  const [pr] = words.args;
  const { run } = words.flags;
  if (pr !== undefined && run !== undefined) throw new UsageError('testing takes a PR number or --run <testRunId>, not both');
  if (pr === undefined && run === undefined) throw new UsageError('testing needs a PR number or --run <testRunId>');
  const input: TestingInput = run !== undefined ? { testRunId: parseRunId(run) } : { pr: parsePrNumber(pr!) };
  return work.result(input, testing);
}

/** A run's id: a word of some kind. Empty, `.` or `..` names none, and v2, which takes it in its path, would read another route. */
function parseRunId(text: string): string {
  if (/^\.{0,2}$/.test(text)) throw badValue('--run', text, 'is not a test run id', 'the id mq testing <pr> shows');
  return text;
}

export async function testing(input: TestingInput, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  const ref = ctx.queueRef();
  let testRunId = input.testRunId;
  if (testRunId === undefined) {
    const pullRequest = await service.getSubmittedPullRequest(ref, { number: input.pr! }, { testedBy: true });
    testRunId = pullRequest.verifiedByTestRun || undefined;
    if (testRunId === undefined) {
      // Not a 404 from the service (the PR is known), but nothing to show all the same: exit 4, no status.
      const state = pullRequest.state;
      const when = isFinalState(state) ? `it ended ${state} without one` : `try again once it is testing${state === undefined ? '' : ` (it is ${state})`}`;
      const byId = checkCommand(ctx, 'testing', '--run', '<testRunId>');
      throw new MqError(`the service names no test run for #${input.pr}: ${when}; for a run you know, give its id: ${byId}`, 'not_found', EXIT.notFound, {
        commands: [byId],
      });
    }
    ctx.info(`#${input.pr} was last tested by run ${testRunId}`);
  }
  const details = await service.getMergeQueueTestingDetails(ref, testRunId);
  return { kind: 'testingDetails', details };
}
