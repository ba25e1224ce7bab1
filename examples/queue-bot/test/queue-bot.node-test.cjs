// The bot's command line against a sandbox in this process (node:test, CommonJS): run as CI runs it, pointed at
// the sandbox by TRUNK_BASE_URL and TRUNK_API_KEY. The bot runs as a child process with execFile, not
// execFileSync: the sandbox answers from this process's event loop, which a synchronous call would block.
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const { join } = require('node:path');
const { after, afterEach, before, test } = require('node:test');
const { startSandbox } = require('mq/sandbox');

const SEED = {
  queues: [{ repo: 'acme/widgets', branch: 'main' }],
  pullRequests: [{ repo: 'acme/widgets', number: 7, testOutcome: 'fail' }],
};

let sandbox;
before(async () => {
  sandbox = await startSandbox({ seed: SEED });
});
afterEach(() => sandbox.reset());
after(() => sandbox.close());

function bot(prs, { url = sandbox.v1Url, token = sandbox.token } = {}) {
  const args = [join(__dirname, '..', 'queue-bot.js'), '--repo', 'acme/widgets', ...prs.map(String)];
  const env = { ...process.env, TRUNK_BASE_URL: url, TRUNK_API_KEY: token };
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env }, (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
  });
}

test('exits 0 with a line per PR once they are submitted', async () => {
  assert.deepEqual(await bot([7, 8]), { code: 0, stdout: '#7 submitted\n#8 submitted\n', stderr: '' });
});

test('exits 1 for a PR that failed in the queue, and does not submit it again', async () => {
  await bot([7]);
  await sandbox.advance(300);
  const run = await bot([7]);
  assert.equal(run.code, 1);
  assert.equal(run.stdout, '#7 left the queue without merging, not resubmitted (failed)\n');
});

test('exits 2 on one line when the service refuses the token', async () => {
  const strict = await startSandbox({ seed: SEED, token: 'ci-secret' });
  try {
    const run = await bot([7], { url: strict.v1Url, token: 'stale' });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^queue-bot: the service refused the token \(401\)/);
    assert.equal(run.stderr.trim().split('\n').length, 1);
    assert.doesNotMatch(run.stderr, /stale/);
  } finally {
    await strict.close();
  }
});
