#!/usr/bin/env node
// A team's queue bot: submits to the merge queue every PR it is given (in CI, those labelled `merge`), skips
// those already in the queue or merged, and reports the ones that failed or that the queue refused. It runs
// every few minutes, so it must be harmless to run again: a PR that failed in the queue is reported, not
// resubmitted (a person looks first).
//
//   node queue-bot.js --repo acme/widgets [--branch main] 12 15 21
//
// It speaks the service's v1 HTTP API with fetch, at TRUNK_BASE_URL (default https://api.trunk.io/v1) with the
// token TRUNK_API_KEY: under `mq sandbox exec` both point at the sandbox. Exit 0 when every PR is queued or
// merged, 1 when one failed or was refused, 2 on bad arguments or a service it cannot use.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const FINAL_FAILURES = new Set(['failed', 'cancelled']);

/**
 * Submits each PR that is not in the queue yet; answers one line per PR: `{ pr, outcome, detail }`, where
 * outcome is submitted, queued (in the queue already), merged, failed (left the queue without merging) or
 * refused (the service would not take it).
 */
export async function queuePullRequests({ baseUrl, token, repo, branch = 'main', prs }) {
  const [owner, name] = repo.split('/');
  const target = { repo: { host: 'github.com', owner, name }, targetBranch: branch };
  const call = async (operation, number) => {
    const response = await fetch(`${baseUrl.replace(/\/$/, '')}/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': token },
      body: JSON.stringify({ ...target, pr: { number } }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (response.status === 401 || response.status === 403) throw new Error(`the service refused the token (${response.status}): ${text}`);
    return { status: response.status, text };
  };
  const results = [];
  for (const pr of prs) {
    const current = await call('getSubmittedPullRequest', pr);
    if (current.status === 200) {
      const { state } = JSON.parse(current.text);
      const outcome = state === 'merged' ? 'merged' : FINAL_FAILURES.has(state) ? 'failed' : 'queued';
      results.push({ pr, outcome, detail: state });
      continue;
    }
    if (current.status !== 404) {
      results.push({ pr, outcome: 'refused', detail: `${current.status} ${current.text}` });
      continue;
    }
    const submitted = await call('submitPullRequest', pr);
    results.push(
      submitted.status === 200 ? { pr, outcome: 'submitted', detail: '' } : { pr, outcome: 'refused', detail: `${submitted.status} ${submitted.text}` },
    );
  }
  return results;
}

const WORDS = {
  submitted: 'submitted',
  queued: 'in the queue',
  merged: 'merged',
  failed: 'left the queue without merging, not resubmitted',
  refused: 'refused',
};

/** The command line: prints a line per PR and answers the exit code. */
async function main(argv, env) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { repo: { type: 'string' }, branch: { type: 'string', default: 'main' } } });
  } catch (error) {
    console.error(`queue-bot: ${error.message}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const prs = positionals.map(Number);
  if (!values.repo?.includes('/') || prs.some((pr) => !Number.isInteger(pr) || pr <= 0)) {
    console.error('usage: queue-bot --repo OWNER/NAME [--branch BRANCH] PR...');
    return 2;
  }
  if (!env.TRUNK_API_KEY) {
    console.error('queue-bot: set TRUNK_API_KEY to the merge queue API token');
    return 2;
  }
  const options = { baseUrl: env.TRUNK_BASE_URL ?? 'https://api.trunk.io/v1', token: env.TRUNK_API_KEY, repo: values.repo, branch: values.branch, prs };
  try {
    const results = await queuePullRequests(options);
    for (const { pr, outcome, detail } of results) console.log(`#${pr} ${WORDS[outcome]}${detail ? ` (${detail})` : ''}`);
    return results.some(({ outcome }) => outcome === 'failed' || outcome === 'refused') ? 1 : 0;
  } catch (error) {
    console.error(`queue-bot: ${error.cause?.message ?? error.message}`);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2), process.env);
