// npm run demo: a guided tour on the embedded sandbox. No network, no token: it starts `mq sandbox` with a
// manual clock, then runs the same mq commands a user would, moving the clock between them.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/mq.js', import.meta.url));
const colour = process.stdout.isTTY && !process.env.NO_COLOR;
const bold = (text) => (colour ? `\u001b[1m${text}\u001b[22m` : text);
const dim = (text) => (colour ? `\u001b[2m${text}\u001b[22m` : text);

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--clock', 'manual'], { stdio: ['ignore', 'pipe', 'ignore'] });
const url = await new Promise((resolve, reject) => {
  createInterface({ input: sandbox.stdout }).once('line', resolve);
  sandbox.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it started`)));
});

const env = {
  ...process.env,
  MQ_API_URL: url,
  MQ_TOKEN: 'demo-token',
  MQ_REPO: 'acme/widgets',
  ...(colour ? { FORCE_COLOR: '1' } : {}),
};
for (const key of ['MQ_CONFIG', 'MQ_PROFILE', 'MQ_BRANCH', 'MQ_TIMEOUT', 'MQ_ORG']) delete env[key];

function say(text) {
  console.log(`\n${bold(text)}`);
}

function mq(...args) {
  console.log(dim(`$ mq ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}`));
  const run = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
  process.stdout.write(run.stdout);
  process.stdout.write(run.stderr);
  if (run.status !== 0) console.log(dim(`(exit ${run.status})`));
  return run;
}

async function control(route, body) {
  const response = await fetch(`${url}/_sandbox/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': 'demo-token' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`_sandbox/${route}: ${response.status} ${await response.text()}`);
}

async function advance(seconds, why) {
  console.log(dim(`… ${why} (the sandbox clock moves ${seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`})`));
  await control('advance', { seconds });
}

const repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
try {
  console.log(bold(`mq demo: a merge queue on the local sandbox at ${url}`));
  await control('pullRequests', { repo, number: 101, title: 'Add retries to the payment client', author: 'alice' });
  await control('pullRequests', { repo, number: 102, title: 'Bump the logging library', author: 'bob' });
  await control('pullRequests', { repo, number: 103, title: 'Refactor the cache layer', author: 'carol', testOutcome: 'fail' });
  await control('pullRequests', { repo, number: 104, title: 'Fix a typo in the README', author: 'dave' });
  await control('pullRequests', { repo, number: 105, title: 'Speed up the image resizer', author: 'erin' });
  await control('pullRequests', { repo, number: 106, title: 'Add a health check endpoint', author: 'frank' });

  say('1. Create the queue for main, testing two PRs at a time');
  mq('queue', 'create', '--concurrency', '2');

  say('2. Submit three pull requests (#103 has a failing test)');
  mq('submit', '101', '102', '103');
  await advance(1, 'the queue admits them and starts testing');
  mq('queue', 'get');

  say('3. Tests finish: passing PRs merge in queue order');
  await advance(600, 'the first runs finish');
  await advance(600, 'the next run finishes');
  mq('status', '101');
  mq('status', '103');
  mq('list', '--state', 'merged');

  say('4. A maintenance window: pause, drain, resume');
  mq('submit', '104');
  await advance(1, '#104 starts testing');
  mq('queue', 'pause', '--reason', 'database migration', '--yes');
  mq('submit', '105');
  await advance(900, 'paused: the run in flight finishes, but nothing new starts and nothing merges');
  mq('queue', 'get');
  mq('queue', 'drain', '--yes');
  mq('submit', '106');
  await advance(1, 'draining: the PRs already in the queue go on; #106, submitted now, waits');
  await advance(900, 'they are tested and merged');
  mq('list', '--limit', '3');
  mq('queue', 'resume');
  await advance(1, 'running again: #106 is admitted');
  await advance(600, 'and merges');
  mq('status', '106');

  say('5. Queue health over the last hour');
  mq('metrics');

  console.log(`\n${bold('Done.')} Try it yourself: ${dim('npx mq sandbox')} in one terminal, then in another:`);
  console.log(dim(`  export MQ_API_URL=http://127.0.0.1:<port>/v1 MQ_TOKEN=anything MQ_REPO=acme/widgets`));
  console.log(dim('  npx mq queue create && npx mq submit 1 && npx mq queue get'));
} finally {
  sandbox.kill('SIGTERM');
}
