// The flaky-test model ⇄ the Flaky Tests v2 wire, for the client and the sandbox's face alike: the model keeps
// v1's names, and what only v2 says rides along under its own (`testCollectionId`, `activeMonitors`).
import { inTestCaseOrder, type QuarantinedTest, type TestCase, type UnhealthyTest } from '../../model/flaky-tests.js';
import type { Test, TestSummary } from './flaky-schemas.js';

type Json = Record<string, unknown>;

/** What v2 says of a test and v1 does not: its own id, its collection and its repository's. */
export interface TestPlace {
  id: string;
  testCollectionId: string;
  repositoryId: string;
}

/** The test as v2's lists give it; `metrics` for the period asked, when asked. */
export function testSummaryToWire(test: TestCase, place: TestPlace, metrics?: Json): Json {
  const quarantined = test.quarantined;
  return {
    ...place,
    name: test.name,
    parentName: test.parent ?? '',
    className: test.classname ?? '',
    file: test.file_path ?? '',
    target: '',
    variant: test.variant,
    crossVariantId: null,
    codeowners: [...test.codeowners],
    status: test.status.value,
    statusSince: test.status.timestamp || null,
    quarantineState: quarantined ? 'quarantined' : 'notQuarantined',
    labels: [],
    ...(metrics && { metrics }),
    url: test.html_url,
    quarantinedSince: quarantined ? test.status.timestamp : null,
  };
}

const optional = (text: string) => (text === '' ? undefined : text);

/** A row of v2's list as the unhealthy list's test (v1 has no `testCollectionId`; v2 no reason and no ticket). */
export function unhealthyOfWire(wire: TestSummary, repositoryUrl: string): UnhealthyTest {
  return inTestCaseOrder({
    id: wire.id,
    testCollectionId: wire.testCollectionId,
    repository: { html_url: repositoryUrl },
    html_url: wire.url ?? '',
    name: wire.name,
    variant: wire.variant,
    status: { value: wire.status, reason: '', timestamp: wire.statusSince ?? '' },
    codeowners: wire.codeowners,
    pull_requests_impacted_last_7d: wire.metrics?.prsImpacted ?? 0,
    quarantined: wire.quarantineState === 'quarantined',
    ...(wire.file !== '' && { file_path: wire.file }),
    ...(wire.parentName !== '' && { parent: wire.parentName }),
    ...(wire.className !== '' && { classname: wire.className }),
  });
}

/** A test with its rates: `metrics` are of one period, 1d or 7d; the other's rate v2 does not give with them. */
export function testCaseOfWire(wire: TestSummary, repositoryUrl: string, period: '1d' | '7d'): TestCase {
  const rate = wire.metrics?.failureRate ?? null;
  return inTestCaseOrder({
    ...unhealthyOfWire(wire, repositoryUrl),
    most_common_failures: [],
    failure_rate_last_7d: period === '7d' ? rate : null,
    failure_rate_last_24h: period === '1d' ? rate : null,
  });
}

/** One test read alone: its monitors too. */
export function testDetailsOfWire(wire: Test, repositoryUrl: string): TestCase {
  return { ...testCaseOfWire(wire, repositoryUrl, '7d'), activeMonitors: wire.activeMonitors.map((monitor) => monitor.monitorType) };
}

/** A quarantined row as v1's list names it. v2's rows carry no override: a healthy test is quarantined only by one. */
export function quarantinedOfWire(wire: TestSummary): QuarantinedTest {
  const since = wire.statusSince ?? '';
  return {
    name: wire.name,
    parent: optional(wire.parentName) ?? null,
    file: optional(wire.file) ?? null,
    classname: optional(wire.className) ?? null,
    status: wire.status,
    codeowners: wire.codeowners,
    quarantine_setting: wire.status === 'healthy' ? 'ALWAYS_QUARANTINE' : 'AUTO_QUARANTINE',
    quarantined_at: wire.quarantinedSince ?? since,
    status_last_updated_at: since,
    test_case_id: wire.id,
    variant: wire.variant,
    testCollectionId: wire.testCollectionId,
  };
}
