// A queue's dispatch order and dependency graph (NOTES §12): point-in-time views of the engine, unpaginated.
import * as z from 'zod';
import { parseQuery, pathQueue, refusing } from '../common.js';
import type { V2Route } from '../route.js';
import { graphJson, orderJson } from '../wire-reads.js';

export const getOrder: V2Route = {
  method: 'GET',
  path: '/v2/merge-queues/{id}/order',
  operationId: 'mergeQueues.order',
  handle: (context) => {
    const queue = pathQueue(context);
    const order = refusing({ not_found: [404, 'MERGE_QUEUE_NOT_FOUND'] }, () => context.engine.order(queue.ref));
    return { answer: { status: 200, json: orderJson(order) } };
  },
};

const GraphQuery = z.object({
  includeImpactedTargets: z
    .enum(['true', 'false'])
    .transform((text) => text === 'true')
    .optional(),
});

export const getGraph: V2Route = {
  method: 'GET',
  path: '/v2/merge-queues/{id}/graph',
  operationId: 'mergeQueues.graph',
  handle: (context) => {
    const query = parseQuery(GraphQuery, context.query);
    const queue = pathQueue(context);
    const graph = refusing({ not_found: [404, 'MERGE_QUEUE_NOT_FOUND'] }, () =>
      context.engine.graph(queue.ref, { includeImpactedTargets: query.includeImpactedTargets === true }),
    );
    return { answer: { status: 200, json: graphJson(graph) } };
  },
};
