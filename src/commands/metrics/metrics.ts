// mq metrics: the service's Prometheus text, for this repository or (--all-repos) the whole organization.
import type { METRICS } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';

/** `mq metrics [--all-repos] [--raw]` */
export function parseMetrics(words: Words<typeof METRICS>): Invocation {
  const { allRepos, raw } = words.flags;
  return work.result({ allRepos: Boolean(allRepos), raw: Boolean(raw) }, metrics);
}

export async function metrics(input: { allRepos: boolean; raw: boolean }, ctx: Context): Promise<CommandResult> {
  const repo = input.allRepos ? undefined : ctx.queueRef().repo;
  const service = await ctx.service();
  const { text, samples } = await service.getMergeQueueMetrics(repo ? { repo } : {});
  return input.raw ? { kind: 'metrics', raw: true, text } : { kind: 'metrics', raw: false, samples };
}
