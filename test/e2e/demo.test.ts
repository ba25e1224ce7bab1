// `npm run demo` (scripts/demo.mjs) as a newcomer runs it: it ends with exit 0 and a line to paste whose settings
// are all that the README's next steps need, mq flaky's organization included (issue 21).
// One run of the demo, watched step by step as it prints: each numbered step of its tour is a test of its own,
// that ends when the next step begins, so that no one test holds the whole tour (about twenty processes).
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';

const STEPS = 5;

describe('npm run demo', () => {
  let stdout = '';
  let exit: Promise<number | null>;
  /** Resolves when stdout holds `pattern`, or the demo has ended (then the test's own check says what is missing). */
  let printed: (pattern: RegExp) => Promise<void>;

  beforeAll(() => {
    const child = spawn(process.execPath, ['scripts/demo.mjs'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const waiting: Array<() => void> = [];
    const wake = () => waiting.splice(0).forEach((check) => check());
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      wake();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    let ended = false;
    exit = new Promise((done) =>
      child.on('close', (code) => {
        ended = true;
        wake();
        done(code);
      }),
    );
    printed = (pattern) =>
      new Promise((done) => {
        const check = () => (ended || pattern.test(stdout) ? done() : waiting.push(check));
        check();
      });
  });

  /** What the demo printed from `from` up to the line that matches `to`. */
  const between = (from: RegExp, to: RegExp): string => {
    const start = stdout.search(from);
    const rest = start < 0 ? '' : stdout.slice(start);
    const end = rest.slice(1).search(to);
    return end < 0 ? rest : rest.slice(0, end + 1);
  };

  it('starts its sandbox and names its URL', async () => {
    await printed(/^1\. /m);
    expect(stdout).toMatch(/^mq demo: a merge queue on the local sandbox at http:\/\/127\.0\.0\.1:\d+\/v1$/m);
  });

  it.each(Array.from({ length: STEPS }, (_, index) => index + 1))('step %i: every mq command it shows succeeds', async (step) => {
    const next = step < STEPS ? new RegExp(`^${step + 1}\\. `, 'm') : /^Done\./m;
    await printed(next);
    const text = between(new RegExp(`^${step}\\. `, 'm'), next);
    expect(text).toMatch(/^\$ mq /m);
    expect(text).not.toMatch(/^\(exit \d+\)$/m);
    expect(stdout).toMatch(next);
  });

  it('ends with a line to export that names the API URL, token, repository and organization', async () => {
    expect(await exit, stdout).toBe(0);
    expect(stdout.match(/^\d+\. /gm)).toHaveLength(STEPS);
    // One command in two lines, as a shell joins them (`\` at a line's end).
    const exported = stdout
      .replace(/ \\\n\s*/g, ' ')
      .split('\n')
      .find((line) => line.trim().startsWith('export MQ_API_URL='));
    expect(exported).toBeDefined();
    for (const name of ['MQ_API_URL', 'MQ_TOKEN', 'MQ_REPO', 'MQ_ORG']) expect(exported).toContain(`${name}=`);
  });
});
