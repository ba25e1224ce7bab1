// The v2 API over the transport, each operation as its row says (contract.ts): ids in the path, filters in the
// query, a JSON body on writes, and the answer checked against the row's schema, as on v1.
import { ApiError, isNotFound } from '../../errors.js';
import type { Answer } from '../error-body.js';
import { type ClientOptions, ApiClient } from '../transport.js';
import { CHECKS } from './checks.js';
import { type AnswerName, type AnswerOf, fillPath, needsOf, PERMISSIONS, type V2Operation, V2_OPERATIONS, type V2OperationName } from './contract.js';
import { V2_DIALECT } from './dialect.js';

const NOT_VISIBLE = 'not found, or not visible to this key';

export interface V2Request {
  params?: Readonly<Record<string, string>>;
  /** Lists go as one comma-separated value (`number=1,2,3`), as the description writes them. */
  query?: Readonly<Record<string, string | number | boolean | readonly (string | number)[] | undefined>>;
  body?: unknown;
}

/** A read's answer, checked; a write's, or undefined where its body said nothing mq can read (it was applied all the same). */
type Checked<N extends V2OperationName> = (typeof V2_OPERATIONS)[N]['retry'] extends true ? AnswerOf<N> : AnswerOf<N> | undefined;

export class V2Client extends ApiClient {
  constructor(options: ClientOptions) {
    super(options, V2_DIALECT);
  }

  /** The answer's JSON, checked against the row's schema (see `checked`). */
  async call<N extends V2OperationName>(name: N, request: V2Request = {}): Promise<Checked<N>> {
    const { answer: schema, retry } = V2_OPERATIONS[name] as V2Operation & { answer?: AnswerName };
    const answer = await this.send(name, request);
    return this.checked(name, answer, retry, schema && CHECKS[schema], schema && (() => schemaOf(schema))) as Promise<Checked<N>>;
  }

  /** The answer as text: the Prometheus exposition of the metrics endpoints. */
  async text(name: V2OperationName, request: V2Request = {}): Promise<string> {
    return (await this.send(name, request)).text;
  }

  /** One exchange: a 403 names the permission the key lacks, a 404 that it may be another organization's. */
  private async send(name: V2OperationName, request: V2Request): Promise<Answer> {
    const row: V2Operation = V2_OPERATIONS[name];
    const query: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) query[key] = Array.isArray(value) ? value.join(',') : String(value);
    }
    try {
      return await this.transport.send({
        method: row.method,
        path: fillPath(row.path, request.params),
        operation: name,
        ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
        ...(Object.keys(query).length > 0 && { query }),
        idempotent: row.retry,
        // PR and metrics reads have budgets of their own, as the service buckets.
        budget: row.bucket === 'organization' ? 'other' : row.bucket,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const hint =
        error.status === 403 ? permissionHint(name, request.body) : isNotFound(error) && !error.apiCode?.startsWith('ESTIMATE') ? NOT_VISIBLE : undefined;
      if (hint === undefined) throw error;
      throw new ApiError(error.status, `${error.message}: ${hint}`, error.operation, {
        cause: error,
        ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
        ...(error.apiCode !== undefined && { apiCode: error.apiCode }),
      });
    }
  }
}

/** The schema itself, loaded with zod only when the check leaves a value to it: to explain what is wrong. */
async function schemaOf(name: AnswerName) {
  const [schemas, flaky] = await Promise.all([import('./schemas.js'), import('./flaky-schemas.js')]);
  return { ...schemas, ...flaky }[name];
}

/** What to tell of a 403 on `name`: the permissions the request needed, and where a key gets them. */
function permissionHint(name: V2OperationName, body: unknown): string | undefined {
  const needs = needsOf(name, body);
  if (needs.length === 0) return undefined;
  const listed = needs.map((permission) => `"${PERMISSIONS[permission]}"`).join(' and ');
  return `this needs an API key with the ${listed} permission${needs.length > 1 ? 's' : ''} (an organization admin sets them in the service's Settings → Developer → API Keys)`;
}

/** Every item of a list, following nextCursor to its end. */
export async function allPages<T>(page: (cursor: string | undefined) => Promise<{ data: T[]; hasMore: boolean; nextCursor?: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = await page(cursor);
    items.push(...answer.data);
    cursor = answer.hasMore && answer.nextCursor ? answer.nextCursor : undefined;
  } while (cursor);
  return items;
}
