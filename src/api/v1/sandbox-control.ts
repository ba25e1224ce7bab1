// The client of the sandbox's webhook control routes (../sandbox-webhooks.ts), beside v1's: they answer as v1 does,
// under the root and /v1, and take a v1 token or a v2 key, whichever the user has.
import type * as z from 'zod';
import type { WebhookControl } from '../../model/webhook-control.js';
import { V1_DIALECT } from './dialect.js';
import { isV2Key } from '../../model/vocabulary.js';
import { AddEndpoint, Endpoint, RemoveEndpoint, TriggerEvent, WEBHOOK_ROUTES, WebhookEvent } from '../sandbox-webhooks.js';
import { ApiClient, type ClientOptions } from '../transport.js';
import { IN_ENGLISH } from '../../text/in-english.js';

class ControlClient extends ApiClient {
  async call<T>(route: keyof typeof WEBHOOK_ROUTES, body: unknown, answer?: z.ZodType<T>): Promise<T> {
    const { method, path } = WEBHOOK_ROUTES[route];
    const sent = await this.transport.send({
      method,
      path: `/_sandbox/${path}`,
      operation: `webhooks/${route}`,
      body: JSON.stringify(body),
      idempotent: false,
    });
    return (answer && this.checked(`webhooks/${route}`, sent, true, undefined, async () => answer)) as Promise<T>;
  }
}

/** The control routes answer as v1 does, and take a v2 key as v2 does (a Bearer credential). */
const CONTROL_DIALECT: typeof V1_DIALECT = {
  ...V1_DIALECT,
  credentialHeaders: (token) => (isV2Key(token) ? { authorization: `Bearer ${token}` } : V1_DIALECT.credentialHeaders(token)),
  secretHeaders: [...V1_DIALECT.secretHeaders, 'authorization'],
  otherApisCredential: undefined,
};

/** The control routes of the sandbox at `options.apiUrl` (its root, or its /v1 or /v2). */
export function sandboxControl(options: ClientOptions): WebhookControl {
  const root = options.apiUrl.replace(/\/+$/, '').replace(/\/v[12]$/, '');
  const client = new ControlClient({ ...options, apiUrl: root, retries: 0 }, CONTROL_DIALECT);
  return {
    addEndpoint: (endpoint) => client.call('add', AddEndpoint.parse(endpoint, IN_ENGLISH), Endpoint),
    removeEndpoint: (id) => client.call('remove', RemoveEndpoint.parse({ id }, IN_ENGLISH)),
    triggerEvent: (request) => client.call('trigger', TriggerEvent.parse(request, IN_ENGLISH), WebhookEvent),
  };
}
