// submit, cancel, restart: what is done to pull requests one by one.
import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { PRS, WAIT_INTERVAL } from '../../command-kit/words.js';

export const SUBMIT = {
  name: 'submit',
  description: 'submit pull requests to the queue',
  args: [PRS],
  flags: [
    { flags: '--priority <priority>', description: 'urgent, high, medium, low, or 0-255 (0 is most urgent)' },
    { flags: '--no-batch', description: 'test these PRs on their own, never in a batch' },
    { flags: '--wait', description: 'then wait until they merge, as mq wait does (--timeout bounds the wait, default 30m)' },
    WAIT_INTERVAL,
  ],
  examples: ['mq submit 42', 'mq submit 42 43 --priority high', 'mq submit 42 --priority urgent --no-batch', 'mq submit 42 --wait --timeout 1h'],
  load: async (): Promise<AnyParse> => (await import('./submit.js')).parseSubmit,
} as const satisfies CommandSpec;

export const CANCEL = {
  name: 'cancel',
  description: 'remove pull requests from the queue',
  args: [PRS],
  examples: ['mq cancel 42', 'mq cancel 42 43 --json'],
  load: async (): Promise<AnyParse> => (await import('./pull-requests.js')).parseCancel,
} as const satisfies CommandSpec;

export const RESTART = {
  name: 'restart',
  description: 're-run the tests of pull requests in the queue',
  args: [PRS],
  examples: ['mq restart 42'],
  load: async (): Promise<AnyParse> => (await import('./pull-requests.js')).parseRestart,
} as const satisfies CommandSpec;
