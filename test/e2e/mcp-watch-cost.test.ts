// What an MCP client's subscription to a long queue costs a v2 service: the built `mq mcp` reads the subscribed
// queue each --interval, through the recorder. v2 lists a queue's PRs a hundred to a page: its first round reads
// them all, the rounds after read the queue's order and what it shows changed, not the list page by page.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { MQ_BIN, mqEnvironment, type RecordedRequest, sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

describe('an MCP subscription to a long queue', () => {
  it('on v2, reads a 450-PR queue page by page once, then by its order each round', async () => {
    // Made past the recorder: only the server's reads are counted.
    const setup = sandboxEnv(fixture.sandboxUrl, 'acme/widgets', {}, 'v2');
    const created = await mq(['queue', 'create'], { env: setup });
    expect(created.code, created.stderr).toBe(0);
    const submitted = await mq(['submit', ...Array.from({ length: 450 }, (_, i) => String(i + 1))], { env: setup });
    expect(submitted.code, submitted.stderr).toBe(0);
    const { home, env } = mqEnvironment({ env: sandboxEnv(fixture.recorder.url, 'acme/widgets', {}, 'v2') });
    const transport = new StdioClientTransport({ command: process.execPath, args: [MQ_BIN, 'mcp', '--interval', '1s'], env, cwd: home, stderr: 'pipe' });
    const client = new Client({ name: 'mq-watch-cost', version: '1.0.0' });
    await client.connect(transport);
    try {
      const orders = (requests: readonly RecordedRequest[]) => requests.filter((request) => request.path.endsWith('/order')).length;
      await client.subscribeResource({ uri: 'mq://queue/github.com/acme/widgets/main' });
      await fixture.recorder.until((requests) => orders(requests) >= 4);
      await client.unsubscribeResource({ uri: 'mq://queue/github.com/acme/widgets/main' });
    } finally {
      await client.close();
    }
    const requests = fixture.recorder.requests;
    // A whole read: five pages of a hundred (four past the first), the first round's and one each half minute (a
    // slow machine may reach a second); none past the first page in the rounds between.
    const pagesPast = requests.filter((request) => request.path.includes('cursor=')).length;
    expect(pagesPast % 4).toBe(0);
    const whole = pagesPast / 4;
    const rounds = requests.filter((request) => request.path.endsWith('/order')).length;
    expect(whole).toBeGreaterThanOrEqual(1);
    expect(rounds - whole).toBeGreaterThanOrEqual(2);
    // The lookup's two; a whole round: the queue's settings, its order, five pages; a round between: the settings,
    // the order, the newest page and the PRs not ready (and a round cut short by the end).
    expect(requests.length).toBeLessThanOrEqual(2 + 7 * whole + 4 * (rounds - whole) + 4);
  });
});
