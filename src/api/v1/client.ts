// The v1 API over the transport, one endpoint at a time, as the contract's rows give them (endpoints.ts): each
// request is checked against its schema before anything is sent (a bad one is a UsageError: exit 2, nothing
// sent) and each answer after (a bad one names the field). What it takes and gives are v1's own shapes:
// v1-service.ts maps them to and from the model.
import type * as z from 'zod';
import { ResponseError, UsageError } from '../../errors.js';
import type { Repo } from '../../model/repository.js';
import type { ListTail } from '../../model/service.js';
import { BODY_LIMIT_BYTES } from '../../model/vocabulary.js';
import { describeIssues } from '../format-path.js';
import { withListTail } from '../streamed-list.js';
import { type Answer, type ClientOptions, Transport } from '../transport.js';
import { V1_DIALECT } from './dialect.js';
import { type Endpoint, ENDPOINTS, type EndpointName, type PostName } from './endpoints.js';

/**
 * A command parses a request or an answer of a kind once: zod's compiled fast path (a generated function per
 * object shape) costs more to make than that one parse saves.
 */
const ONCE = { jitless: true } as const;

type RequestOf<N extends PostName> = z.input<(typeof ENDPOINTS)[N]['request']>;
type ResponseOf<N extends EndpointName> = z.output<(typeof ENDPOINTS)[N]['response']>;

export class MergeQueueClient {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport({ ...options, dialect: V1_DIALECT, apiUrl: options.apiUrl.replace(/\/+$/, '') });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** The service's clock, as of its last answer; undefined before any. */
  serviceNow(): number | undefined {
    return this.transport.serviceNow();
  }

  /**
   * One POST endpoint. With `more`, a list too long to hold in memory (a targets file) follows the body's last
   * list, streamed from its source; only a write takes one, and it is never retried, so it is read once.
   */
  async call<N extends PostName>(name: N, body: RequestOf<N>, more?: ListTail): Promise<ResponseOf<N>> {
    const endpoint: Endpoint & { request: z.ZodType } = ENDPOINTS[name];
    const checked = endpoint.request.safeParse(body, ONCE);
    if (!checked.success) throw new UsageError(`invalid ${name} request: ${describeIssues(checked.error)}`);
    const json = JSON.stringify(checked.data);
    const sent = more ? await withListTail(json, more) : json;
    const size = typeof sent === 'string' ? Buffer.byteLength(sent) : sent.bytes;
    if (size > BODY_LIMIT_BYTES) throw new UsageError(`the ${name} request is ${size} bytes, over the service's 20 MiB limit`);
    const answer = await this.transport.send({ method: endpoint.method, path: endpoint.path, operation: name, body: sent, idempotent: endpoint.retry });
    return parseAnswer(name, answer, endpoint, this.transport) as ResponseOf<N>;
  }

  /** The Prometheus exposition text, as received. Without a repo it covers every repository of the org. */
  async getMergeQueueMetrics(query: { repo?: Repo } = {}): Promise<string> {
    const params = query.repo ? { repo: `${query.repo.owner}/${query.repo.name}`, repoHost: query.repo.host } : undefined;
    return (await this.get('getMergeQueueMetrics', params)).text;
  }

  /** `GET /status`: the service's own health. */
  async status(): Promise<ResponseOf<'status'>> {
    return parseAnswer('status', await this.get('status'), ENDPOINTS.status, this.transport) as ResponseOf<'status'>;
  }

  private get(name: 'getMergeQueueMetrics' | 'status', query?: Record<string, string>): Promise<Answer> {
    const endpoint: Endpoint = ENDPOINTS[name];
    return this.transport.send({
      method: endpoint.method,
      path: endpoint.path,
      operation: name,
      ...(query && { query }),
      idempotent: endpoint.retry,
      ...(endpoint.anonymous && { anonymous: true }),
    });
  }
}

/**
 * A read must answer with its documented shape. A write that answered 2xx was applied, whatever its body says:
 * an empty or non-JSON body is an acknowledgement, never an error that would invite a second attempt.
 */
function parseAnswer(operation: string, answer: Answer, endpoint: Endpoint, transport: Pick<Transport, 'notJson'>): unknown {
  const { text } = answer;
  const isRead = endpoint.retry;
  let data: unknown;
  if (text.trim() !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      if (!isRead) return endpoint.response.parse(undefined);
      throw new ResponseError(transport.notJson(operation, answer));
    }
  } else if (isRead) {
    throw new ResponseError(`${operation} answered with an empty body`);
  }
  const parsed = endpoint.response.safeParse(data, ONCE);
  if (parsed.success) return parsed.data;
  if (!isRead) return endpoint.response.parse(undefined);
  throw new ResponseError(`${operation} answered with an unexpected shape: ${describeIssues(parsed.error)}`);
}
