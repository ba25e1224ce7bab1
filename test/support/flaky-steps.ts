// The flaky-test steps of a script, run on one API against the sandbox's catalogue: every list, test-details
// and link-ticket, in text and --json, as a list of what a script sees, made comparable across the APIs. The two
// APIs name a test by different ids (each replaced by its test's name), and what only one of them says is
// left out, as the README lists it: v2's `testIds` (and the words saying so), `testCollectionId` and monitors; v1's status reason, common
// failures, linked tickets, and the failure rate of the period v2 was not asked for.
import { mq } from './in-process.js';

type Json = Record<string, any>;

/** The test the steps link a ticket to: unquarantined, without a ticket of its own. */
const LINKED = 'search returns results in relevance order';

/** Each id as the test's name, padded to an id's width so that tables keep their columns. */
function withNames(text: string, names: ReadonlyMap<string, string>): string {
  let named = text
    .replace(/^ID \(V2\)/gm, 'ID     ')
    .replace(/^id \(v2\)/gm, 'id     ')
    .replace(/ \(a v2 test id\)\.$/gm, '.');
  for (const [id, name] of names) named = named.replaceAll(id, `<${name.slice(0, 34).padEnd(34, '.')}>`);
  return named;
}

/** A test as both APIs give it. */
function common(test: Json, names: ReadonlyMap<string, string>): Json {
  const { testCollectionId: _collection, activeMonitors: _monitors, ticket: _ticket, most_common_failures: _failures, ...rest } = test;
  const named = JSON.parse(withNames(JSON.stringify(rest), names)) as Json;
  if (named.status?.reason !== undefined) named.status = { ...named.status, reason: undefined };
  return named;
}

/** Runs the steps with `env` (its token chooses the API): what each printed, its exit code first. */
export async function flakySteps(env: Record<string, string>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const names = new Map<string, string>();
  const run = async (args: string[]) => {
    const result = await mq(args, { env });
    if (result.code !== 0) return { code: result.code, stderr: result.stderr };
    if (!args.includes('--json')) return { code: 0, text: withNames(result.stdout, names) };
    const json = JSON.parse(result.stdout) as Json;
    const { testIds: _ids, ...document } = json;
    for (const test of [...(json.quarantined_tests ?? []), ...(json.tests ?? []), ...(json.test ? [json.test] : [])]) {
      names.set(test.id ?? test.test_case_id, test.name);
    }
    // Each API lists in its own order (v2's --failing: latest failure first): compared by name.
    const comparable = (value: unknown) =>
      Array.isArray(value)
        ? value.map((test) => common(test, names)).sort((a, b) => (a.name < b.name ? -1 : 1))
        : typeof value === 'object'
          ? common(value as Json, names)
          : withNames(String(value), names);
    return { code: 0, json: Object.fromEntries(Object.entries(document).map(([key, value]) => [key, comparable(value)])) };
  };

  const quarantined = await run(['flaky', 'list', '--quarantined', '--json']);
  seen.push(['quarantined --json', quarantined], ['quarantined', await run(['flaky', 'list', '--quarantined'])]);
  const unhealthy = await run(['flaky', 'list', '--unhealthy', '--json']);
  seen.push(['unhealthy --json', unhealthy], ['unhealthy --status broken --json', await run(['flaky', 'list', '--unhealthy', '--status', 'broken', '--json'])]);
  // The 24h rate is the one --failing shows by default; v2 gives no 7-day rate with it.
  const failing = (await run(['flaky', 'list', '--failing', '--json'])) as Json;
  for (const test of failing.json?.tests ?? []) delete test.failure_rate_last_7d;
  seen.push(
    ['failing --json', failing],
    ['failing --since 7d: names', ((await run(['flaky', 'list', '--failing', '--since', '7d', '--json'])) as Json).json?.tests.map((test: Json) => test.name)],
  );

  // A manual clock starts at 2026-01-01, months behind this machine's: each ISO --since is judged on the service's.
  seen.push(['failing --since after the service now', await run(['flaky', 'list', '--failing', '--since', '2026-01-01T00:00:01Z'])]);
  seen.push(['failing --since 8 days before it', await run(['flaky', 'list', '--failing', '--since', '2025-12-24T00:00:00Z'])]);
  seen.push(['failing --since 6 days before it', ((await run(['flaky', 'list', '--failing', '--since', '2025-12-26T00:00:00Z', '--json'])) as Json).code]);

  const idOf = (name: string) => [...names].find(([, named]) => named === name)?.[0] ?? 'missing';
  const details = (await run(['test-details', idOf(LINKED), '--json'])) as Json;
  // v2 gives a test's rate over 7 days with it, not over 24h.
  delete details.json?.test?.failure_rate_last_24h;
  seen.push(['test-details --json', details]);
  seen.push(['link-ticket', await run(['flaky', 'link-ticket', idOf(LINKED), 'KAN-123'])]);
  seen.push(['link-ticket --json', await run(['flaky', 'link-ticket', idOf(LINKED), 'KAN-123', '--json'])]);
  seen.push(['test-details of no such test', (await run(['test-details', '00000000-0000-4000-8000-000000000000'])) as Json]);
  return seen.map((step) => (Array.isArray(step) && (step[1] as Json)?.stderr !== undefined ? [step[0], (step[1] as Json).code] : step));
}
