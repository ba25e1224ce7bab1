// The webhook control routes (docs/sandbox.md#webhooks), as src/api/sandbox-webhooks.ts describes them: endpoints
// added, listed and removed at run time; one event of a kind on request; the last attempts and events.
import type * as z from 'zod';
import { AddEndpoint, type AttemptList, type EndpointList, type EventList, RemoveEndpoint, TriggerEvent, WEBHOOK_ROUTES } from '../../api/sandbox-webhooks.js';
import { WEBHOOK_KINDS, type WebhookKind } from '../../model/webhooks.js';
import { errorAnswer, jsonAnswer } from './http.js';
import { type Handled, parse, type Route, type RouteContext } from './route.js';
import type { WebhookDelivery } from './webhooks.js';

/** A route over the sandbox's deliveries (every sandbox the server starts has them). */
type Handler = (webhooks: WebhookDelivery, context: RouteContext) => Handled;

function withDelivery(method: Route['method'], handle: Handler): Route {
  return {
    method,
    handle: (context) => (context.webhooks ? handle(context.webhooks, context) : { answer: errorAnswer(404, 'this sandbox sends no webhooks') }),
  };
}

const HANDLERS: Record<keyof typeof WEBHOOK_ROUTES, Handler> = {
  add: (webhooks, { body }) => {
    const parsed = parse(AddEndpoint, body);
    if ('answer' in parsed) return parsed;
    const { id, url, events, secret } = webhooks.add(parsed.input);
    return { answer: jsonAnswer({ ...webhooks.list().find((endpoint) => endpoint.id === id), url: url.href, events, secret }) };
  },
  list: (webhooks) => ({ answer: jsonAnswer({ endpoints: webhooks.list() } satisfies z.infer<typeof EndpointList>) }),
  remove: (webhooks, { body }) => {
    const parsed = parse(RemoveEndpoint, body);
    if ('answer' in parsed) return parsed;
    webhooks.remove(parsed.input.id);
    return { answer: jsonAnswer({ removed: parsed.input.id }) };
  },
  trigger: (webhooks, { engine, body }) => {
    const parsed = parse(TriggerEvent, body);
    if ('answer' in parsed) return parsed;
    const { type, pr, repo, targetBranch } = parsed.input;
    if (!(WEBHOOK_KINDS as readonly string[]).includes(type)) return { answer: errorAnswer(400, `invalid request: type: no event kind ${type}`) };
    const ref = repo && targetBranch ? { repo, targetBranch } : undefined;
    const event = engine.triggerEvent(type as WebhookKind, ref, pr);
    webhooks.accept([event]);
    return { answer: jsonAnswer({ event }) };
  },
  attempts: (webhooks) => ({ answer: jsonAnswer(webhooks.recentAttempts() satisfies z.infer<typeof AttemptList>) }),
  events: (webhooks) => ({ answer: jsonAnswer({ events: webhooks.recentEvents() } satisfies z.infer<typeof EventList>) }),
};

/** By path under `/_sandbox/`. */
export const WEBHOOK_CONTROLS: Readonly<Record<string, Route>> = Object.fromEntries(
  (Object.keys(WEBHOOK_ROUTES) as (keyof typeof WEBHOOK_ROUTES)[]).map((name) => [
    WEBHOOK_ROUTES[name].path,
    withDelivery(WEBHOOK_ROUTES[name].method, HANDLERS[name]),
  ]),
);
