// mq queue order: what tests next (batches with a run, then the admitted PRs, each with its predicted batch and
// what it waits on); mq queue graph: the dependency graph of a parallel queue, drawn or as Graphviz / Mermaid
// text. Each asks the service; an API that cannot draw the graph refuses in its adapter.
import type { QUEUE_GRAPH } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';

export type GraphFormat = 'text' | 'dot' | 'mermaid';

/** `mq queue order` */
export function parseQueueOrder(_words: Words): Invocation {
  return work.result({}, queueOrder);
}

export async function queueOrder(_input: unknown, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  return { kind: 'queueOrder', order: await service.getQueueOrder(ctx.queueRef()) };
}

export interface QueueGraphInput {
  format: GraphFormat;
  includeImpactedTargets: boolean;
}

/** `mq queue graph [--format text|dot|mermaid] [--impacted-targets]` */
export function parseQueueGraph(words: Words<typeof QUEUE_GRAPH>): Invocation {
  const format = (words.flags.format ?? 'text') as GraphFormat;
  return work.result({ format, includeImpactedTargets: words.flags.impactedTargets === true }, queueGraph);
}

export async function queueGraph(input: QueueGraphInput, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  const graph = await service.getQueueGraph(ctx.queueRef(), input.includeImpactedTargets ? { includeImpactedTargets: true } : {});
  return { kind: 'queueGraph', graph, format: input.format };
}
