// mq submit: its command line. The work is submit's (pull-requests.ts), or with --wait submitAndWait's (wait.ts),
// which is loaded only then.
import { parsePriority, parsePrNumber } from './input.js';
import { work, type Invocation, type Words } from './invocation.js';
import { submit, type SubmitInput } from './pull-requests.js';
import { parseWaitOptions, refuseLoneInterval, type WaitFlags } from './wait-input.js';

/** `mq submit <pr...> [--priority p] [--no-batch] [--wait [--interval d]]`: --timeout, with --wait, is the wait's. */
export async function parseSubmit(words: Words): Promise<Invocation> {
  const [prs] = words.args as [string[]];
  const flags = words.flags as WaitFlags & { priority?: string; batch?: boolean; wait?: boolean };
  if (!flags.wait) refuseLoneInterval(flags, '--wait');
  const input: SubmitInput = {
    prs: prs.map(parsePrNumber),
    priority: flags.priority === undefined ? undefined : parsePriority(flags.priority),
    noBatch: flags.batch === false ? true : undefined,
  };
  if (!flags.wait) return work.result(input, submit);
  const waiting = { ...input, ...parseWaitOptions(flags) };
  const { submitAndWait } = await import('./wait.js');
  return work.stream(waiting, submitAndWait, 'wait', { waits: true });
}
