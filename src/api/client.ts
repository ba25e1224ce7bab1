// One typed method per operation of the v1 API. Each validates its request before anything is sent (a bad one
// is a UsageError: exit 2, nothing sent) and its response after (a bad one names the missing field).
import type { z } from 'zod';
import { ResponseError, UsageError } from '../errors.js';
import {
  Acknowledgement,
  BODY_LIMIT_BYTES,
  CreateQueueRequest,
  describeIssues,
  GetMergeQueueTestingDetailsRequest,
  GetSubmittedPullRequestRequest,
  GetTestDetailsRequest,
  LinkTicketRequest,
  ListFailingTestsRequest,
  ListFailingTestsResponse,
  ListPullRequestsRequest,
  ListPullRequestsResponse,
  ListQuarantinedTestsRequest,
  ListQuarantinedTestsResponse,
  ListUnhealthyTestsRequest,
  ListUnhealthyTestsResponse,
  PullRequestRequest,
  Queue,
  QueueRequest,
  ServiceStatus,
  SetImpactedTargetsRequest,
  SubmitPullRequestRequest,
  SubmittedPullRequest,
  TestDetailsResponse,
  TestingDetails,
  UpdatedQueue,
  UpdateQueueRequest,
  type Repo,
} from './schemas.js';
import { withListTail, type ListTail } from './streamed-list.js';
import { Transport, type Answer, type TransportOptions } from './transport.js';
import { safeParseFast } from './fast-parse.js';

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

  submitPullRequest(body: z.input<typeof SubmitPullRequestRequest>) {
    return this.post('submitPullRequest', SubmitPullRequestRequest, body, Acknowledgement, false);
  }

  cancelPullRequest(body: z.input<typeof PullRequestRequest>) {
    return this.post('cancelPullRequest', PullRequestRequest, body, Acknowledgement, false);
  }

  restartTestsOnPullRequest(body: z.input<typeof PullRequestRequest>) {
    return this.post('restartTestsOnPullRequest', PullRequestRequest, body, Acknowledgement, false);
  }

  getSubmittedPullRequest(body: z.input<typeof GetSubmittedPullRequestRequest>) {
    return this.post('getSubmittedPullRequest', GetSubmittedPullRequestRequest, body, SubmittedPullRequest, true);
  }

  listPullRequests(body: z.input<typeof ListPullRequestsRequest>) {
    return this.post('listPullRequests', ListPullRequestsRequest, body, ListPullRequestsResponse, true);
  }

  getQueue(body: z.input<typeof QueueRequest>) {
    return this.post('getQueue', QueueRequest, body, Queue, true);
  }

  createQueue(body: z.input<typeof CreateQueueRequest>) {
    return this.post('createQueue', CreateQueueRequest, body, Acknowledgement, false);
  }

  updateQueue(body: z.input<typeof UpdateQueueRequest>) {
    return this.post('updateQueue', UpdateQueueRequest, body, UpdatedQueue.optional(), false);
  }

  deleteQueue(body: z.input<typeof QueueRequest>) {
    return this.post('deleteQueue', QueueRequest, body, Acknowledgement, false);
  }

  /**
   * With `more`, a list too long to hold in memory (a targets file) follows `body.impactedTargets` in the request,
   * streamed from its source. Not retried, as every mutation; `more` could be read again if that changed.
   */
  setImpactedTargets(body: z.input<typeof SetImpactedTargetsRequest>, more?: ListTail) {
    return this.post('setImpactedTargets', SetImpactedTargetsRequest, body, Acknowledgement, false, more);
  }

  getMergeQueueTestingDetails(body: z.input<typeof GetMergeQueueTestingDetailsRequest>) {
    return this.post('getMergeQueueTestingDetails', GetMergeQueueTestingDetailsRequest, body, TestingDetails, true);
  }

  getTestDetails(body: z.input<typeof GetTestDetailsRequest>) {
    return this.post('flaky-tests/get-test-details', GetTestDetailsRequest, body, TestDetailsResponse, true);
  }

  listQuarantinedTests(body: z.input<typeof ListQuarantinedTestsRequest>) {
    return this.post('flaky-tests/list-quarantined-tests', ListQuarantinedTestsRequest, body, ListQuarantinedTestsResponse, true);
  }

  listUnhealthyTests(body: z.input<typeof ListUnhealthyTestsRequest>) {
    return this.post('flaky-tests/list-unhealthy-tests', ListUnhealthyTestsRequest, body, ListUnhealthyTestsResponse, true);
  }

  listFailingTests(body: z.input<typeof ListFailingTestsRequest>) {
    return this.post('flaky-tests/list-failing-tests', ListFailingTestsRequest, body, ListFailingTestsResponse, true);
  }

  linkTicketToTestCase(body: z.input<typeof LinkTicketRequest>) {
    return this.post('flaky-tests/link-ticket-to-test-case', LinkTicketRequest, body, Acknowledgement, false);
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
  async getStatus(): Promise<ServiceStatus> {
    const answer = await this.transport.send({ method: 'GET', path: '/status', operation: 'status', idempotent: true, anonymous: true });
    return parseAnswer('status', answer, ServiceStatus, true, this.transport);
  }

  private async post<Req extends z.ZodType, Res extends z.ZodType>(
    operation: string,
    requestSchema: Req,
    body: z.input<Req>,
    responseSchema: Res,
    idempotent: boolean,
    more?: ListTail,
  ): Promise<z.output<Res>> {
    const checked = requestSchema.safeParse(body);
    if (!checked.success) throw new UsageError(`invalid ${operation} request: ${describeIssues(checked.error)}`);
    const json = JSON.stringify(checked.data);
    const sent = more ? await withListTail(json, more) : json;
    const size = typeof sent === 'string' ? Buffer.byteLength(sent) : sent.bytes;
    if (size > BODY_LIMIT_BYTES) {
      throw new UsageError(`the ${operation} request is ${size} bytes, over the service's 20 MiB limit`);
    }
    const answer = await this.transport.send({ method: 'POST', path: `/${operation}`, operation, body: sent, idempotent });
    return parseAnswer(operation, answer, responseSchema, idempotent, this.transport);
  }
}

/**
 * A read must answer with its documented shape. A mutation that answered 2xx was applied, whatever its body
 * says: an empty or non-JSON body is an acknowledgement, never an error that would invite a second attempt.
 */
function parseAnswer<Res extends z.ZodType>(
  operation: string,
  answer: Answer,
  schema: Res,
  isRead: boolean,
  transport: Pick<Transport, 'notJson'>,
): z.output<Res> {
  const { text } = answer;
  let data: unknown;
  if (text.trim() !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      if (!isRead) return schema.parse(undefined);
      throw new ResponseError(transport.notJson(operation, answer));
    }
  } else if (isRead) {
    throw new ResponseError(`${operation} answered with an empty body`);
  }
  const parsed = safeParseFast(schema, data);
  if (!parsed.success && !isRead) return schema.parse(undefined);
  if (!parsed.success) {
    throw new ResponseError(`${operation} answered with an unexpected shape: ${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}
