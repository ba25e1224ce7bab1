// One typed method per operation of the v1 API. Each validates its request before anything is sent (a bad one
// is a UsageError: exit 2, nothing sent) and its response after (a bad one names the missing field).
import type { z } from 'zod';
import { ResponseError, UsageError } from '../../errors.js';
import { safeParseChecked } from '../check-runtime.js';
import { CHECKS, type SCHEMAS, type SchemaName } from './checks.js';
import { BODY_LIMIT_BYTES } from '../../model/vocabulary.js';
import type { Repo } from './schemas.js';
import { withListTail, type ListTail } from '../streamed-list.js';
import { Transport, type Answer, type TransportOptions } from '../transport.js';

type Input<N extends SchemaName> = z.input<(typeof SCHEMAS)[N]>;
type Output<N extends SchemaName> = z.output<(typeof SCHEMAS)[N]>;

/** The schema itself, loaded with zod only when a check leaves a value to it: to explain what is wrong. */
async function schemaOf<N extends SchemaName>(name: N): Promise<(typeof SCHEMAS)[N]> {
  return (await import('./schemas.js'))[name];
}

export type ClientOptions = TransportOptions;

export class MergeQueueClient {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport({ ...options, apiUrl: options.apiUrl.replace(/\/+$/, '') });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** The service's clock, as of its last answer; undefined before any. */
  serviceNow(): number | undefined {
    return this.transport.serviceNow();
  }

  submitPullRequest(body: Input<'SubmitPullRequestRequest'>) {
    return this.post('submitPullRequest', 'SubmitPullRequestRequest', body, 'Acknowledgement', false);
  }

  cancelPullRequest(body: Input<'PullRequestRequest'>) {
    return this.post('cancelPullRequest', 'PullRequestRequest', body, 'Acknowledgement', false);
  }

  restartTestsOnPullRequest(body: Input<'PullRequestRequest'>) {
    return this.post('restartTestsOnPullRequest', 'PullRequestRequest', body, 'Acknowledgement', false);
  }

  getSubmittedPullRequest(body: Input<'GetSubmittedPullRequestRequest'>) {
    return this.post('getSubmittedPullRequest', 'GetSubmittedPullRequestRequest', body, 'SubmittedPullRequest', true);
  }

  listPullRequests(body: Input<'ListPullRequestsRequest'>) {
    return this.post('listPullRequests', 'ListPullRequestsRequest', body, 'ListPullRequestsResponse', true);
  }

  getQueue(body: Input<'QueueRequest'>) {
    return this.post('getQueue', 'QueueRequest', body, 'Queue', true);
  }

  createQueue(body: Input<'CreateQueueRequest'>) {
    return this.post('createQueue', 'CreateQueueRequest', body, 'Acknowledgement', false);
  }

  updateQueue(body: Input<'UpdateQueueRequest'>) {
    return this.post('updateQueue', 'UpdateQueueRequest', body, 'UpdateQueueResponse', false);
  }

  deleteQueue(body: Input<'QueueRequest'>) {
    return this.post('deleteQueue', 'QueueRequest', body, 'Acknowledgement', false);
  }

  /**
   * With `more`, a list too long to hold in memory (a targets file) follows `body.impactedTargets` in the request,
   * streamed from its source. Not retried, as every mutation; `more` could be read again if that changed.
   */
  setImpactedTargets(body: Input<'SetImpactedTargetsRequest'>, more?: ListTail) {
    return this.post('setImpactedTargets', 'SetImpactedTargetsRequest', body, 'Acknowledgement', false, more);
  }

  getMergeQueueTestingDetails(body: Input<'GetMergeQueueTestingDetailsRequest'>) {
    return this.post('getMergeQueueTestingDetails', 'GetMergeQueueTestingDetailsRequest', body, 'TestingDetails', true);
  }

  getTestDetails(body: Input<'GetTestDetailsRequest'>) {
    return this.post('flaky-tests/get-test-details', 'GetTestDetailsRequest', body, 'TestDetailsResponse', true);
  }

