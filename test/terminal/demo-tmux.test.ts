// `npm run demo` as a newcomer first sees it: in a terminal of 80 columns (tmux gives it a pseudo-terminal), every
// line fits the window, mq's own output included (it writes to the terminal itself, so it fits its tables and
// colours them as it does by hand), and the line to copy is a shell command that survives being copied. In a pipe
// the tour is test/e2e/demo.test.ts's.
import { execFileSync, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedDir } from '../support/cli.js';

const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;
const TITLE = HAS_TMUX
  ? 'npm run demo in a terminal of 80 columns (tmux)'
  : 'npm run demo in a terminal: SKIPPED because tmux is not installed (apt-get install tmux)';
if (!HAS_TMUX) console.warn(`test/terminal/demo-tmux.test.ts: ${TITLE}`);

const COLUMNS = 80;
const SOCKET = `mq-demo-test-${process.pid}`;
const ESC = '\u001b[';

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!HAS_TMUX)(TITLE, () => {
  afterAll(() => spawnSync('tmux', ['-L', SOCKET, 'kill-server']));

  it('fits every line to the window, lets mq fit and colour its own output, and ends with a command to copy', { timeout: 180_000 }, async () => {
    const vars = { PATH: process.env.PATH ?? '', HOME: isolatedDir(), TERM: 'xterm-256color' };
    const assignments = Object.entries(vars).map(([key, value]) => quote(`${key}=${value}`));
    // The shell stays after the demo ends, so that its exit code and its whole output can be read.
    const command = `env -i ${assignments.join(' ')} ${quote(process.execPath)} scripts/demo.mjs; echo "[exit $?]"; sleep 600`;
    tmux('new-session', '-d', '-s', 'demo', '-x', String(COLUMNS), '-y', '40', '-c', process.cwd(), command);
    // Until the demo has ended: an event the screen shows, polled; the test's timeout is the only clock.
    while (!/^\[exit \d+\]$/m.test(tmux('capture-pane', '-p', '-t', 'demo'))) await sleep(200);

    // The whole output, scrollback included, each line the terminal wrapped joined again (-J): a line wider than
    // the window shows as one line here, not as two rows.
    const text = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'demo');
    const lines = text.split('\n').map((line) => line.trimEnd());
    expect(lines).toContain('[exit 0]');
    expect(lines.filter((line) => [...line].length > COLUMNS)).toEqual([]);
    // mq wrote to the terminal: a queue's table as mq draws it there (the common priority above the rows) ...
    expect(text).toMatch(/^priority medium \(100\)\n# {2}PR {4}TITLE/m);
    // ... and in colour.
    expect(tmux('capture-pane', '-p', '-e', '-S', '-', '-t', 'demo')).toContain(`${ESC}33mtesting`);
    // The command to copy: two lines the shell joins, each within the window.
    expect(text).toMatch(/^ {2}export MQ_API_URL=http:\/\/127\.0\.0\.1:<port>\/v1 MQ_TOKEN=anything \\\n {4}MQ_REPO=acme\/widgets MQ_ORG=acme$/m);
  });
});
