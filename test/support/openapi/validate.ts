// Checks a body against the hosted service's published description (the snapshot in requests.json and
// responses.json; see README.md), so tests can prove that what mq sends is what the service accepts.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

interface Entry {
  schema: object | null;
}
interface Snapshot {
  source: string;
  operations: Record<string, Entry>;
}

function load(file: string): Snapshot {
  return JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as Snapshot;
}

const requests = load('./requests.json');
const responses = load('./responses.json');
/** v1 as served today: the operations openapi-v1-additions.json changes or adds, whole (see README.md). */
const current = JSON.parse(readFileSync(new URL('./v1-current.json', import.meta.url), 'utf8')) as {
  requests: Record<string, object>;
  responses: Record<string, object>;
};

// ajv-formats is CommonJS: under NodeNext its default import is the whole module.exports, typed as the namespace.
type FormatsPlugin = typeof addFormatsModule.default;
const addFormats: FormatsPlugin = (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

// OpenAPI 3.1 schemas are JSON Schema 2020-12. Strict, so a keyword ajv does not know is an error, not a pass.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv, ['uuid', 'date-time', 'uri']);

/** Every schema compiled once, up front: a snapshot ajv cannot compile fails the first import, loudly. */
function compileAll(snapshot: Snapshot): Map<string, ValidateFunction | null> {
  return new Map(Object.entries(snapshot.operations).map(([name, entry]) => [name, entry.schema ? ajv.compile(entry.schema) : null]));
}
const requestValidators = compileAll(requests);
const responseValidators = compileAll(responses);
const wrap = (schemas: Record<string, object>): Snapshot => ({
  source: 'v1-current',
  operations: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, { schema }])),
});
const currentRequestValidators = new Map([...requestValidators, ...compileAll(wrap(current.requests))]);
const currentResponseValidators = new Map([...responseValidators, ...compileAll(wrap(current.responses))]);

/** The 17 operation names, as the service spells them (`flaky-tests/get-test-details` included). */
export const OPERATIONS: readonly string[] = Object.keys(requests.operations);
/** The operations only v1 as served today has (v1-current.json): the published description has none of them. */
export const CURRENT_ONLY_OPERATIONS: readonly string[] = Object.keys(current.requests).filter((name) => !requestValidators.has(name));
/** Where the snapshot came from. */
export const SOURCE = requests.source;

function lookup(table: Map<string, ValidateFunction | null>, operation: string): ValidateFunction | null {
  const name = operation.replace(/^\/+/, '');
  if (!table.has(name)) throw new Error(`unknown operation "${operation}"; known: ${[...table.keys()].join(', ')}`);
  return table.get(name) ?? null;
}

function describe(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = `body${e.instancePath}`;
    const extra = e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
    return `${where}: ${e.message ?? e.keyword}${extra}`;
  });
}

/**
 * The errors the published description finds in a request body of `operation`; empty when it accepts it.
 * `getMergeQueueMetrics` is a GET: its only valid body is none (undefined).
 * Throws on an operation name it does not know, so a typo cannot pass as "invalid".
 */
export function validateRequest(operation: string, body: unknown): string[] {
  return checkRequest(requestValidators, operation, body);
}

function checkRequest(table: Map<string, ValidateFunction | null>, operation: string, body: unknown): string[] {
  const validate = lookup(table, operation);
  if (validate === null) return body === undefined ? [] : [`${operation} takes no request body`];
  return validate(body) ? [] : describe(validate.errors);
}

/**
 * The errors the published description finds in a 200 response body of `operation`; empty when it accepts it.
 * Operations whose 200 body has no published schema accept anything.
 */
export function validateResponse(operation: string, body: unknown): string[] {
  return checkResponse(responseValidators, operation, body);
}

function checkResponse(table: Map<string, ValidateFunction | null>, operation: string, body: unknown): string[] {
  const validate = lookup(table, operation);
  if (validate === null) return [];
  return validate(body) ? [] : describe(validate.errors);
}

/** As validateRequest, against v1 as the service serves it today (the published description with the additions). */
export function validateCurrentRequest(operation: string, body: unknown): string[] {
  return checkRequest(currentRequestValidators, operation, body);
}

/** As validateResponse, against v1 as the service serves it today. */
export function validateCurrentResponse(operation: string, body: unknown): string[] {
  return checkResponse(currentResponseValidators, operation, body);
}

const webhookValidators = new Map(
  Object.entries((JSON.parse(readFileSync(new URL('./webhooks.json', import.meta.url), 'utf8')) as { kinds: Record<string, object> }).kinds).map(
    ([kind, schema]) => [kind, ajv.compile(schema)],
  ),
);

/** What the published description refuses in a webhook's body, one line per error; [] when it accepts it. */
export function validateWebhook(event: { type: string; payload: unknown }): string[] {
  const validate = webhookValidators.get(event.type);
  if (!validate) return [`${event.type}: not a webhook kind of the description`];
  return validate(event.payload) ? [] : describe(validate.errors).map((line) => `${event.type}: ${line}`);
}
