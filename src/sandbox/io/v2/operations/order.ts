// A queue's dispatch order and dependency graph (docs/v2.md): point-in-time views of the engine, unpaginated.
import { pathQueue, refusing } from '../common.js';
import { route } from '../route.js';
import { graphToWire, orderToWire } from '../../../../api/v2/codec.js';

export const getOrder = route('mergeQueues.order', (context) => {
  const queue = pathQueue(context);
  const order = refusing({ not_found: [404, 'MERGE_QUEUE_NOT_FOUND'] }, () => context.engine.order(queue.ref));
  return { answer: { status: 200, json: orderToWire(order) } };
});

export const getGraph = route('mergeQueues.graph', (context) => {
  const query = context.input;
  const queue = pathQueue(context);
  const graph = refusing({ not_found: [404, 'MERGE_QUEUE_NOT_FOUND'] }, () =>
    context.engine.graph(queue.ref, { includeImpactedTargets: query.includeImpactedTargets === true }),
  );
  return { answer: { status: 200, json: graphToWire(graph) } };
});
