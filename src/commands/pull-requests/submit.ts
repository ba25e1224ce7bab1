// mq submit: its command line. The work is submit's (pull-requests.ts), or with --wait submitAndWait's (wait.ts),
// which is loaded only then.
import { parsePriority, parsePrNumbers } from '../../command-kit/input.js';
import type { SUBMIT } from './spec.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { submit, type SubmitInput } from './pull-requests.js';
import { parseWaitOptions, refuseLoneInterval } from '../../command-kit/wait-input.js';

/** `mq submit <pr...> [--priority p] [--no-batch] [--wait [--interval d]]`: --timeout, with --wait, is the wait's. */
export async function parseSubmit(words: Words<typeof SUBMIT>): Promise<Invocation> {
  const [prs] = words.args;
  const flags = words.flags;
  if (!flags.wait) refuseLoneInterval(flags, '--wait');
  const input: SubmitInput = {
    prs: parsePrNumbers(prs),
    priority: flags.priority === undefined ? undefined : parsePriority(flags.priority),
    noBatch: flags.batch === false ? true : undefined,
  };
  if (!flags.wait) return work.result(input, submit);
  const waiting = { ...input, ...parseWaitOptions(flags) };
  const { submitAndWait } = await import('../wait/wait.js');
  return work.stream(waiting, submitAndWait, 'wait', { waits: true });
}
