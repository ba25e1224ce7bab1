// targets, metrics, test-details, config show and the sandbox's own command line, end to end.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEEDED_TEST_IDS } from '../../src/sandbox/engine/catalogue.js';
import { isolatedDir, mq as spawned, sandboxEnv, startSandboxProcess, TOKEN } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

let repoCounter = 0;
const json = (text: string) => JSON.parse(text) as Record<string, any>;
async function freshQueue(...settings: string[]) {
  const env = sandboxEnv(fixture.recorder.url, `acme/o-${++repoCounter}`);
  expect((await mq(['queue', 'create', ...settings], { env })).code).toBe(0);
  return env;
}
const sentTargets = () => JSON.parse(fixture.recorder.requests.filter((r) => r.path === '/setImpactedTargets').at(-1)!.body);

describe('targets set', () => {
  it('sends targets from arguments with the sha the queue knows', async () => {
    const env = await freshQueue('--mode', 'parallel');
    await mq(['submit', '9'], { env });
    const status = json((await mq(['status', '9', '--json'], { env })).stdout);
    expect(status.readiness.requiresImpactedTargets).toBe(true);
    const run = await mq(['targets', 'set', '9', '//app:server', '//lib:db'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(sentTargets()).toMatchObject({ pr: { number: 9, sha: status.prSha }, impactedTargets: ['//app:server', '//lib:db'] });
    const after = json((await mq(['status', '9', '--json'], { env })).stdout);
    expect(after.readiness.hasImpactedTargets).toBe(true);
  });

  // The published description requires pr.sha: without one the queue knows, nothing is sent.
  it('asks for --sha for a PR the queue does not know, and sends nothing', async () => {
    const env = await freshQueue('--mode', 'parallel');
    const before = fixture.recorder.requests.length;
    const run = await mq(['targets', 'set', '77', '//a'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('mq: #77 is not in the queue, so mq cannot look up its head SHA: pass --sha (the service files targets under it)\n');
    expect(run.stderr).toContain('--sha');
    expect(fixture.recorder.requests.slice(before).map((r) => r.path)).not.toContain('/setImpactedTargets');
  });

  it('reads targets from a file and from stdin, takes --sha and --all', async () => {
    const env = await freshQueue('--mode', 'parallel');
    const dir = isolatedDir();
    const file = join(dir, 'targets.txt');
    writeFileSync(file, '# impacted\n//a\n\n//b\n');
    expect((await mq(['targets', 'set', '3', '--file', file, '--sha', 'abc123'], { env })).code).toBe(0);
    expect(sentTargets()).toMatchObject({ pr: { number: 3, sha: 'abc123' }, impactedTargets: ['//a', '//b'] });
    expect((await mq(['targets', 'set', '3', '--file', '-', '--sha', 'abc123'], { env, input: '["//c"]' })).code).toBe(0);
    expect(sentTargets().impactedTargets).toEqual(['//c']);
    const all = await mq(['targets', 'set', '3', '--all', '--sha', 'abc123', '--json'], { env });
    expect(json(all.stdout)).toMatchObject({ pr: 3, impactedTargets: 'ALL', fellBackToAll: false });
    expect(sentTargets().impactedTargets).toBe('ALL');
    expect((await mq(['targets', 'set', '3', '//x', '--all'], { env })).code).toBe(2);
    expect((await mq(['targets', 'set', '3', '--file', join(dir, 'missing.txt')], { env })).code).toBe(2);
  });

  it('sends ALL, with a warning, when the list would pass the 20 MiB body limit', async () => {
    const env = await freshQueue('--mode', 'parallel');
    // Over the limit by a little (10,600 lines of about 2 KB: 21.5 MB), in few lines: the bytes decide, not the count.
    const target = `//very/long/target/path/${'x'.repeat(2000)}`;
    const lines = Array.from({ length: 10_600 }, (_, i) => `${target}:${i}`).join('\n');
    const run = await mq(['targets', 'set', '4', '--file', '-', '--sha', 'abc'], { env, input: lines });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: .*ALL/);
    expect(sentTargets().impactedTargets).toBe('ALL');
  });
});

describe('metrics', () => {
  it('prints a table, the raw text, and JSON samples', async () => {
    const env = await freshQueue();
    await mq(['submit', '1'], { env });
    const table = await mq(['metrics'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).not.toContain('# TYPE');
    const raw = await mq(['metrics', '--raw'], { env });
    expect(raw.stdout).toContain('mq_depth_current');
    expect(raw.stdout).toContain(`repo="acme/o-${repoCounter}"`);
    const query = fixture.recorder.requests.find((r) => r.method === 'GET')!.path;
    expect(query).toContain(`repo=acme%2Fo-${repoCounter}`);
    expect(query).toContain('repoHost=github.com');
    const asJson = json((await mq(['metrics', '--json'], { env })).stdout);
    expect(asJson.metrics.some((m: { name: string }) => m.name === 'mq_depth_current')).toBe(true);
    const allRepos = await mq(['metrics', '--all-repos', '--raw'], { env });
    expect(allRepos.code).toBe(0);
    expect(fixture.recorder.requests.filter((r) => r.method === 'GET').at(-1)!.path).toBe('/getMergeQueueMetrics');
  });
});

describe('test-details', () => {
  it('shows a seeded test case, 404s an unknown one, and refuses a non-UUID', async () => {
    const env = { ...sandboxEnv(fixture.recorder.url, 'acme/tests'), MQ_ORG: 'acme' };
    const id = SEEDED_TEST_IDS[0]!;
    const found = await mq(['test-details', id, '--json'], { env });
    expect(found.code).toBe(0);
    expect(json(found.stdout).test.id).toBe(id);
    const text = await mq(['test-details', id], { env });
    expect(text.stdout).toContain(json(found.stdout).test.name);
    expect((await mq(['test-details', '00000000-0000-4000-8000-000000000000'], { env })).code).toBe(4);
    expect((await mq(['test-details', 'not-a-uuid'], { env })).code).toBe(2);
    const noOrg = await mq(['test-details', id], { env: sandboxEnv(fixture.recorder.url, 'acme/tests') });
    expect(noOrg.code).toBe(3);
  });
});

describe('config show', () => {
  it('shows every setting with its origin and never the token', async () => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/cfg');
    const run = await mq(['config', 'show', '--branch', 'release'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('release');
    expect(run.stdout).toContain('MQ_REPO');
    expect(run.stdout).not.toContain(TOKEN);
    const asJson = await mq(['config', 'show', '--json', '--debug'], { env });
    expect(asJson.stdout + asJson.stderr).not.toContain(TOKEN);
    expect(json(asJson.stdout).settings).toBeTruthy();
  });

  it('never prints the token in a --debug trace', async () => {
    const env = await freshQueue();
    const run = await mq(['queue', 'get', '--debug'], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('x-api-token');
    expect(run.stderr).not.toContain(TOKEN);
  });
});

describe('exit codes for configuration and the network', () => {
  it('exits 3 without a token or a repository, saying how to set them', async () => {
    const noToken = await mq(['queue', 'get'], { env: { MQ_API_URL: fixture.recorder.url, MQ_REPO: 'acme/x' } });
    expect(noToken.code).toBe(3);
    expect(noToken.stderr).toContain('MQ_TOKEN');
    const noRepo = await mq(['queue', 'get'], { env: { MQ_API_URL: fixture.recorder.url, MQ_TOKEN: TOKEN } });
    expect(noRepo.code).toBe(3);
    expect(noRepo.stderr).toMatch(/repo/i);
  });

  // From here on the built mq, spawned: the exit code of a few representative commands as the process ends,
  // the shim's --help and --version.
  it('exits 3 on a 401 from a sandbox that wants another token', async () => {
    const guarded = await startSandboxProcess(['--clock', 'manual', '--token', 'the-right-one']);
    try {
      const run = await spawned(['queue', 'get'], { env: sandboxEnv(guarded.url, 'acme/x') });
      expect(guarded.stderr()).toContain("MQ_TOKEN='<your --token>'");
      expect(guarded.stderr()).not.toContain('the-right-one');
      expect(run.code).toBe(3);
      expect(run.stderr).not.toContain(TOKEN);
    } finally {
      await guarded.stop();
    }
  });

  it('exits 6 when nothing listens', async () => {
    const run = await spawned(['queue', 'get', '--timeout', '5s'], { env: sandboxEnv('http://127.0.0.1:9/v1', 'acme/x') });
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/refused/);
  });

  it('exits 2 on an unknown flag or command, in one line', async () => {
    const flag = await spawned(['queue', 'get', '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim().split('\n')).toHaveLength(1);
    expect((await spawned(['frobnicate'])).code).toBe(2);
  });

  it('prints help with examples, and the version', async () => {
    const help = await spawned(['submit', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    const version = await spawned(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
