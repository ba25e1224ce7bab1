import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

export const QUEUES = {
  name: 'queues',
  description: 'every queue of the organization: repository, branch, state, mode, PRs in it (v2 API)',
  examples: ['mq queues', 'mq queues --json'],
  notes:
    '\nThe PRs counted are those in the queue now (not ready, pending, testing, tests passed, pending failure),\n' +
    'as the service counts them: one request per queue. On the v1 API there is no list of queues: exit 2.\n',
  load: async (): Promise<AnyParse> => (await import('./queues.js')).parseQueues,
} as const satisfies CommandSpec;
