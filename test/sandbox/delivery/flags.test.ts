// `mq sandbox --webhook URL[#kinds]` and `--webhook-secret`: the endpoints and their secrets in the start banner, a
// filter naming no kind or a secret that is none refused before the sandbox starts (exit 2, one line).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/cli.js';
import { keyOf } from '../../../src/model/webhook-signature.js';
import { runInProcess } from '../../support/raw-http.js';

const dir = mkdtempSync(join(tmpdir(), 'mq-sandbox-webhook-'));
const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') };
const SECRET = 'whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY';

/** Starts `mq sandbox` and stops it once started, as Ctrl-C does (130), or at once when it refuses. */
async function sandbox(...args: string[]) {
  const controller = new AbortController();
  controller.abort();
  return runInProcess(run, ['sandbox', '--clock', 'manual', ...args], { env, cwd: dir, signal: controller.signal });
}

describe('mq sandbox --webhook', () => {
  it('prints each endpoint with its filter and a secret made for it', async () => {
    const { code, stderr } = await sandbox('--webhook', 'http://127.0.0.1:9/a', '--webhook', 'http://127.0.0.1:9/b#pull_request.*, pull_request_batch.merged');
    expect(code).toBe(130);
    const lines = stderr.split('\n').filter((line) => line.startsWith('webhooks to '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^webhooks to http:\/\/127\.0\.0\.1:9\/a: id ep_1, secret whsec_\S+$/);
    expect(lines[1]).toMatch(/^webhooks to http:\/\/127\.0\.0\.1:9\/b \(pull_request\.\*, pull_request_batch\.merged\): id ep_2, secret whsec_\S+$/);
    const secrets = lines.map((line) => line.split('secret ')[1]!);
    expect(secrets[0]).not.toBe(secrets[1]);
    for (const secret of secrets) expect(keyOf(secret)).toHaveLength(24);
  });

  it('refuses kinds of 100,000 characters, or with a line end, in one short line', async () => {
    const { code, stderr } = await sandbox('--webhook', `http://127.0.0.1:9/a#${'k'.repeat(100_000)},x\ny,pull_request.merged`);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^mq: --webhook: no webhook kind is "k{40}…", "x\\ny": use [^\n]*\n$/);
    expect(stderr.length).toBeLessThan(300);
  });

  it('refuses a URL that is none without its user name or password, cut', async () => {
    const { code, stderr } = await sandbox('--webhook', `ftp://hook-user:hook-pw@${'h'.repeat(100_000)}`);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^mq: --webhook: "ftp:\/\/\*\*\*@h{50}…" is not an http:\/\/ or https:\/\/ URL/);
    expect(stderr).not.toMatch(/hook-user|hook-pw/);
  });

  it.each([
    ['http://127.0.0.1:70000/x', 'is not a URL: its port "70000" is not a number from 0 to 65535'],
    ['http://exa mple.com/x', 'is not a URL: its host "exa mple.com" is no host name or IP address'],
    ['http://[::1:4702/x', 'is not a URL: its IPv6 address has no closing ]'],
    ['http://hook-user:hook-pw@127.0.0.1:8x/x', 'is not a URL: its port "8x" is not a number from 0 to 65535'],
  ])('refuses %j saying what is wrong with it (helper-102)', async (url, problem) => {
    const { code, stderr } = await sandbox('--webhook', `${url}#pull_request.merged`);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `mq: --webhook: ${JSON.stringify(`${url.replace('hook-user:hook-pw', '***')}#pull_request.merged`)} ${problem}; use e.g. http://localhost:3000/hooks\n`,
    );
  });

  it('takes a scheme in upper case, as URLs have it, and shows the URL as Svix keeps it (helper-124: "is not an http:// or https:// URL")', async () => {
    const { code, stderr } = await sandbox('--webhook', 'HTTP://127.0.0.1:9/a');
    expect(code).toBe(130);
    expect(stderr).toMatch(/^webhooks to http:\/\/127\.0\.0\.1:9\/a: id ep_1, secret whsec_\S+$/m);
  });

  it('never shows a URL’s user name or password', async () => {
    const { code, stderr } = await sandbox('--webhook', 'http://hook-user:hook-pw@127.0.0.1:9/a');
    expect(code).toBe(130);
    expect(stderr).toContain('webhooks to http://***@127.0.0.1:9/a: id ep_1');
    expect(stderr).not.toMatch(/hook-user|hook-pw/);
  });

  it('--webhook-secret signs for every endpoint', async () => {
    const { code, stderr } = await sandbox('--webhook', 'http://127.0.0.1:9/a', '--webhook-secret', SECRET);
    expect(code).toBe(130);
    expect(stderr).toContain(`webhooks to http://127.0.0.1:9/a: id ep_1, secret ${SECRET}`);
  });

  it('--webhook-secret takes the secret without its whsec_ prefix too, as Svix’s own libraries do', async () => {
    const bare = SECRET.slice('whsec_'.length);
    const { code, stderr } = await sandbox('--webhook', 'http://127.0.0.1:9/a', '--webhook-secret', bare);
    expect(code).toBe(130);
    expect(stderr).toContain(`webhooks to http://127.0.0.1:9/a: id ep_1, secret ${bare}`);
  });

  it.each([
    [['--webhook', 'http://127.0.0.1:9/a#pull_request.merge'], /^mq: --webhook: no webhook kind is "pull_request\.merge"/],

    [['--webhook', 'ftp://example.com/a'], /^mq: --webhook: .*ftp:\/\/example\.com\/a.* http:\/\/ or https:\/\//],
    [
      ['--webhook', 'http://127.0.0.1:9/a', '--webhook-secret', 'whsec_short'],
      /^mq: --webhook-secret: not a signing secret: give base64 of 24 to 64 bytes, whsec_ before it or not, or leave it out to have one made\n$/,
    ],
    [['--webhook-secret', SECRET], /^mq: --webhook-secret: give a --webhook URL/],
  ])('refuses %j: exit 2, on one line, before starting', async (args, pattern) => {
    const { code, stdout, stderr } = await sandbox(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(pattern);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
