// mq status shows the PR's link where the service gives it (v2's `url`; v1 gives none, and mq builds none), and
// `--web` opens it as gh does: the command BROWSER names, else the platform's opener; with no link, exit 6.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const REPO = 'acme/web';

async function submitted(api: TestApi, pr: number, extra: Record<string, string> = {}) {
  const env = sandboxEnv(fixture.recorder.url, `${REPO}-${api}`, extra, api);
  await mq(['queue', 'create'], { env });
  expect((await mq(['submit', String(pr)], { env })).code).toBe(0);
  return env;
}

/** A browser that writes the link it was given to a file, and the file. */
function fakeBrowser(): { command: string; opened: () => string } {
  const folder = mkdtempSync(join(tmpdir(), 'mq-browser-'));
  const command = join(folder, 'browser');
  writeFileSync(command, `#!/bin/sh\nprintf '%s' "$1" > "${folder}/opened"\n`);
  chmodSync(command, 0o755);
  return { command, opened: () => readFileSync(join(folder, 'opened'), 'utf8') };
}

describe('the link of mq status', () => {
  it('v2: a url row, and --web opens it in BROWSER with nothing on stdout', async () => {
    const browser = fakeBrowser();
    const env = await submitted('v2', 3, { BROWSER: browser.command });
    const url = `https://github.com/${REPO}-v2/pull/3`;
    expect((await mq(['status', '3'], { env })).stdout).toContain(`\nurl          ${url}\n`);
    const run = await mq(['status', '3', '--web'], { env });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: `opening ${url} in your browser\n` });
    expect(browser.opened()).toBe(url);
    expect(JSON.parse((await mq(['status', '3', '--web', '--json'], { env })).stdout)).toEqual({ url });
  });

  it('v2: a browser that cannot start is one line, exit 3', async () => {
    const env = await submitted('v2', 4, { BROWSER: '/nonexistent/browser --new-tab' });
    const run = await mq(['status', '4', '--web'], { env });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/could not open the browser with \/nonexistent\/browser \(it was not found\): set BROWSER, or open https:\S+\/pull\/4\n$/);
  });

  it('v1: no url row, and --web says there is no link, exit 6', async () => {
    const browser = fakeBrowser();
    const env = await submitted('v1', 5, { BROWSER: browser.command });
    expect((await mq(['status', '5'], { env })).stdout).not.toMatch(/\nurl /);
    const run = await mq(['status', '5', '--web'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr).toBe('mq: the service gives no link to #5 (v1 never does, v2 once it has synced the PR)\n');
    expect(() => browser.opened()).toThrow();
  });
});
