// The webhook control routes other than `events` (their contract: api/sandbox-webhooks.ts): endpoints added,
// listed and removed at run time, one synthetic event sent, the attempts listed.
import type * as z from 'zod';
import { AddEndpoint, type EndpointList, RemoveEndpoint, TriggerEvent, WEBHOOK_ROUTES, type WebhookEvent } from '../../../api/sandbox-webhooks.js';
import { unknownKinds } from '../../../model/webhooks.js';
import { errorAnswer, jsonAnswer } from '../http.js';
import { parse, type Route, type RouteContext } from '../route.js';
import { WebhookDelivery } from './delivery.js';

/** Until the engine makes events (wh-events), it is asked for them through this. */
type Trigger = {
  takeEvents?(): WebhookEvent[];
  triggerEvent?(input: z.infer<typeof TriggerEvent>): WebhookEvent;
};

/** The events the engine made since last asked. */
export function takeEvents(engine: import('../../engine/engine.js').QueueEngine): WebhookEvent[] {
  return (engine as unknown as Trigger).takeEvents?.() ?? [];
}

/** Why a filter is refused (`--webhook URL#…` too), or undefined. */
export function refuseFilter(events: readonly string[]): string | undefined {
  const unknown = unknownKinds(events);
  return unknown.length === 0
    ? undefined
    : `no webhook kind is ${unknown.map((kind) => `"${kind}"`).join(', ')}: use pull_request.<action>, pull_request_batch.<action>, test_case.… or family.*`;
}

function withDelivery(handle: (webhooks: WebhookDelivery, context: RouteContext) => ReturnType<Route['handle']>): Route['handle'] {
  return (context) => (context.webhooks ? handle(context.webhooks, context) : { answer: errorAnswer(404, 'this sandbox delivers no webhooks') });
}

export const WEBHOOK_CONTROLS: Readonly<Record<string, Route>> = {
  [WEBHOOK_ROUTES.add.path]: {
    method: WEBHOOK_ROUTES.add.method,
    handle: withDelivery((webhooks, { body }) => {
      const parsed = parse(AddEndpoint, body);
      if ('answer' in parsed) return parsed;
      const refused = refuseFilter(parsed.input.events ?? []);
      if (refused) return { answer: errorAnswer(400, `invalid request: events: ${refused}`) };
      try {
        return { answer: jsonAnswer(WebhookDelivery.view(webhooks.add(parsed.input))) };
      } catch (error) {
        return { answer: errorAnswer(400, `invalid request: secret: ${(error as Error).message}`) };
      }
    }),
  },
  [WEBHOOK_ROUTES.list.path]: {
    method: WEBHOOK_ROUTES.list.method,
    handle: withDelivery((webhooks) => ({
      answer: jsonAnswer({ endpoints: webhooks.list().map(WebhookDelivery.view) } satisfies z.infer<typeof EndpointList>),
    })),
  },
  [WEBHOOK_ROUTES.remove.path]: {
    method: WEBHOOK_ROUTES.remove.method,
    handle: withDelivery((webhooks, { body }) => {
      const parsed = parse(RemoveEndpoint, body);
      if ('answer' in parsed) return parsed;
      if (!webhooks.remove(parsed.input.id)) return { answer: errorAnswer(404, `no webhook endpoint ${parsed.input.id}`) };
      return { answer: jsonAnswer({ id: parsed.input.id }) };
    }),
  },
  [WEBHOOK_ROUTES.trigger.path]: {
    method: WEBHOOK_ROUTES.trigger.method,
    handle: withDelivery((webhooks, { engine, body }) => {
      const parsed = parse(TriggerEvent, body);
      if ('answer' in parsed) return parsed;
      const source = engine as unknown as Trigger;
      if (!source.triggerEvent) return { answer: errorAnswer(501, 'this sandbox cannot make events yet') };
      // Sent as any event is (should the engine hand it over again, its id is already waiting: sent once).
      const event = source.triggerEvent(parsed.input);
      webhooks.offer([event]);
      return { answer: jsonAnswer(event) };
    }),
  },
  [WEBHOOK_ROUTES.attempts.path]: {
    method: WEBHOOK_ROUTES.attempts.method,
    handle: withDelivery((webhooks, { query }) => ({
      answer: jsonAnswer(webhooks.attemptList({ endpoint: query.get('endpoint') ?? undefined, event: query.get('event') ?? undefined })),
    })),
  },
};
