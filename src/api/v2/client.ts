// The v2 API over the transport, one endpoint at a time (endpoints.ts): ids go in the path, filters in the query,
// a JSON body on writes. What it gives back is v2's own JSON: v2-service.ts maps it to the model, and checks there
// the fields it reads, so that a missing one is named instead of read as undefined.
import { ApiError, isNotFound, ResponseError } from '../../errors.js';
import { type Answer, type ClientOptions, Transport } from '../transport.js';
import { V2_DIALECT } from './dialect.js';
import { fillPath, V2_ENDPOINTS, type V2EndpointName } from './endpoints.js';
import { permissionHint } from './permissions.js';

const NOT_VISIBLE = 'not found, or not visible to this key';

export interface V2Request {
  params?: Readonly<Record<string, string>>;
  /** Lists go as one comma-separated value (`number=1,2,3`), as the description writes them. */
  query?: Readonly<Record<string, string | number | boolean | readonly (string | number)[] | undefined>>;
  body?: unknown;
}

export class V2Client {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport({ ...options, dialect: V2_DIALECT, apiUrl: options.apiUrl.replace(/\/+$/, '') });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  serviceNow(): number | undefined {
    return this.transport.serviceNow();
  }

  /** The answer's JSON; undefined for an answer without a body (204, and a 202 that says nothing). */
  async call<T = unknown>(name: V2EndpointName, request: V2Request = {}): Promise<T> {
    const answer = await this.send(name, request);
    if (answer.text.trim() === '') {
      if (V2_ENDPOINTS[name].retry) throw new ResponseError(`${name} answered with an empty body`);
      return undefined as T;
    }
    try {
      return JSON.parse(answer.text) as T;
    } catch {
      // A write that answered 2xx was applied, whatever its body says: never an error inviting a second try.
      if (!V2_ENDPOINTS[name].retry) return undefined as T;
      throw new ResponseError(this.transport.notJson(name, answer));
    }
  }

  /** The answer as text: the Prometheus exposition of the metrics endpoints. */
  async text(name: V2EndpointName, request: V2Request = {}): Promise<string> {
    return (await this.send(name, request)).text;
  }

  /**
   * One exchange. A refusal is worded for a person: a 403 names the permission the key lacks, a 404 says the
   * resource may be another organization's (v2 answers 404 rather than tell it exists, NOTES §2).
   */
  private async send(name: V2EndpointName, request: V2Request): Promise<Answer> {
    try {
      return await this.exchange(name, request);
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

  private exchange(name: V2EndpointName, request: V2Request): Promise<Answer> {
    const endpoint = V2_ENDPOINTS[name];
    const query: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) query[key] = Array.isArray(value) ? value.join(',') : String(value);
    }
    return this.transport.send({
      method: endpoint.method,
      path: fillPath(endpoint.path, request.params),
      operation: name,
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      ...(Object.keys(query).length > 0 && { query }),
      idempotent: endpoint.retry,
      ...('budget' in endpoint && { budget: endpoint.budget }),
    });
  }
}
