// The checks of v2's answers, by schema name. The build writes this module anew as the checks' text
// (scripts/build.mjs), without zod or the schemas; unbuilt, they are made here from the schemas.
import { compileChecks } from '../check-source.js';
import * as flaky from './flaky-schemas.js';
import * as schemas from './schemas.js';

export const SCHEMAS = {
  BatchQueueEntryHistoryList: schemas.BatchQueueEntryHistoryList,
  MergeGraph: schemas.MergeGraph,
  MergeQueue: schemas.MergeQueue,
  MergeQueueList: schemas.MergeQueueList,
  MergeQueueOrder: schemas.MergeQueueOrder,
  MergeQueueStateChange: schemas.MergeQueueStateChange,
  PullRequest: schemas.PullRequest,
  PullRequestList: schemas.PullRequestList,
  QueueEntryEstimate: schemas.QueueEntryEstimate,
  QueueEntryHistoryList: schemas.QueueEntryHistoryList,
  Repository: schemas.Repository,
  RepositoryList: schemas.RepositoryList,
  TestingResultList: schemas.TestingResultList,
  VerificationRun: schemas.VerificationRun,
  VerificationRunList: schemas.VerificationRunList,
  Test: flaky.Test,
  TestCollection: flaky.TestCollection,
  TestCollectionList: flaky.TestCollectionList,
  TestList: flaky.TestList,
  StatusHistoryEntryList: flaky.StatusHistoryEntryList,
  TestRunList: flaky.TestRunList,
  Ticket: flaky.Ticket,
};

export const CHECKS = compileChecks(SCHEMAS);
