// A queue's dispatch order and dependency graph (docs/v2.md): point-in-time views of the engine, unpaginated.
import { pathQueue } from '../common.js';
import { route } from '../route.js';
import { graphToWire, orderToWire } from '../../../../api/v2/codec.js';
import { dispatchOrderOf } from '../../../engine/dispatch-order.js';
import { mergeGraphOf } from '../../../engine/graph.js';

/**
 * How many of the PRs awaiting admission the order names: the service cuts the list short (docs/service.md) without
 * saying where; `awaitingAdmissionTotal` counts them all.
 */
const AWAITING_ADMISSION_SHOWN = 100;

export const getOrder = route('mergeQueues.order', (context) => {
  const order = dispatchOrderOf(context.engine.world, pathQueue(context).ref);
  order.awaitingAdmission = order.awaitingAdmission.slice(0, AWAITING_ADMISSION_SHOWN);
  return { answer: { status: 200, json: orderToWire(order) } };
});

export const getGraph = route('mergeQueues.graph', (context) => {
  const query = context.input;
  const queue = pathQueue(context);
  const graph = mergeGraphOf(context.engine.world, queue.ref, { includeImpactedTargets: query.includeImpactedTargets === true });
  return { answer: { status: 200, json: graphToWire(graph) } };
});
