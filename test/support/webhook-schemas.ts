// Every webhook the sandbox makes, held against the schema of its kind in the service's own description
// (test/support/openapi/webhooks.json, copied from its `webhooks` section).
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { WebhookEvent } from '../../src/model/webhooks.js';

type FormatsPlugin = typeof addFormatsModule.default;
const addFormats: FormatsPlugin = (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv, ['uuid', 'date-time', 'uri']);
const { kinds } = JSON.parse(readFileSync(new URL('./openapi/webhooks.json', import.meta.url), 'utf8')) as { kinds: Record<string, object> };
const validators = new Map<string, ValidateFunction>(Object.entries(kinds).map(([kind, schema]) => [kind, ajv.compile(schema)]));

/** What is wrong with the event's payload against its kind's schema; empty when nothing is. */
export function schemaProblems(event: { type: string; payload: WebhookEvent['payload'] }): string[] {
  const validate = validators.get(event.type);
  if (!validate) return [`no schema for kind ${event.type}`];
  if (validate(event.payload)) return [];
  return (validate.errors ?? []).map((error) => `${event.type} ${error.instancePath || '/'} ${error.message ?? ''}`);
}
