import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { PRS } from '../../command-kit/words.js';

export const WAIT = {
  name: 'wait',
  description: 'wait until pull requests reach a state: merged, unless --for says another',
  args: [PRS],
  flags: [
    { flags: '--for <state>', description: 'the state to wait for: merged (default) or any PR state' },
    { flags: '--timeout <duration>', description: 'give up after this long, with exit 7 (default 30m)' },
    { flags: '--interval <duration>', description: 'pause between checks, at least 1s (default 10s); it grows while nothing changes' },
  ],
  examples: ['mq wait 42', 'mq wait 42 43 --timeout 1h', 'mq wait 42 --for testing --interval 5s', "mq wait 42 --json | jq -c 'select(.summary)'"],
  notes: `
Exit codes: 0 every PR reached the state; 1 one ended in another final state (merged, failed, cancelled)
or is unknown beside known ones; 3 a 401 or 403; 4 none is known (never submitted); 7 --timeout came first;
130 Ctrl-C. An outage (5xx, 429, refused, reset, timeout) does not end the wait: it is shown, with since when,
and the checks go on until the service is back or --timeout passes.

A PR seen past the state waited for (it moved between two checks) has reached it: --for testing is met by a
PR already merged. While nothing changes the pause grows (x1.5, up to 4x --interval or 60s); a change resets it.

On a terminal each PR has a live line; in a pipe a line per change ("#42 testing (position 1)"); under --json
an NDJSON line per change, then {"summary": …}.
`,
  load: async (): Promise<AnyParse> => (await import('./wait.js')).parseWait,
} as const satisfies CommandSpec;
