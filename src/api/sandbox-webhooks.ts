// The sandbox's webhook control routes (docs/sandbox.md#webhooks): what each takes and answers, written once,
// read by the sandbox's routes and by `mq webhooks listen` / `trigger`, which call them.
import * as z from 'zod';
import { keyOf, NOT_A_SECRET } from '../model/webhook-signature.js';
import { webhookUrlProblem } from '../model/webhooks.js';
import { PrNumber, Repo } from './shapes.js';

/** Where each route is, under `/_sandbox/` (and `/v1/_sandbox/`). GET routes take no body. */
export const WEBHOOK_ROUTES = {
  add: { method: 'POST', path: 'webhooks/endpoints/add' },
  list: { method: 'GET', path: 'webhooks/endpoints' },
  remove: { method: 'POST', path: 'webhooks/endpoints/remove' },
  trigger: { method: 'POST', path: 'webhooks/trigger' },
  attempts: { method: 'GET', path: 'webhooks/attempts' },
  events: { method: 'GET', path: 'webhooks/events' },
} as const;

/** An endpoint's URL, refused in the words `--webhook` and the library's `webhooks` say it (zod's: "Invalid URL"). */
export const WebhookUrl = z
  .string()
  .superRefine((url, context) => {
    const problem = webhookUrlProblem(url);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  // For the seed's JSON Schema, which an editor checks with (a refinement has none of its own).
  .meta({ format: 'uri' });

/**
 * An endpoint's signing secret, refused where the option or the seed names it (the delivery's own refusal names
 * the URL): `--webhook-secret`'s form.
 */
export const SigningSecret = z.string().refine((secret) => keyOf(secret) !== undefined, NOT_A_SECRET);

/** `events`: kinds and `family.*` patterns (model/webhooks.ts `kindMatches`); none or empty: every kind. */
export const AddEndpoint = z.object({
  url: WebhookUrl,
  events: z.array(z.string().min(1)).optional(),
  /** Base64 of 24 to 64 bytes, `whsec_` before it or not; made by the sandbox when left out. */
  secret: z.string().min(1).optional(),
});

export const Endpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  secret: z.string(),
  /** Disabled by a `webhook-delivery: disable` answer: sent nothing more. */
  disabled: z.boolean(),
  /** Deliveries waiting for this endpoint (first tries and retries). */
  backlog: z.number(),
  /** Deliveries dropped because the backlog was full. */
  overflowed: z.number(),
});
export type Endpoint = z.infer<typeof Endpoint>;

export const EndpointList = z.object({ endpoints: z.array(Endpoint) });
export const RemoveEndpoint = z.object({ id: z.string().min(1) });

/** One event of a kind, about a PR of a queue where the kind is a PR's (the queue's repository and branch default to its only queue). */
export const TriggerEvent = z.object({
  type: z.string().min(1),
  pr: PrNumber.optional(),
  repo: Repo.optional(),
  targetBranch: z.string().min(1).optional(),
});

/** An event as the service sends it: `id` is its `svix-id`, the same on every attempt to every endpoint. */
export const WebhookEvent = z.object({ id: z.string(), type: z.string(), payload: z.record(z.string(), z.unknown()) });
export type WebhookEvent = z.infer<typeof WebhookEvent>;
export const EventList = z.object({ events: z.array(WebhookEvent) });

export const Attempt = z.object({
  eventId: z.string(),
  type: z.string(),
  endpointId: z.string(),
  /** The n-th attempt of this event at this endpoint, from 1. */
  attempt: z.number(),
  /** When it was sent, on the sandbox's clock (ISO 8601). */
  at: z.string(),
  /** The answer's status; null when none came (refused, reset, no answer within 15 s). */
  status: z.number().nullable(),
  latencyMs: z.number().nullable(),
  /** When the next attempt is due on the sandbox's clock; null once delivered, abandoned or out of attempts. */
  nextAttemptAt: z.string().nullable(),
});
export const AttemptList = z.object({ attempts: z.array(Attempt), overflowed: z.number() });
