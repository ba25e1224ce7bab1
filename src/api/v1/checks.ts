// The checks of the client's requests and answers, by schema name. The build writes this module anew as the
// checks' text (scripts/build.mjs), without zod or the schemas; unbuilt, they are made here from the schemas.
import { compileChecks } from '../check-source.js';
import * as schemas from './schemas.js';

export const SCHEMAS = {
  Acknowledgement: schemas.Acknowledgement,
  CreateQueueRequest: schemas.CreateQueueRequest,
  GetMergeQueueTestingDetailsRequest: schemas.GetMergeQueueTestingDetailsRequest,
  GetSubmittedPullRequestRequest: schemas.GetSubmittedPullRequestRequest,
  GetSubmittedPullRequestsRequest: schemas.GetSubmittedPullRequestsRequest,
  GetTestDetailsRequest: schemas.GetTestDetailsRequest,
  LinkTicketRequest: schemas.LinkTicketRequest,
  ListFailingTestsRequest: schemas.ListFailingTestsRequest,
  ListFailingTestsResponse: schemas.ListFailingTestsResponse,
  ListPullRequestsRequest: schemas.ListPullRequestsRequest,
  ListPullRequestsResponse: schemas.ListPullRequestsResponse,
  ListMergeQueueTestingResultsRequest: schemas.ListMergeQueueTestingResultsRequest,
  TestingResultsResponse: schemas.TestingResultsResponse,
  ListQuarantinedTestsRequest: schemas.ListQuarantinedTestsRequest,
  ListQuarantinedTestsResponse: schemas.ListQuarantinedTestsResponse,
  ListUnhealthyTestsRequest: schemas.ListUnhealthyTestsRequest,
  ListUnhealthyTestsResponse: schemas.ListUnhealthyTestsResponse,
  PullRequestRequest: schemas.PullRequestRequest,
  Queue: schemas.Queue,
  QueueRequest: schemas.QueueRequest,
  ServiceStatus: schemas.ServiceStatus,
  SetImpactedTargetsRequest: schemas.SetImpactedTargetsRequest,
  SubmitPullRequestRequest: schemas.SubmitPullRequestRequest,
  SubmittedPullRequest: schemas.SubmittedPullRequest,
  SubmittedPullRequests: schemas.SubmittedPullRequests,
  TestDetailsResponse: schemas.TestDetailsResponse,
  TestingDetails: schemas.TestingDetails,
  UpdateQueueRequest: schemas.UpdateQueueRequest,
  UpdateQueueResponse: schemas.UpdateQueueResponse,
};
export type SchemaName = keyof typeof SCHEMAS;

export const CHECKS = compileChecks(SCHEMAS);
