// v2 requests to an in-process sandbox, each checked against the description (openapi-v2.json, a copy of
// api/v2/openapi-v2.json kept in the test tree, and openapi-flaky-v2.json for the Flaky Tests operations, whose
// responses name their codes in their descriptions): the request's path parameters, query and body must be what the
// description accepts (or, for a test of a refusal, what it refuses), and the answer must be a status the
// operation declares, its body valid against that status's schema, and an error's code among the response's
// `x-error-codes`. Two exceptions, both the description's own words: a 401 or a 429 may come from the edge on
// any operation (a 429 bare), and an operation marked `x-incomplete` may answer an undeclared error status, in
// the envelope with a code of the ErrorCode enum.
import { appendFileSync, readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterEach, beforeEach, expect } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/io/server.js';

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: { type?: string; $ref?: string; allOf?: unknown[] };
  $ref?: string;
}
interface Response {
  content?: Record<string, { schema: object }>;
  'x-error-codes'?: string[];
  description?: string;
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: object } } };
  responses: Record<string, Response>;
  'x-incomplete'?: boolean;
}
interface Spec {
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter>; responses?: Record<string, Response>; schemas: { ErrorCode: { enum: string[] } } };
}

/** The descriptions by the name their `$ref`s are rewritten to. */
const SPECS: Record<string, Spec> = Object.fromEntries(
  (['v2', 'v2-flaky'] as const).map((name) => [
    name,
    JSON.parse(readFileSync(new URL(`./openapi/${name === 'v2' ? 'openapi-v2' : 'openapi-flaky-v2'}.json`, import.meta.url), 'utf8')) as Spec,
  ]),
);

type FormatsPlugin = typeof addFormatsModule.default;
const addFormats: FormatsPlugin = (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);
// The description carries OpenAPI's own keywords (`example`, `x-…`): not strict, so they are annotations.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
addFormats(ajv, ['uuid', 'date-time', 'uri']);
for (const [name, spec] of Object.entries(SPECS)) ajv.addSchema(spec as object, name);

const compiled = new Map<string, ValidateFunction>();
/** A schema of the description `specName` (`$ref`s resolved within it), compiled once. */
function validatorOf(schema: object, specName: string): ValidateFunction {
  const key = `${specName} ${JSON.stringify(schema)}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(schema, specName) as object);
    compiled.set(key, validate);
  }
  return validate;
}

function rewriteRefs(schema: unknown, specName: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewriteRefs(item, specName));
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${specName}${value}` : rewriteRefs(value, specName),
    ]),
  );
}

function problems(validate: ValidateFunction, value: unknown, where: string): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error: ErrorObject) => `${where}${error.instancePath}: ${error.message ?? error.keyword}`);
}

const OPERATIONS = new Map<string, { method: string; path: string; operation: Operation; specName: string }>();
for (const [specName, spec] of Object.entries(SPECS)) {
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (typeof operation === 'object' && operation !== null && 'operationId' in operation)
        OPERATIONS.set(operation.operationId, { method: method.toUpperCase(), path, operation, specName });
    }
  }
}

function parametersOf(operation: Operation, specName: string): Parameter[] {
  const spec = SPECS[specName]!;
  return (operation.parameters ?? []).map((parameter) => (parameter.$ref ? spec.components.parameters[parameter.$ref.split('/').pop()!]! : parameter));
}

/** A response as declared, its `$ref` followed; its codes as `x-error-codes` lists them, or as its description names them. */
function responseOf(specName: string, response: Response | undefined): (Response & { codes?: string[] }) | undefined {
  const found = response?.$ref ? SPECS[specName]!.components.responses?.[response.$ref.split('/').pop()!] : response;
  if (!found) return undefined;
  const named = found.description?.match(/`[A-Z_]+`/g)?.map((code) => code.slice(1, -1));
  const codes = found['x-error-codes'] ?? named;
  return codes ? { ...found, codes } : found;
}

