// `mq targets set --file`, streamed: what reaches the service and what is printed are what they were when the
// list was read whole.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedDir, sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
let repoCounter = 0;

async function freshQueue() {
  const env = sandboxEnv(fixture.recorder.url, `acme/tf-${++repoCounter}`);
  expect((await mq(['queue', 'create', '--mode', 'parallel'], { env })).code).toBe(0);
  return env;
}
const lastUpload = () => fixture.recorder.requests.filter((r) => r.path === '/setImpactedTargets').at(-1)!;

describe('targets set --file', () => {
  it('sends the arguments, then the file, in one body of the same bytes as before', async () => {
    const env = await freshQueue();
    const file = join(isolatedDir(), 'targets.json');
    const listed = Array.from({ length: 5000 }, (_, i) => `//pkg/é${i}:target "quoted"`);
    writeFileSync(file, JSON.stringify(listed));
    const run = await mq(['targets', 'set', '5', '//first', '--file', file, '--sha', 'abc123'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe('Impacted targets of #5 set: 5001 targets (sha abc123)\n');
    const repo = { host: 'github.com', owner: 'acme', name: `tf-${repoCounter}` };
    expect(lastUpload().body).toBe(JSON.stringify({ repo, targetBranch: 'main', pr: { number: 5, sha: 'abc123' }, impactedTargets: ['//first', ...listed] }));
  });

  it('prints the whole list under --json, from standard input', async () => {
    const env = await freshQueue();
    const run = await mq(['targets', 'set', '6', '--file', '-', '--sha', 'abc', '--json'], { env, input: '//a\n# no\n//b\n' });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ pr: 6, sha: 'abc', impactedTargets: ['//a', '//b'], fellBackToAll: false });
  });

  it('refuses a bad list with exit 2, naming it, and sends nothing', async () => {
    const env = await freshQueue();
    const before = fixture.recorder.requests.length;
    const run = await mq(['targets', 'set', '6', '--file', '-', '--sha', 'abc'], { env, input: '["//a", 1]' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('standard input: expected a JSON array of strings');
    expect(fixture.recorder.requests.slice(before).map((r) => r.path)).not.toContain('/setImpactedTargets');
  });
});
