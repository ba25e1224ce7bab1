// A queue's dispatch order and dependency graph (docs/v2.md): point-in-time views of the engine, unpaginated.
import { pathQueue } from '../common.js';
import { route } from '../route.js';
import { graphToWire, orderToWire } from '../../../../api/v2/codec.js';
import { dispatchOrderOf } from '../../../engine/dispatch-order.js';
import { mergeGraphOf } from '../../../engine/graph.js';

export const getOrder = route('mergeQueues.order', (context) => ({
  answer: { status: 200, json: orderToWire(dispatchOrderOf(context.engine.world, pathQueue(context).ref)) },
}));

export const getGraph = route('mergeQueues.graph', (context) => {
  const query = context.input;
  const queue = pathQueue(context);
  const graph = mergeGraphOf(context.engine.world, queue.ref, { includeImpactedTargets: query.includeImpactedTargets === true });
  return { answer: { status: 200, json: graphToWire(graph) } };
});
