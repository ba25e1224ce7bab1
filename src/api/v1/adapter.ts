// The v1 API behind the MergeQueueService: coordinates become v1 request bodies, v1 answers become the model.
// v1's answers already use the model's names (the model took them), so most answers are the model as they came;
// the types below check that they agree. Fields a v1 answer has and the model does not are kept as they came, as
// the service's rule asks of a client ("accept fields you do not know"), and --json shows them.
import { parsePrometheus } from '../../model/prometheus.js';
import type { MergeQueueService, Metrics } from '../../model/service.js';
import { MergeQueueClient, type ClientOptions } from './client.js';

/** The service's root and the v1 API's path: `https://api.trunk.io` → `https://api.trunk.io/v1`. */
export function v1BaseUrl(apiUrl: string): string {
  const root = apiUrl.replace(/\/+$/, '');
  return root.endsWith('/v1') ? root : `${root}/v1`;
}

export function createV1Service(options: ClientOptions): MergeQueueService {
  const client = new MergeQueueClient({ ...options, apiUrl: v1BaseUrl(options.apiUrl) });
  return {
    async submitPullRequest(queue, pr, options = {}) {
      await client.call('submitPullRequest', { ...queue, pr: { number: pr }, priority: options.priority, noBatch: options.noBatch });
    },
    async cancelPullRequest(queue, pr) {
      await client.call('cancelPullRequest', { ...queue, pr: { number: pr } });
    },
    async restartTestsOnPullRequest(queue, pr) {
      await client.call('restartTestsOnPullRequest', { ...queue, pr: { number: pr } });
    },
    getSubmittedPullRequest: (queue, pr) => client.call('getSubmittedPullRequest', { ...queue, pr }),
    listPullRequests: (queue, query) => client.call('listPullRequests', { ...queue, ...query }),
    getQueue: (queue) => client.call('getQueue', queue),
    async createQueue(queue, settings) {
      await client.call('createQueue', { ...queue, ...settings });
    },
    updateQueue: (queue, change) => client.call('updateQueue', { ...queue, ...change }),
    async deleteQueue(queue) {
      await client.call('deleteQueue', queue);
    },
    async setImpactedTargets(queue, pr, impactedTargets, more) {
      await client.call('setImpactedTargets', { ...queue, pr, impactedTargets }, more);
    },
    getMergeQueueTestingDetails: (queue, testRunId) => client.call('getMergeQueueTestingDetails', { ...queue, testRunId }),
    async getMergeQueueMetrics({ repo }): Promise<Metrics> {
      const text = await client.getMergeQueueMetrics(repo ? { repo } : {});
      return { text, samples: parsePrometheus(text) };
    },
    async getTestDetails({ repo, org }, testId) {
      return (await client.call('getTestDetails', { repo, org_url_slug: org, test_id: testId })).test;
    },
    async listQuarantinedTests({ repo, org }, page) {
      const answer = await client.call('listQuarantinedTests', { repo, org_url_slug: org, page_query: pageQuery(page) });
      return { tests: answer.quarantined_tests, page: answer.page };
    },
    async listUnhealthyTests({ repo, org }, status, page) {
      const answer = await client.call('listUnhealthyTests', { repo, org_url_slug: org, status, page_query: pageQuery(page) });
      return { tests: answer.tests, page: answer.page };
    },
    async listFailingTests({ repo, org }, window, page) {
      const answer = await client.call('listFailingTests', {
        repo,
        org_url_slug: org,
        start_time: window.start,
        end_time: window.end,
        page_query: pageQuery(page),
      });
      return { tests: answer.tests, page: answer.page };
    },
    async linkTicketToTestCase(repo, testId, ticketId) {
      await client.call('linkTicketToTestCase', { test_case_id: testId, external_ticket_id: ticketId, repo });
    },
    getStatus: () => client.status(),
    serviceNow: () => client.serviceNow(),
    close: () => client.close(),
  };
}

function pageQuery(page: { size: number; token?: string }): { page_size: number; page_token?: string } {
  return page.token === undefined ? { page_size: page.size } : { page_size: page.size, page_token: page.token };
}
