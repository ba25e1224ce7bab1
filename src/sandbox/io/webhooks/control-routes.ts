// The webhook control routes other than `events` (their contract: api/sandbox-webhooks.ts): endpoints added,
// listed and removed at run time, one synthetic event sent, the attempts listed.
import { AddEndpoint, type EndpointList, RemoveEndpoint, TriggerEvent, WEBHOOK_ROUTES } from '../../../api/sandbox-webhooks.js';
import { perform } from '../../engine/changes.js';
import { unknownKinds } from '../../../model/webhooks.js';
import { errorAnswer, jsonAnswer } from '../http.js';
import { parse, type Route, type RouteContext } from '../route.js';
import { WebhookDelivery } from './delivery.js';

/** Why a filter is refused (`--webhook URL#…` too), or undefined. */
export function refuseFilter(events: readonly string[]): string | undefined {
  const unknown = unknownKinds(events);
  if (unknown.length === 0) return undefined;
  // Each quoted (a line end in one stays on the line) and cut, three at most: a refusal is one short line.
  const named = unknown.slice(0, SHOWN_KINDS).map((kind) => JSON.stringify(kind.length > KIND_SHOWN_MAX ? `${kind.slice(0, KIND_SHOWN_MAX)}…` : kind));
  const more = unknown.length > SHOWN_KINDS ? ` and ${unknown.length - SHOWN_KINDS} more` : '';
  return `no webhook kind is ${named.join(', ')}${more}: use pull_request.<action>, pull_request_batch.<action>, test_case.… or family.*`;
}

/** How many refused kinds a refusal names, and how much of each. */
const SHOWN_KINDS = 3;
const KIND_SHOWN_MAX = 40;

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
      answer: jsonAnswer({ endpoints: webhooks.list().map(WebhookDelivery.view) } satisfies import('zod').infer<typeof EndpointList>),
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
      const { result: event, change } = perform(engine, 'triggerEvent', parsed.input);
      // Sent as any event is, though the engine does not hand it over with the others.
      webhooks.offer([event]);
      return { answer: jsonAnswer(event), change };
    }),
  },
  [WEBHOOK_ROUTES.attempts.path]: {
    method: WEBHOOK_ROUTES.attempts.method,
    handle: withDelivery((webhooks, { query }) => ({
      answer: jsonAnswer(webhooks.attemptList({ endpoint: query.get('endpoint') ?? undefined, event: query.get('event') ?? undefined })),
    })),
  },
};
