// npm run demo: a guided tour on the embedded sandbox. No network, no token: it starts `mq sandbox` with a
// manual clock, then runs the same mq commands a user would, moving the clock between them. Whatever goes
// wrong, it ends with one line saying what, never a stack trace.
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The demo's own failure, and the only way it ends early: one line on stderr, exit 1. */
function fail(error) {
  const cause = error?.cause?.message ? ` (${error.cause.message})` : '';
  console.error(`demo: ${error?.message ?? String(error)}${cause}`);
  process.exitCode = 1;
}
process.on('uncaughtException', (error) => {
  fail(error);
  process.exit(1);
});
process.on('unhandledRejection', (error) => {
  fail(error);
  process.exit(1);
});

const bin = fileURLToPath(new URL('../bin/mq.js', import.meta.url));
const terminal = Boolean(process.stdout.isTTY);
const colour = terminal && !process.env.NO_COLOR;
/** The width the tour's own lines are wrapped to: the window's, or 80 in a pipe (as mq fits a pipe's help). */
const width = (terminal && process.stdout.columns) || 80;
const bold = (text) => (colour ? `\u001b[1m${text}\u001b[22m` : text);
const dim = (text) => (colour ? `\u001b[2m${text}\u001b[22m` : text);

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--clock', 'manual'], { stdio: ['ignore', 'pipe', 'ignore'] });
let url = '';
let env = {};
/** The mq steps that failed although the tour expects none to. */
const failed = [];

function say(text) {
  console.log(`\n${bold(wrapped(text))}`);
}

/** `text` in lines of at most `width` columns, broken between words; a word longer than a line stays whole. */
function wrapped(text, indent = '  ') {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = `${indent}${word}`;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

/**
 * Runs mq as a user would. In a terminal mq writes to it itself, so that it fits its tables to the window and
 * colours them as it does by hand; in a pipe (a test, a log) it writes to the tour's pipe, as a script's would.
 * Its stdin is never the terminal: the tour answers no prompt (it passes --yes where mq would ask).
 */
function mq(...args) {
  console.log(dim(`$ mq ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}`));
  const run = spawnSync(process.execPath, [bin, ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', terminal ? 'inherit' : 'pipe', terminal ? 'inherit' : 'pipe'],
  });
  if (!terminal) {
    process.stdout.write(run.stdout);
    process.stdout.write(run.stderr);
  }
  if (run.status !== 0) {
    console.log(dim(`(exit ${run.status})`));
    failed.push(`mq ${args.join(' ')} (exit ${run.status})`);
  }
  return run;
}

/** One POST on a connection of its own: a kept-alive socket the sandbox has just closed cannot be picked up. */
function post(path, body) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const call = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-api-token': 'demo-token' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    call.setTimeout(10_000, () => call.destroy(new Error('no answer within 10s')));
    call.on('error', reject);
    call.end(payload);
  });
}

/** A sandbox control call, tried again (a few times) when the connection fails rather than the sandbox refusing. */
async function control(route, body) {
  for (let attempt = 1; ; attempt++) {
    let answer;
    try {
      answer = await post(`/_sandbox/${route}`, body);
    } catch (error) {
      if (attempt >= 4) throw new Error(`the sandbox did not answer _sandbox/${route}: ${error.message}`);
      await sleep(100 * attempt);
      continue;
    }
    if (answer.status !== 200) throw new Error(`_sandbox/${route}: ${answer.status} ${answer.text}`);
    return;
  }
}

async function advance(seconds, why) {
  console.log(dim(wrapped(`… ${why} (the sandbox clock moves ${seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`})`)));
  await control('advance', { seconds });
}

const repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
try {
  url = await new Promise((resolve, reject) => {
    createInterface({ input: sandbox.stdout }).once('line', resolve);
    sandbox.once('error', reject);
    sandbox.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it started`)));
  });
  env = { ...process.env, MQ_API_URL: url, MQ_TOKEN: 'demo-token', MQ_REPO: 'acme/widgets', ...(colour ? { FORCE_COLOR: '1' } : {}) };
  for (const key of ['MQ_CONFIG', 'MQ_PROFILE', 'MQ_BRANCH', 'MQ_TIMEOUT', 'MQ_ORG']) delete env[key];
  await tour();
  if (failed.length > 0) fail(new Error(`${failed.length} step(s) failed: ${failed.join('; ')}`));
} catch (error) {
  fail(error);
} finally {
  sandbox.kill('SIGTERM');
}

async function tour() {
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
  // Two lines joined by the shell, each within 80 columns: a line a terminal wraps may be copied broken.
  console.log(dim('  export MQ_API_URL=http://127.0.0.1:<port>/v1 MQ_TOKEN=anything \\\n    MQ_REPO=acme/widgets MQ_ORG=acme'));
  console.log(dim('  npx mq queue create && npx mq submit 1 && npx mq queue get'));
}