/** A query value as the description types it: the string sent, read as a number or a boolean where it says so. */
function typed(parameter: Parameter, text: string): unknown {
  const type = parameter.schema.type;
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** What the description finds wrong with a request; empty when it accepts it. */
export function requestProblems(operationId: string, call: Pick<V2Call, 'params' | 'query' | 'body'>): string[] {
  const found = OPERATIONS.get(operationId);
  if (!found) throw new Error(`unknown v2 operation ${operationId}`);
  const { operation, specName } = found;
  const issues: string[] = [];
  for (const parameter of parametersOf(operation, specName)) {
    const source = parameter.in === 'path' ? call.params : call.query;
    const value = source?.[parameter.name];
    if (value === undefined) {
      if (parameter.required) issues.push(`${parameter.in} ${parameter.name}: required`);
      continue;
    }
    issues.push(...problems(validatorOf(parameter.schema, specName), typed(parameter, String(value)), `${parameter.in} ${parameter.name}`));
  }
  const schema = operation.requestBody?.content['application/json'].schema;
  if (schema && call.body !== undefined) issues.push(...problems(validatorOf(schema, specName), call.body, 'body'));
  if (schema && call.body === undefined) issues.push('body: required');
  return issues;
}

/** The operation a request sent (method, path with its query) is, with its path parameters and query; undefined for none. */
export function operationOf(
  method: string,
  target: string,
): { operationId: string; params: Record<string, string>; query: Record<string, string>; flaky: boolean } | undefined {
  const url = new URL(target, 'http://recorded');
  for (const [operationId, found] of OPERATIONS) {
    if (found.method !== method) continue;
    const names: string[] = [];
    const pattern = new RegExp(`^${found.path.replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
    const match = pattern.exec(url.pathname);
    if (!match) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    return { operationId, params, query: Object.fromEntries(url.searchParams), flaky: found.specName === 'v2-flaky' };
  }
  return undefined;
}

export interface V2Call {
  /** Path parameters by name (`id`). */
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** The Bearer key; undefined sends the default, null sends none. */
  key?: string | null;
  headers?: Record<string, string>;
  /** The request breaks the description on purpose (a refusal under test): the description must refuse it too. */
  invalid?: boolean;
}

export interface V2Answer {
  status: number;
  text: string;
  body: any;
  headers: Headers;
}

const DEFAULT_KEY = 'trunk_v2_test';
const EDGE_ERROR_STATUSES = new Set(['401', '429']);

/** Sends the operation to the sandbox at `origin` (http://127.0.0.1:PORT), checking request and answer. */
export async function v2(origin: string, operationId: string, call: V2Call = {}): Promise<V2Answer> {
  const found = OPERATIONS.get(operationId);
  if (!found) throw new Error(`unknown v2 operation ${operationId}`);
  const issues = requestProblems(operationId, call);
  if (call.invalid) expect(issues, `${operationId}: the description should refuse this request`).not.toEqual([]);
  else expect(issues, `${operationId}: the description refuses this request`).toEqual([]);

  const path = found.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(call.params?.[name] ?? ''));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) query.set(name, String(value));
  const url = `${origin}${path}${query.size > 0 ? `?${query}` : ''}`;
  const headers: Record<string, string> = { ...call.headers };
  const key = call.key === undefined ? DEFAULT_KEY : call.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method: found.method, headers, ...(call.body !== undefined && { body: JSON.stringify(call.body) }) });
  const text = await response.text();
  const answer: V2Answer = { status: response.status, text, body: undefined, headers: response.headers };
  if ((response.headers.get('content-type') ?? '').startsWith('application/json') && text !== '') answer.body = JSON.parse(text);
  else answer.body = text;
  expect(answerProblems(operationId, answer), `${operationId} answered ${answer.status} ${text.slice(0, 300)}`).toEqual([]);
  // For the coverage count (scripts/v2-coverage.mjs): which operation answered which status and code.
  if (process.env.MQ_V2_COVERAGE) {
    const code = (answer.body as { error?: { code?: string } } | undefined)?.error?.code ?? '';
    appendFileSync(process.env.MQ_V2_COVERAGE, `${operationId} ${answer.status} ${code}\n`);
  }
  return answer;
}

/** What the description finds wrong with an answer of the operation. */
export function answerProblems(operationId: string, answer: Pick<V2Answer, 'status' | 'text' | 'body'>): string[] {
  const { operation, specName } = OPERATIONS.get(operationId)!;
  const status = String(answer.status);
  const declared = responseOf(specName, operation.responses[status]);
  if (status === '429') return answer.text === '' ? [] : ['a 429 goes bare, with no body'];
  if (!declared && !EDGE_ERROR_STATUSES.has(status) && !(operation['x-incomplete'] && answer.status >= 400)) {
    return [`status ${status} is not one ${operationId} declares (${Object.keys(operation.responses).join(', ')})`];
  }
  const content = declared?.content;
  if (!content) {
    if (answer.status >= 400) return envelopeProblems(answer.body, undefined);
    return answer.text === '' ? [] : [`status ${status} declares no body, but one came`];
  }
  const [type, { schema }] = Object.entries(content)[0]!;
  const value = type === 'application/json' ? answer.body : answer.text;
  const issues = problems(validatorOf(schema, specName), value, 'answer');
  // An incomplete operation's list of codes is what the docs showed of it, not all it answers.
  if (answer.status >= 400) issues.push(...envelopeProblems(answer.body, operation['x-incomplete'] ? undefined : declared?.codes));
  return issues;
}

const ERROR_CODES = new Set<string>(Object.values(SPECS).flatMap((spec) => spec.components.schemas.ErrorCode.enum));

function envelopeProblems(body: unknown, codes: readonly string[] | undefined): string[] {
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (typeof code !== 'string') return ['an error answer without the envelope'];
  if (codes && !codes.includes(code)) return [`code ${code} is not among the response's x-error-codes (${codes.join(', ')})`];
  if (!ERROR_CODES.has(code)) return [`code ${code} is not in the ErrorCode enum`];
  return [];
}

// ---------------------------------------------------------------- the fixture

export interface V2Fixture {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** The v1 base URL (…/v1). */
  readonly v1: string;
  call(operationId: string, call?: V2Call): Promise<V2Answer>;
  /** Moves the rate limits' clock on. */
  advanceRateClock(ms: number): void;
  /** A v1 operation (POST /v1/<name>) with the sandbox's token. */
  v1Call(operation: string, body: unknown): Promise<{ status: number; body: unknown }>;
  /** A control route with the v1 token. */
  control(route: 'advance' | 'pullRequests' | 'graphSoftCap', body: unknown): Promise<unknown>;
}

/** A fresh sandbox per test on a manual clock, its rate limits counted on a clock the test moves. */
export function useV2Sandbox(options: Omit<SandboxOptions, 'clock' | 'rateClock'> = {}): V2Fixture {
  let sandbox: RunningSandbox | undefined;
  let rateNow = 0;
  beforeEach(async () => {
    rateNow = 0;
    sandbox = await startSandbox({ clock: 'manual', rateClock: () => rateNow, ...options });
  });
  afterEach(async () => {
    await sandbox?.close();
  });
  const origin = () => sandbox!.url.replace(/\/v1$/, '');
  return {
    get origin() {
      return origin();
    },
    get v1() {
      return sandbox!.url;
    },
    call: (operationId, call) => v2(origin(), operationId, call),
    advanceRateClock: (ms) => {
      rateNow += ms;
    },
    v1Call: async (operation, body) => {
      const response = await fetch(`${sandbox!.url}/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-token': 'sandbox' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, body: parsed };
    },
    control: async (route, body) => {
      const response = await fetch(`${origin()}/_sandbox/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-token': 'sandbox' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`_sandbox/${route}: ${response.status} ${await response.text()}`);
      return response.json();
    },
  };
}

export const WIDGETS_URL = 'https://github.com/acme/widgets';

/** Looks the repository up by its URL (so it is known), creates a queue on `branch`: the ids. */
export async function queueIn(fixture: Pick<V2Fixture, 'call'>, branch = 'main', url = WIDGETS_URL): Promise<{ repositoryId: string; queueId: string }> {
  const repositories = await fixture.call('repositories.resolveByProviderUrl', { query: { providerUrl: url } });
  expect(repositories.status).toBe(200);
  const repositoryId = repositories.body.data[0].id as string;
  const created = await fixture.call('mergeQueues.create', { body: { repositoryId, targetBranch: branch } });
  expect(created.status).toBe(201);
  return { repositoryId, queueId: created.body.id as string };
}
