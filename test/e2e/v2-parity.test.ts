// Where v2 answers a fact v1 gives in other words, mq says it as v1 does: the same text, --json and exit code.
import { describe, expect, it } from 'vitest';
import { sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
let repoCounter = 0;
const json = (text: string) => JSON.parse(text) as Record<string, any>;

async function queueOf(api: TestApi, ...settings: string[]): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, `acme/p-${++repoCounter}`, {}, api);
  expect((await mq(['queue', 'create', ...settings], { env })).code).toBe(0);
  return env;
}

describe('queue update --enqueueing-label ""', () => {
  it('leaves a queue with no label as it is on v2, as on v1', async () => {
    for (const api of ['v1', 'v2'] as const) {
      const env = await queueOf(api);
      const run = await mq(['queue', 'update', '--enqueueing-label', ''], { env });
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(json((await mq(['queue', 'get', '--json'], { env })).stdout).enqueueingLabel).toBe('');
    }
  });

  it('is refused on v2 in one line, nothing sent, where a label is set: v2 cannot remove one', async () => {
    const env = await queueOf('v2');
    expect((await mq(['queue', 'update', '--enqueueing-label', 'ship it'], { env })).code).toBe(0);
    const from = fixture.recorder.requests.length;
    const run = await mq(['queue', 'update', '--enqueueing-label', '', '--concurrency', '3'], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mq: the v2 API cannot remove the enqueueing label .*--enqueueing-label <label>\n$/);
    expect(fixture.recorder.requests.slice(from).filter((request) => request.method !== 'GET')).toEqual([]);
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout)).toMatchObject({ enqueueingLabel: 'ship it', concurrency: 1 });
  });
});
