// The journal of a state file records the engine's operations with their model-level inputs, whichever face
// asked; the journal of a sandbox before state version 5 recorded v1 request bodies under v1 names, and still
// loads: fixtures/state-v4.json and its journal were written by that sandbox (one last entry, an upload without
// pr.sha, is in the form sandboxes before that one wrote), and state-v4.expected.json holds what it answered.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deterministicQueueId } from '../../src/sandbox/engine/ids.js';
import { queueKey } from '../../src/sandbox/engine/state.js';
import { loadEngine } from '../../src/sandbox/io/persistence.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { StateStore } from '../../src/sandbox/io/store.js';

const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };
const FIXTURES = new URL('./fixtures/', import.meta.url);

let running: RunningSandbox | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function post(sandbox: RunningSandbox, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${sandbox.url}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': 'journal' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** A copy of the version 4 state file and its journal in a folder of its own. */
function legacyStateFile(): string {
  const stateFile = join(mkdtempSync(join(tmpdir(), 'mq-journal-')), 'state.json');
  copyFileSync(new URL('state-v4.json', FIXTURES), stateFile);
  copyFileSync(new URL('state-v4.json.journal', FIXTURES), `${stateFile}.journal`);
  return stateFile;
}

function journalEntries(stateFile: string): { at: number; op: string; input?: any }[] {
  const [, ...lines] = readFileSync(`${stateFile}.journal`, 'utf8').split('\n');
  return lines.filter((line) => line !== '').map((line) => JSON.parse(line));
}

describe('a journal of v1 bodies, written before state version 5', () => {
  const expected = JSON.parse(readFileSync(new URL('state-v4.expected.json', FIXTURES), 'utf8'));

  it('replays to the state that sandbox answered with', async () => {
    // #4 was cancelled and submitted again: it keeps its queue entry and the entry's id now, as the service does,
    // where that sandbox gave it a new one.
    type Row = { prNumber: number; state: string; id: string };
    const entryOf4 = (expected.pullRequests.pullRequests as Row[]).find((row) => row.prNumber === 4 && row.state === 'cancelled')!.id;
    const reused = (rows: Row[]) => rows.map((row) => (row.prNumber === 4 ? { ...row, id: entryOf4 } : row));
    const stateFile = legacyStateFile();
    running = await startSandbox({ clock: 'manual', stateFile });
    const testRunId = (await post(running, 'getSubmittedPullRequest', { ...MAIN, pr: { number: 3 } })).verifiedByTestRun;
    expect({
      now: (await post(running, '_sandbox/advance', { seconds: 0 })).now,
      queue: await post(running, 'getQueue', MAIN),
      pullRequests: await post(running, 'listPullRequests', MAIN),
      pr4: await post(running, 'getSubmittedPullRequest', { ...MAIN, pr: { number: 4 } }),
      run3: await post(running, 'getMergeQueueTestingDetails', { ...MAIN, testRunId }),
      ticket: (await post(running, 'flaky-tests/get-test-details', { repo: REPO, org_url_slug: 'acme', test_id: '3d4e5f60-7182-4394-a5b6-c7d8e9f00a04' })).test
        .ticket,
      // What the v1 API serves today and that sandbox did not yet: getQueue's mergeMethodOverrideEnabled, and a
      // check run for the run's required status (ci/build), which its checks did not name.
    }).toEqual({
      ...expected,
      queue: { ...expected.queue, enqueuedPullRequests: reused(expected.queue.enqueuedPullRequests), mergeMethodOverrideEnabled: false },
      pullRequests: { ...expected.pullRequests, pullRequests: reused(expected.pullRequests.pullRequests) },
      pr4: { ...expected.pr4, id: entryOf4 },
      run3: {
        ...expected.run3,
        checkSuites: [{ checkRuns: [...expected.run3.checkSuites[0].checkRuns, { name: 'ci/build', url: '', status: 'IN_PROGRESS' }] }],
      },
    });
  });

  it('is folded into a snapshot of the current version at start, and the journal goes on in engine operations', async () => {
    const stateFile = legacyStateFile();
    running = await startSandbox({ clock: 'manual', stateFile });
    const snapshot = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect(snapshot).toMatchObject({ version: 7, nextQueueId: 3 });
    // Queues created by the old journal's entries get their ids as they are created: main first.
    expect(Object.values<any>(snapshot.queues).map((queue) => queue.id)).toEqual([deterministicQueueId('mq-sandbox', 0, queueKey(REPO, 'main'))]);
    expect(journalEntries(stateFile)).toEqual([]);

    await post(running, 'submitPullRequest', { ...MAIN, pr: { number: '9' }, priority: 'HIGH', noBatch: false });
    await post(running, 'updateQueue', { ...MAIN, mode: 'Parallel', requiredStatuses: ['ci'] });
    const sha = (await post(running, '_sandbox/pullRequests', { repo: REPO, number: 9 })).sha;
    await post(running, 'setImpactedTargets', { ...MAIN, pr: { number: 9, sha }, impactedTargets: 'IMPACTS_ALL' });
    await post(running, 'flaky-tests/link-ticket-to-test-case', {
      repo: REPO,
      test_case_id: '3D4E5F60-7182-4394-A5B6-C7D8E9F00A04',
      external_ticket_id: 'ENG-43',
    });
    const at = Date.parse(expected.now);
    expect(journalEntries(stateFile)).toEqual([
      { at, op: 'submitPullRequest', input: { queue: MAIN, pr: 9, options: { priority: 'high', noBatch: false } } },
      { at, op: 'updateQueue', input: { queue: MAIN, change: { mode: 'parallel', requiredStatuses: ['ci'] } } },
      { at, op: 'describePullRequest', input: { repo: REPO, number: 9 } },
      { at, op: 'setImpactedTargets', input: { queue: MAIN, pr: 9, sha, targets: 'ALL' } },
      { at, op: 'linkTicketToTestCase', input: { repo: REPO, testId: '3D4E5F60-7182-4394-A5B6-C7D8E9F00A04', ticketId: 'ENG-43' } },
    ]);
    const before = await post(running, 'getQueue', MAIN);
    await running.close();

    running = await startSandbox({ clock: 'manual', stateFile });
    expect(await post(running, 'getQueue', MAIN)).toEqual(before);
  });

  it('names the entry it cannot replay', () => {
    const stateFile = legacyStateFile();
    const lines = readFileSync(`${stateFile}.journal`, 'utf8').split('\n');
    const at = lines.findIndex((line) => line.includes('"op":"cancelPullRequest"'));
    const entry = JSON.parse(lines[at]!);
    entry.input.pr.number = 0;
    lines[at] = JSON.stringify(entry);
    writeFileSync(`${stateFile}.journal`, lines.join('\n'));
    expect(() => loadEngine(new StateStore(stateFile), { fresh: { now: 0 } })).toThrow(/entry 15 of .*state\.json\.journal cannot be replayed: pr\.number/);
  });
});

describe('a journal of engine operations', () => {
  it('refuses an entry whose operation or inputs are not the engine’s, naming it', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'mq-journal-')), 'state.json');
    running = await startSandbox({ clock: 'manual', stateFile });
    await post(running, 'createQueue', MAIN);
    await post(running, 'submitPullRequest', { ...MAIN, pr: { number: 1 } });
    await running.close();
    running = undefined;
    const journal = readFileSync(`${stateFile}.journal`, 'utf8');
    expect(loadEngine(new StateStore(stateFile), { fresh: { now: 0 } }).getQueue(MAIN).enqueuedPullRequests).toHaveLength(1);

    // A v1 body under the engine's name is no entry of this journal.
    writeFileSync(`${stateFile}.journal`, `${journal}${JSON.stringify({ at: 0, op: 'cancelPullRequest', input: { ...MAIN, pr: { number: 1 } } })}\n`);
    expect(() => loadEngine(new StateStore(stateFile), { fresh: { now: 0 } })).toThrow(/entry 3 of .* cannot be replayed: queue: missing; pr: /);
    writeFileSync(`${stateFile}.journal`, `${journal}${JSON.stringify({ at: 0, op: 'constructor', input: {} })}\n`);
    expect(() => loadEngine(new StateStore(stateFile), { fresh: { now: 0 } })).toThrow(/entry 3 .* an operation this sandbox does not know: constructor/);
  });
});
