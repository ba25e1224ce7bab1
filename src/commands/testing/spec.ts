import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

export const TESTING = {
  name: 'testing',
  description: "details of a test run: the one that last tested a PR, or --run's",
  args: [{ name: '[pr]', description: 'PR number: its run is the one the service names in its record (verifiedByTestRun)' }],
  flags: [{ flags: '--run <testRunId>', description: 'test run id' }],
  examples: ['mq testing 42', 'mq testing --run 3f1c…'],
  notes:
    '\nThe service finds runs by id only. For a PR, mq reads the run its record names (`verifiedByTestRun` of\n' +
    'mq status 42 --json), the latest that tested it, in flight or finished, and asks for that run. A PR not\n' +
    'tested yet has none: exit 4, and --run <testRunId> names a run directly.\n',
  load: async (): Promise<AnyParse> => (await import('./testing.js')).parseTesting,
} as const satisfies CommandSpec;
