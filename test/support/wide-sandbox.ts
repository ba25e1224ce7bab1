// A sandbox made to test the width of every screen: 12 PRs by an author with a 39-character login (GitHub's
// longest), titles in Chinese and long English, long branch names, a long required check, PRs in several states,
// and the list of every command of CLI.md that prints something to read, as a user types it.
import { expect } from 'vitest';
import { SEEDED_TEST_IDS } from '../../src/sandbox/engine/catalogue.js';
import { control, sandboxEnv, V2_TEST_KEY } from './cli.js';
import { mq, type SandboxFixture } from './in-process.js';
import { textWidth } from '../../src/render/text-width.js';

const AUTHOR = 'a-very-long-github-login-of-39-chars-ok';
const CJK_TITLE = '修复登录页面在慢速网络下偶尔无法加载的问题以及相关的端到端测试';
const LONG_TITLE = 'Move the payment reconciliation job onto the new scheduler and retire the old cron entries';
const LONG_CHECK = 'ci/buildkite/integration-tests-against-postgres-16-and-redis-7 (linux-arm64)';

export interface WideSandbox {
  v1: Record<string, string>;
  v2: Record<string, string>;
  /** A test run's id, for `mq testing --run`. */
  runId: string;
}

/** Fills a repository of its own (`acme/<name>`) on the fixture's sandbox, its clock moved so states differ. */
export async function seedWide(fixture: SandboxFixture, name: string): Promise<WideSandbox> {
  const v1 = { ...sandboxEnv(fixture.recorder.url, `acme/${name}`), MQ_ORG: 'acme' };
  const v2 = { ...v1, MQ_TOKEN: V2_TEST_KEY };
  expect((await mq(['queue', 'create', '--concurrency', '3', '--required-status', LONG_CHECK, '--required-status', 'lint'], { env: v1 })).code).toBe(0);
  for (let number = 1; number <= 12; number++) {
    await control(fixture.sandboxUrl, 'pullRequests', {
      repo: { host: 'github.com', owner: 'acme', name },
      number,
      title: number % 2 === 0 ? CJK_TITLE : LONG_TITLE,
      author: AUTHOR,
      headBranch: `${AUTHOR}/feature-branch-with-a-long-name-${number}`,
      mergeable: number !== 11,
      ...(number === 2 && { testOutcome: 'fail' }),
    });
  }
  expect((await mq(['submit', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'], { env: v1 })).code).toBe(0);
  await control(fixture.sandboxUrl, 'advance', { seconds: 320 });
  const runs = JSON.parse((await mq(['runs', '--json'], { env: v2 })).stdout) as { testRuns: Array<{ testRunId: string }> };
  expect(runs.testRuns.length).toBeGreaterThan(0);
  return { v1, v2, runId: runs.testRuns[0]!.testRunId };
}

export interface WideCommand {
  api: 'v1' | 'v2';
  args: string[];
  /** What a pipe must show whole: the values a terminal may cut. */
  whole?: string[];
}

/**
 * Every command of CLI.md that prints to read, in an order that keeps the queue busy (the writes change little).
 * `completion` is left out (a script for the shell, not for a person), and so is `queue get --watch`, which runs
 * until interrupted (test/terminal/screens.test.ts fits it at 60, 80 and 200 columns).
 */
export function wideCommands(runId: string): WideCommand[] {
  const [testId] = SEEDED_TEST_IDS as [string];
  const v1 = (args: string[], whole?: string[]): WideCommand => ({ api: 'v1', args, ...(whole && { whole }) });
  const v2 = (args: string[], whole?: string[]): WideCommand => ({ api: 'v2', args, ...(whole && { whole }) });
  return [
    v1(['queue', 'get'], [AUTHOR, CJK_TITLE, LONG_TITLE, LONG_CHECK]),
    v1(['queue', 'get', '--settings'], [LONG_CHECK]),
    v1(['list'], [AUTHOR, CJK_TITLE, LONG_TITLE]),
    v1(['list', '--state', 'merged'], [AUTHOR, LONG_TITLE]),
    v1(['status', '1'], [LONG_TITLE]),
    v1(['status', '5']),
    v1(['status', '11']),
    v1(['status', '2']),
    v1(['wait', '2']),
    v1(['testing', '4'], [LONG_CHECK, CJK_TITLE]),
    v1(['wait', '3', '4', '5', '6', '7', '8', '9', '10', '--timeout', '1s', '--interval', '1s']),
    v1(['submit', '12', '--wait', '--timeout', '1s', '--interval', '1s']),
    v1(['restart', '4']),
    v1(['cancel', '12']),
    v1(['targets', 'set', '6', 'target-a', 'target-b']),
    v1(['queue', 'update', '--batching-min-size', '2'], [LONG_CHECK]),
    v1(['queue', 'pause', '--yes', '--reason', 'deploy freeze']),
    v1(['queue', 'resume']),
    v1(['queue', 'drain', '--yes', '--wait', '--timeout', '1s', '--interval', '1s']),
    v1(['queue', 'resume']),
    v1(['metrics']),
    v1(['test-details', testId], [testId]),
    v1(['doctor']),
    v1(['stats']),
    v1(['stats', '--by', 'author'], [AUTHOR]),
    v1(['flaky', 'list', '--quarantined'], [testId]),
    v1(['flaky', 'list', '--unhealthy'], [testId]),
    v1(['flaky', 'list', '--failing'], [testId]),
    v1(['config', 'show']),
    v1(['config', 'path']),
    v2(['queue', 'get'], [AUTHOR, CJK_TITLE]),
    v2(['status', '6'], [CJK_TITLE]),
    v2(['edit', '7', '--priority', 'high']),
    v2(['history', '1']),
    v1(['history', '1']),
    v2(['runs'], [runId]),
    v2(['runs', '4']),
    v2(['testing', '--run', runId], [LONG_CHECK, runId]),
    v2(['status', '2']),
    v2(['queue', 'order'], [CJK_TITLE, LONG_TITLE]),
    v2(['queue', 'graph']),
    v2(['queues']),
  ];
}

/**
 * The list cut, in order, into runs of at most `size` commands, a test each (so that none is long): its title,
 * and its part of the list as `wideCommands` gives it once a sandbox is seeded. The tests run one after another
 * on the same sandbox, each seeing the changes the earlier ones made.
 */
export function wideChunks(size: number): Array<{ title: string; of: (list: readonly WideCommand[]) => WideCommand[] }> {
  const all = wideCommands('');
  return Array.from({ length: Math.ceil(all.length / size) }, (_, chunk) => {
    const from = chunk * size;
    const part = all.slice(from, from + size);
    const name = (command: WideCommand) => `mq ${command.args.join(' ')}`;
    return { title: `commands ${from + 1}-${from + part.length} (${name(part[0]!)} … ${name(part.at(-1)!)})`, of: (list) => list.slice(from, from + size) };
  });
}

/** Whether a line is wider than the window beyond what mq means a terminal to wrap: what fits, then one URL or id, whole. */
export function overflows(line: string, columns: number): boolean {
  if (textWidth(line) <= columns) return false;
  const fits = /^(.*?)[\w./:#?&=%~+@-]+$/.exec(line);
  return !fits || textWidth(fits[1]!) > columns;
}

/** The URLs and ids a screen shows cut ("…" where one ends). */
export function cutValues(text: string): string[] {
  return text.match(/\b(?:https?|[0-9a-f]{6,})[\w./:#?&=%~+@-]*…/g) ?? [];
}
