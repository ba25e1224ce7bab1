// What `mq webhooks listen` and `trigger` ask of a sandbox's webhook control routes (src/api/sandbox-webhooks.ts),
// in the model's words: the client (src/api/v1/sandbox-control.ts) checks the routes' answers against their contract.
import type { Repo } from './repository.js';
import type { VerifyFailure } from './webhook-signature.js';

/** An event as the service sends it: `id` is its `svix-id`, the same on every attempt. */
export interface WebhookEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface WebhookControl {
  /** Subscribes `url` to the kinds of `events` (none: all), signed with `secret` (none: one the sandbox makes); its id and secret. */
  addEndpoint(endpoint: { url: string; events?: string[]; secret?: string }): Promise<{ id: string; secret: string }>;
  removeEndpoint(id: string): Promise<void>;
  /** One event of a kind, about PR `pr` where the kind is a PR's. */
  triggerEvent(request: { type: string; pr?: number; repo?: Repo; targetBranch?: string }): Promise<WebhookEvent>;
}

/** Why a delivery did not verify (model/webhook-signature.ts), with what the words need: the headers missing, the signing time. */
export interface VerifyFailed {
  failure: VerifyFailure;
  missing?: string[];
  /** The attempt's timestamp, epoch seconds, when it was read. */
  signedAt?: number;
  /** The time it was checked at, epoch seconds. */
  checkedAt: number;
}

/** `mq webhooks verify`: a captured delivery checked. */
export type WebhookVerification = { ok: true; id: string; type?: string; signedAt: number } | ({ ok: false } & VerifyFailed);

/** One request `mq webhooks listen` received, and what it did with it. */
export interface WebhookDelivery {
  /** Epoch ms, local clock. */
  receivedAt: number;
  /** Its `svix-id`, when it had one. */
  id: string | undefined;
  /** Why it was refused (answered 400, not forwarded); undefined when it verified. */
  refused?: VerifyFailed;
  /** A retry: an event already received under this id. */
  duplicate: boolean;
  type?: string;
  payload?: Record<string, unknown>;
  /** Where it was forwarded and the answer's status, or the failure that stood for one; `at`, when (epoch ms). */
  forward?: ({ url: string; status: number } | { url: string; error: string }) & { at?: number };
  /**
   * A forwarded delivery is told twice: `arrived` as it verified (the forward under way), then `forwarded` with
   * the forward's outcome. Absent: told once, whole.
   */
  stage?: 'arrived' | 'forwarded';
}
