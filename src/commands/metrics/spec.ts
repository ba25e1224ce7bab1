import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

export const METRICS = {
  name: 'metrics',
  description: "the queue's health metrics, as a table",
  flags: [
    { flags: '--all-repos', description: 'every repository of the organization' },
    { flags: '--raw', description: 'print the Prometheus text as received' },
  ],
  examples: ['mq metrics', 'mq metrics --all-repos', 'mq metrics --raw > metrics.prom'],
  load: async (): Promise<AnyParse> => (await import('./metrics.js')).parseMetrics,
} as const satisfies CommandSpec;