  listQuarantinedTests(body: Input<'ListQuarantinedTestsRequest'>) {
    return this.post('flaky-tests/list-quarantined-tests', 'ListQuarantinedTestsRequest', body, 'ListQuarantinedTestsResponse', true);
  }

  listUnhealthyTests(body: Input<'ListUnhealthyTestsRequest'>) {
    return this.post('flaky-tests/list-unhealthy-tests', 'ListUnhealthyTestsRequest', body, 'ListUnhealthyTestsResponse', true);
  }

  listFailingTests(body: Input<'ListFailingTestsRequest'>) {
    return this.post('flaky-tests/list-failing-tests', 'ListFailingTestsRequest', body, 'ListFailingTestsResponse', true);
  }

  linkTicketToTestCase(body: Input<'LinkTicketRequest'>) {
    return this.post('flaky-tests/link-ticket-to-test-case', 'LinkTicketRequest', body, 'Acknowledgement', false);
  }

  /** The Prometheus exposition text, as received. Without a repo it covers every repository of the org. */
  async getMergeQueueMetrics(query: { repo?: Repo } = {}): Promise<string> {
    const params = query.repo ? { repo: `${query.repo.owner}/${query.repo.name}`, repoHost: query.repo.host } : undefined;
    const answer = await this.transport.send({
      method: 'GET',
      path: '/getMergeQueueMetrics',
      operation: 'getMergeQueueMetrics',
      query: params,
      idempotent: true,
    });
    return answer.text;
  }

  /** `GET /status`: the service's own health. It takes no token, so none is sent. */
  async getStatus(): Promise<Output<'ServiceStatus'>> {
    const answer = await this.transport.send({ method: 'GET', path: '/status', operation: 'status', idempotent: true, anonymous: true });
    return parseAnswer('status', answer, 'ServiceStatus', true, this.transport);
  }

  private async post<Req extends SchemaName, Res extends SchemaName>(
    operation: string,
    request: Req,
    body: Input<Req>,
    response: Res,
    idempotent: boolean,
    more?: ListTail,
  ): Promise<Output<Res>> {
    const checked = await safeParseChecked(CHECKS[request], body, () => schemaOf(request));
    if (!checked.success) throw new UsageError(`invalid ${operation} request: ${await describe(checked.error)}`);
    const json = JSON.stringify(checked.data);
    const sent = more ? await withListTail(json, more) : json;
    const size = typeof sent === 'string' ? Buffer.byteLength(sent) : sent.bytes;
    if (size > BODY_LIMIT_BYTES) {
      throw new UsageError(`the ${operation} request is ${size} bytes, over the service's 20 MiB limit`);
    }
    const answer = await this.transport.send({ method: 'POST', path: `/${operation}`, operation, body: sent, idempotent });
    return parseAnswer(operation, answer, response, idempotent, this.transport);
  }
}

/**
 * A read must answer with its documented shape. A mutation that answered 2xx was applied, whatever its body
 * says: an empty or non-JSON body is an acknowledgement, never an error that would invite a second attempt.
 */
async function parseAnswer<Res extends SchemaName>(
  operation: string,
  answer: Answer,
  response: Res,
  isRead: boolean,
  transport: Pick<Transport, 'notJson'>,
): Promise<Output<Res>> {
  const { text } = answer;
  let data: unknown;
  if (text.trim() !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      if (!isRead) return (await schemaOf(response)).parse(undefined) as Output<Res>;
      throw new ResponseError(transport.notJson(operation, answer));
    }
  } else if (isRead) {
    throw new ResponseError(`${operation} answered with an empty body`);
  }
  const parsed = await safeParseChecked(CHECKS[response], data, () => schemaOf(response));
  if (!parsed.success && !isRead) return (await schemaOf(response)).parse(undefined) as Output<Res>;
  if (!parsed.success) {
    throw new ResponseError(`${operation} answered with an unexpected shape: ${await describe(parsed.error)}`);
  }
  return parsed.data as Output<Res>;
}

/** describeIssues, from the schemas' module: loaded already, as only zod makes a ZodError. */
async function describe(error: z.ZodError): Promise<string> {
  return (await import('./schemas.js')).describeIssues(error);
}
