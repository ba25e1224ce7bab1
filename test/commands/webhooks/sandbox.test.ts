// mq webhooks against a sandbox: listen subscribes itself (and unsubscribes on ^C), the sandbox's events and a
// triggered one arrive verified, and a refused subscription ends it; trigger takes a v1 token or a v2 key, and is refused where no sandbox answers.
import { describe, expect, it } from 'vitest';
import { EndpointList } from '../../../src/api/sandbox-webhooks.js';
import { startSandbox } from '../../../src/sandbox/io/server.js';
import { type TestApi, sandboxEnv, startMq, TOKEN } from '../../support/cli.js';
import { mq, useSandbox } from '../../support/in-process.js';

const fixture = useSandbox();

async function endpoints(): Promise<unknown[]> {
  const answer = await fetch(`${fixture.sandboxUrl.replace(/\/v1$/, '')}/_sandbox/webhooks/endpoints`, { headers: { 'x-api-token': TOKEN } });
  return EndpointList.parse(await answer.json()).endpoints;
}

describe('mq webhooks against a sandbox', () => {
  it.each<TestApi>(['v1', 'v2'])(
    'listen subscribes itself, prints the queue’s events and a triggered one, and unsubscribes on ^C (%s credential)',
    async (api) => {
      const env = sandboxEnv(fixture.recorder.url, 'acme/widgets', {}, api);
      const listen = startMq(['webhooks', 'listen', '--events', 'pull_request.*'], { env });
      try {
        await listen.until(/\^C to quit/, 'stderr');
        expect(listen.stderr()).toMatch(/subscribed to the sandbox at \S+ \(endpoint \S+, pull_request\.\*\)/);
        expect(await endpoints()).toHaveLength(1);
        expect((await mq(['queue', 'create'], { env })).code).toBe(0);
        expect((await mq(['submit', '7'], { env })).code).toBe(0);
        const triggered = await mq(['webhooks', 'trigger', 'pull_request.merged', '--pr', '7', '--json'], { env });
        expect(triggered.code).toBe(0);
        const event = JSON.parse(triggered.stdout) as { id: string; type: string; payload: { pr_number: number } };
        expect(event).toMatchObject({ id: expect.stringMatching(/^msg_/), type: 'pull_request.merged', payload: { pr_number: 7 } });
        await listen.until(new RegExp(event.id));
        expect(listen.stdout()).toMatch(/--> pull_request\.submitted acme\/widgets#7 submitted \(API_REQUESTED\) \[msg_/);
        expect(listen.stdout()).toContain(`--> pull_request.merged acme/widgets#7 merged`);
        expect(listen.stdout()).not.toMatch(/not verified/);
        listen.child.kill('SIGINT');
        expect((await listen.done).code).toBe(130);
        expect(await endpoints()).toEqual([]);
      } finally {
        listen.child.kill('SIGKILL');
      }
    },
  );

  it('listen refused by the sandbox (a token it does not take) ends: exit 3 on one line, the token not shown', async () => {
    const token = 'not-the-sandbox-5ecret';
    const own = await startSandbox({ clock: 'manual', token: TOKEN });
    const listen = startMq(['webhooks', 'listen'], { env: sandboxEnv(own.url, 'acme/widgets', { MQ_TOKEN: token }) });
    try {
      const listening = await listen.until(/\^C to quit/, 'stderr').then(
        () => true,
        () => false,
      );
      expect(listening).toBe(false);
      const ended = await listen.done;
      expect(ended).toMatchObject({ code: 3, stdout: '' });
      expect(ended.stderr).toMatch(/^mq: .*401.*\n$/);
      expect(ended.stderr).not.toContain(token);
      expect(own.webhookEndpoints()).toEqual([]);
    } finally {
      listen.child.kill('SIGKILL');
      await own.close();
    }
  });

  it('trigger and listen with a v2 key the sandbox does not take: its words, as v2 says it, exit 3 (helper-98)', async () => {
    const own = await startSandbox({ clock: 'manual', token: 'secrettok', keys: [{ key: 'trunk_v2_good', permissions: [] }] });
    try {
      const env = sandboxEnv(own.url, 'acme/widgets', { MQ_TOKEN: 'trunk_v2_bad' });
      for (const command of [
        ['webhooks', 'trigger', 'pull_request.merged'],
        ['webhooks', 'listen'],
      ]) {
        const ended = await mq(command, { env });
        expect(ended, command.join(' ')).toMatchObject({ code: 3, stdout: '' });
        expect(ended.stderr.split('\n')[0], command.join(' ')).toMatch(/^mq: the API key is not valid for this sandbox\b.*401/);
      }
      expect(own.webhookEndpoints()).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('trigger: an unknown type names the types; a PR the queue never had is 404; the service is no sandbox, said before any token is read', async () => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/widgets');
    const unknown = await mq(['webhooks', 'trigger', 'pull_request.exploded'], { env });
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^mq: <type>: "pull_request.exploded" is not an event type; use one of pull_request.submitted, .*test_case.quarantining_setting_changed\n$/,
      ),
    });
    const long = await mq(['webhooks', 'trigger', `a\n${'a'.repeat(100_000)}`], { env });
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/^mq: <type>: "a\\na{58}…" is not an event type; use one of /);
    expect(long.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect((await mq(['webhooks', 'trigger', 'pull_request.merged', '--pr', 'abc'], { env })).stderr).toMatch(/^mq: --pr: "abc" is not a PR number/);
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['webhooks', 'trigger', 'pull_request.merged', '--pr', '99'], { env })).code).toBe(4);
    // With two queues, the one the settings name (-R, -b), as for any command.
    expect((await mq(['queue', 'create', '-R', 'acme/other'], { env })).code).toBe(0);
    expect((await mq(['submit', '5', '-R', 'acme/other'], { env })).code).toBe(0);
    const other = await mq(['webhooks', 'trigger', 'pull_request.merged', '--pr', '5', '-R', 'acme/other', '--json'], { env });
    expect(other.code).toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({ payload: { pr_number: 5, repository: { name: 'other' } } });
    expect((await mq(['webhooks', 'trigger', 'pull_request.merged', '--pr', '5', '-b', 'release'], { env: { ...env, MQ_REPO: 'acme/other' } })).code).toBe(4);
    const service = await mq(['webhooks', 'trigger', 'pull_request.merged'], { env: { MQ_API_URL: 'https://api.trunk.io' } });
    expect(service).toMatchObject({ code: 2, stdout: '' });
    expect(service.stderr).toBe(
      'mq: only a sandbox answers mq webhooks trigger: https://api.trunk.io is not one (point --api-url or MQ_API_URL at a running mq sandbox)\n',
    );
  });
});
