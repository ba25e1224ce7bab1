// The v1 API over the transport, one endpoint at a time (endpoints.ts): a request is checked before it is sent (a
// bad one is a UsageError: exit 2) and its answer after; v1-service.ts maps v1's shapes to and from the model.
import type { z } from 'zod';
import { UsageError } from '../../errors.js';
import type { Repo } from '../../model/repository.js';
import type { ListTail } from '../../model/service.js';
import { BODY_LIMIT_BYTES } from '../../model/vocabulary.js';
import { safeParseChecked } from '../check-runtime.js';
import { describeIssues } from '../format-path.js';
import { withListTail } from '../streamed-list.js';
import type { Answer } from '../error-body.js';
import { type ClientOptions, ApiClient, type Exchange } from '../transport.js';
import { CHECKS, type SCHEMAS, type SchemaName } from './checks.js';
import { V1_DIALECT } from './dialect.js';
import { ENDPOINTS, type EndpointName, type PostName } from './endpoints.js';

type Input<N extends SchemaName> = z.input<(typeof SCHEMAS)[N]>;
type Output<N extends SchemaName> = z.output<(typeof SCHEMAS)[N]>;
type RequestOf<N extends PostName> = Input<(typeof ENDPOINTS)[N]['request']>;
type ResponseOf<N extends EndpointName> = Output<(typeof ENDPOINTS)[N]['response']>;

/** The schema itself, loaded with zod only when a check leaves a value to it: to explain what is wrong. */
async function schemaOf<N extends SchemaName>(name: N): Promise<(typeof SCHEMAS)[N]> {
  return (await import('./schemas.js'))[name];
}

export class MergeQueueClient extends ApiClient {
  constructor(options: ClientOptions) {
    super(options, V1_DIALECT);
  }

  /** One POST endpoint; `more`, a list too long to hold in memory (a targets file, a write: sent once), streamed after the body's last list. */
  async call<N extends PostName>(name: N, body: RequestOf<N>, more?: ListTail): Promise<ResponseOf<N>> {
    const endpoint = ENDPOINTS[name] as (typeof ENDPOINTS)[PostName];
    const checked = await safeParseChecked(CHECKS[endpoint.request], body, () => schemaOf(endpoint.request));
    if (!checked.success) throw new UsageError(`invalid ${name} request: ${describeIssues(checked.error)}`);
    const json = JSON.stringify(checked.data);
    const sent = more ? await withListTail(json, more) : json;
    const size = typeof sent === 'string' ? Buffer.byteLength(sent) : sent.bytes;
    if (size > BODY_LIMIT_BYTES) throw new UsageError(`the ${name} request is ${size} bytes, over the service's 20 MiB limit`);
    const answer = await this.transport.send({ method: endpoint.method, path: endpoint.path, operation: name, body: sent, idempotent: endpoint.retry });
    return this.checked(name, answer, endpoint.retry, CHECKS[endpoint.response], () => schemaOf(endpoint.response)) as Promise<ResponseOf<N>>;
  }

  /** The Prometheus exposition text, as received. Without a repo it covers every repository of the org. */
  async getMergeQueueMetrics(query: { repo?: Repo } = {}): Promise<string> {
    const params = query?.repo ? { repo: `${query.repo.owner}/${query.repo.name}`, repoHost: query.repo.host } : undefined;
    return (await this.get('getMergeQueueMetrics', { query: params })).text;
  }

  /** `GET /status`: the service's own health. It takes no token, so none is sent. */
  async status(): Promise<Output<'ServiceStatus'>> {
    const answer = await this.get('status', { anonymous: true });
    return this.checked('status', answer, true, CHECKS.ServiceStatus, () => schemaOf('ServiceStatus')) as Promise<Output<'ServiceStatus'>>;
  }

  private get(name: 'getMergeQueueMetrics' | 'status', extra: Pick<Exchange, 'query' | 'anonymous'>): Promise<Answer> {
    const endpoint = ENDPOINTS[name];
    return this.transport.send({ method: endpoint.method, path: endpoint.path, operation: name, idempotent: endpoint.retry, ...extra });
  }
}
