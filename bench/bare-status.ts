// The floor under `mq status 1 --json`: a bare node:http script (an ES module, for its top-level await) making the
// requests mq makes for a PR in the queue, in the same order and with the same overlap, over one keep-alive agent,
// reading each JSON answer (JSON.parse, as any client that uses an answer must: a PR's place is read off the queue's),
// and printing the PR. No settings, no checks, no argv, no pacing: the least any client can spend on the same answers.
// With MQ_BENCH_COUNT set it writes the number of requests it made to stderr, so that a bench can hold it to mq's.
import type { Repo } from '../src/api/v1/schemas.js';

/** v2's ids of the repository, the queue and the PR, as mq keeps them in its id cache. */
export interface V2Ids {
  repositoryId: string;
  queueId: string;
  pullRequestId: string;
}

// node:http taken as mq (CommonJS) takes it: an ES import of it reads every export, and on Node 24 some
// are getters that load Node's own fetch (tens of ms the floor must not pay, and mq's bundle does not).
const CALL = `
const http = process.getBuiltinModule('node:http');
const base = process.env.MQ_API_URL.replace(/\\/v1$/, '');
const agent = new http.Agent({ keepAlive: true });
let count = 0;
const call = (method, path, headers, body) => new Promise((resolve, reject) => {
  count++;
  const request = http.request(base + path, { method, agent, headers: { ...headers, 'content-type': 'application/json' } }, (response) => {
    let text = '';
    response.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () =>
      response.statusCode !== 200 ? reject(new Error(path + ': ' + response.statusCode + ' ' + text))
        : resolve(/json/.test(response.headers['content-type']) ? JSON.parse(text) : text));
  });
  request.on('error', reject);
  request.end(body === undefined ? undefined : JSON.stringify(body));
});
const done = (pr) => {
  process.stdout.write(JSON.stringify(pr, null, 2) + '\\n');
  if (process.env.MQ_BENCH_COUNT) process.stderr.write(count + '\\n');
  agent.destroy();
};
`;

/** v1: the PR with the service's estimate; then the queue (the estimate given, mq makes none: no metrics). */
function v1(repo: Repo): string {
  return `${CALL}
const headers = { 'x-api-token': process.env.MQ_TOKEN };
const queue = { repo: ${JSON.stringify(repo)}, targetBranch: 'main' };
const pr = await call('POST', '/v1/getSubmittedPullRequest', headers, { ...queue, pr: { number: 1 }, includeEstimatedTimeToMerge: true });
await call('POST', '/v1/getQueue', headers, queue);
done(pr);
`;
}

/**
 * v2, the ids known (mq's id cache warm): the PR; then the queue's order (which places the PRs, names the run
 * testing it and gives the queue's state) beside its estimate. A testing PR's status reads no settings; the
 * estimate given, no metrics.
 */
function v2(ids: V2Ids): string {
  return `${CALL}
const headers = { authorization: 'Bearer ' + process.env.MQ_TOKEN };
const get = (path) => call('GET', path, headers);
const prPath = '/v2/pull-requests/${ids.pullRequestId}';
const queuePath = '/v2/merge-queues/${ids.queueId}';
const pr = await get(prPath);
await Promise.all([get(queuePath + '/order'), get(prPath + '/queue-entry-estimate')]);
done(pr);
`;
}

/** The script's text for one API: v1 for a repository, v2 for its ids. */
export function bareStatusClient(api: { v1: Repo } | { v2: V2Ids }): string {
  return 'v1' in api ? v1(api.v1) : v2(api.v2);
}

/** v2's ids of PR #1 and the `main` queue of `repo`, looked up as mq looks them up on a cold id cache. */
export async function v2IdsOf(root: string, key: string, repo: Repo): Promise<V2Ids> {
  const get = async (path: string) => {
    const response = await fetch(`${root}${path}`, { headers: { authorization: `Bearer ${key}` } });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: { id: string }[] }).data[0]!.id;
  };
  const repositoryId = await get(`/v2/repositories?providerUrl=${encodeURIComponent(`https://${repo.host}/${repo.owner}/${repo.name}`)}`);
  return {
    repositoryId,
    queueId: await get(`/v2/merge-queues?repositoryId=${repositoryId}&targetBranch=main`),
    pullRequestId: await get(`/v2/pull-requests?repositoryId=${repositoryId}&number=1`),
  };
}
