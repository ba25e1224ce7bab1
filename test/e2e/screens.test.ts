// Screens that fit, through the whole program: mq's `run` in this process with a stdout that is a terminal
// (an emulated one, xterm.js headless, 80×24) against a sandbox on a manual clock. The clock moves by events;
// the test moves on when the window shows what it waits for. Node alone: the tmux test shows the same on a real
// pseudo-terminal where tmux is installed.
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { control, sandboxEnv } from '../support/cli.js';
import { mq, startMq, useSandbox } from '../support/in-process.js';
import { Emulator } from '../terminal/emulator.js';
import { cutValues, overflows, seedWide, wideChunks, wideCommands, type WideSandbox } from '../support/wide-sandbox.js';

const fixture = useSandbox();
const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });

let repoCounter = 0;
/** A queue of concurrency 3 with `count` PRs submitted, 201 upwards. */
async function queueWith(count: number): Promise<Record<string, string>> {
  const name = `screens-${++repoCounter}`;
  const env = sandboxEnv(fixture.recorder.url, `acme/${name}`);
  expect((await mq(['queue', 'create', '--concurrency', '3'], { env })).code).toBe(0);
  const prs = Array.from({ length: count }, (_, i) => String(201 + i));
  for (const pr of prs) {
    await control(fixture.sandboxUrl, 'pullRequests', {
      repo: { host: 'github.com', owner: 'acme', name },
      number: Number(pr),
      title: `Change number ${pr} of the widgets`,
      author: 'alice',
    });
  }
  if (count > 0) expect((await mq(['submit', ...prs], { env })).code).toBe(0);
  return env;
}

/** mq in this process, its stdout the emulated terminal; `interrupt` is Ctrl-C, `step` one more round. */
function onTerminal(args: string[], env: Record<string, string>, emulator: Emulator) {
  const running = startMq(args, { env, stdout: emulator.stdout() });
  return { ...running, code: running.done.then((done) => done.code) };
}

describe('queue get on a terminal (80×24)', () => {
  it('leads with the state and the PRs, then the settings in a few lines; all of them with --settings or -v; --json unchanged', async () => {
    const env = await queueWith(12);
    const emulator = new Emulator(80, 24);
    expect(await onTerminal(['queue', 'get'], env, emulator).code).toBe(0);
    await emulator.settled();
    const lines = emulator.screen().split('\n');
    expect(lines[0]).toBe('state running · branch main · 12 pull requests: 3 testing, 9 pending');
    expect(lines).toHaveLength(20);
    // Too wide by three columns: what every row shares is said once above the table.
    expect(lines).toContain('author alice · priority medium (100)');
    expect(lines.filter((line) => /^\s*\d+ {2}#2\d\d /.test(line))).toHaveLength(12);
    expect(lines.at(-3)).toMatch(/^settings {2}mode single · concurrency 3 · batch off · mergeMethod squash$/);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);

    for (const flag of ['--settings', '-v']) {
      const all = new Emulator(80, 24);
      expect(await onTerminal(['queue', 'get', flag], env, all).code).toBe(0);
      await all.settled();
      const text = all.written.replace(/\u001b\[[0-9;]*m/g, '');
      expect(text.split('\n')[0]).toBe('state running · branch main · 12 pull requests: 3 testing, 9 pending');
      expect(text).toMatch(/^createPrsForTestingBranches +on$/m);
    }

    const json = new Emulator(80, 24);
    expect(await onTerminal(['queue', 'get', '--json'], env, json).code).toBe(0);
    const piped = JSON.parse((await mq(['queue', 'get', '--json'], { env })).stdout);
    expect(JSON.parse(json.written)).toEqual(piped);
  });
});

describe('queue get --watch on a terminal (80×24)', () => {
  it('redraws on the alternate screen as the queue changes, never into the scrollback; Ctrl-C leaves the last frame', async () => {
    const env = await queueWith(12);
    const emulator = new Emulator(80, 24);
    emulator.write('$ mq queue get --watch\r\n');
    const watching = onTerminal(['queue', 'get', '--watch', '--interval', '1s'], env, emulator);
    await emulator.until(/12 pull requests: 3 testing, 9 pending/);
    expect(emulator.alternate()).toBe(true);
    // Its last line says when it was read (the service's clock), how often, and how to leave.
    expect(emulator.screen()).toMatch(/\nupdated \d\d:\d\d:\d\d · every 1s · Ctrl-C to quit$/);
    // A test run takes 300 s: three PRs merge in each step, away from the exact second they do.
    for (const [seconds, left] of [
      [350, 9],
      [300, 6],
      [300, 3],
    ] as const) {
      await advance(seconds);
      watching.step();
      await emulator.until(new RegExp(`${left} pull requests`));
      expect(emulator.scrollback()).toBe(0);
      expect(emulator.screen().split('\n').length).toBeLessThanOrEqual(23);
    }
    watching.interrupt();
    expect(await watching.code).toBe(130);
    await emulator.settled();
    expect(emulator.alternate()).toBe(false);
    expect(emulator.written).toMatch(/\u001b\[\?1049l\u001b\[\?25h/);
    const after = emulator.screen();
    expect(after.split('\n')[0]).toBe('$ mq queue get --watch');
    expect(after.match(/^state /gm)).toHaveLength(1);
    expect(after).toMatch(/3 pull requests/);
    expect(watching.stderr()).toBe('mq: interrupted\n');
  });

  it('leaves the alternate screen when an error ends it (the queue deleted under it: exit 4)', async () => {
    const env = await queueWith(0);
    const emulator = new Emulator(80, 24);
    const watching = onTerminal(['queue', 'get', '--watch', '--interval', '1s'], env, emulator);
    await emulator.until(/No pull requests in the queue/);
    expect(emulator.alternate()).toBe(true);
    expect((await mq(['queue', 'delete', '--yes'], { env })).code).toBe(0);
    watching.step();
    expect(await watching.code).toBe(4);
    await emulator.settled();
    expect(emulator.alternate()).toBe(false);
    expect(emulator.screen()).toMatch(/^state running/m);
    expect(watching.stderr()).toMatch(/not found|no queue|does not exist/i);
  });
});

describe('a dumb terminal (TERM=dumb), which cannot move its cursor: lines as a pipe gets them, no escape code', () => {
  const ESC = '\u001b';

  it('wait prints a line per change and its summary; the alternate screen and the cursor are left alone', async () => {
    const env = { ...(await queueWith(2)), TERM: 'dumb' };
    const emulator = new Emulator(80, 24);
    const waiting = onTerminal(['wait', '201', '202', '--interval', '1s'], env, emulator);
    await emulator.until(/#202/);
    await advance(350);
    waiting.finish();
    expect(await waiting.code).toBe(0);
    expect(emulator.written).not.toContain(ESC);
    const lines = emulator.written.split('\n');
    expect(lines).toContain('✓ #201 merged');
    expect(lines).toContain('✓ #202 merged');
    expect(lines.filter((line) => /^#20[12] testing/.test(line))).toHaveLength(2);
  });

  it('queue get --watch prints the queue per change, on the normal screen', async () => {
    const env = { ...(await queueWith(1)), TERM: 'dumb' };
    const emulator = new Emulator(80, 24);
    const watching = onTerminal(['queue', 'get', '--watch', '--interval', '1s'], env, emulator);
    await emulator.until(/1 pull request/);
    await advance(350);
    watching.step();
    await emulator.until(/0 pull requests/);
    watching.interrupt();
    expect(await watching.code).toBe(130);
    expect(emulator.written).not.toContain(ESC);
    expect(emulator.alternate()).toBe(false);
  });

  it('a progress line on stderr is left out, as in a pipe; a terminal that redraws gets it', async () => {
    for (const [term, drawn] of [
      ['dumb', false],
      ['xterm-256color', true],
    ] as const) {
      const env = { ...(await queueWith(0)), TERM: term };
      const stderr = new Emulator(80, 24);
      expect(await startMq(['stats'], { env, stderr: stderr.stdout() }).finish()).toMatchObject({ code: 0 });
      expect(stderr.written.includes('fetched 0 PRs…'), term).toBe(drawn);
      if (!drawn) expect(stderr.written).toBe('');
    }
  });
});

describe('wait on 30 PRs on a terminal (80×24)', () => {
  it('keeps its lines within the window, the settled ones cut first, and the scrollback still', async () => {
    const env = await queueWith(30);
    const emulator = new Emulator(80, 24);
    emulator.write(`$ mq wait $(seq 201 230)\r\n`);
    const prs = Array.from({ length: 30 }, (_, i) => String(201 + i));
    const waiting = onTerminal(['wait', ...prs, '--interval', '1s'], env, emulator);
    await emulator.until(/… and 8 more/);
    const first = emulator.scrollback();
    expect(first).toBeLessThanOrEqual(1);
    // The last line says what the PRs not shown are: the merged ones go first, then those waiting longest.
    for (const [seconds, merged, hidden] of [
      [350, 3, '5 pending, 3 merged'],
      [300, 6, '6 merged, 2 pending'],
      [300, 9, '8 merged'],
    ] as const) {
      await advance(seconds);
      waiting.step();
      await emulator.until(
        (screen) => screen.includes(`… and 8 more: ${hidden}`) && (screen.match(/position +\d+/g) ?? []).length === Math.min(22, 30 - merged),
      );
      expect(emulator.scrollback()).toBe(first);
      const lines = emulator.screen().split('\n');
      expect(lines.length).toBeLessThanOrEqual(24);
      expect(lines.at(-1)).toBe(`… and 8 more: ${hidden}`);
    }
    waiting.interrupt();
    expect(await waiting.code).toBe(130);
  });
});

describe('stderr on a terminal (80 columns): folded between words, never wrapped mid-word (helper-96, helper-101)', () => {
  /** The window's rows as a person would read them back: a row indented under the one above goes on that one. */
  const unfolded = (screen: string) => screen.replace(/ \\\n {2}| ?\n {2}(?=\S)/g, ' ');

  /** `mq sandbox`'s banner on a terminal stderr of `columns`, the sandbox stopped once it is all there. */
  async function banner(columns: number, rows: number) {
    const emulator = new Emulator(columns, rows);
    const sandbox = startMq(['sandbox', '--port', '0', '--clock', 'manual'], { stderr: emulator.stdout() });
    const screen = await emulator.until(/stop with Ctrl-C/);
    sandbox.interrupt();
    await sandbox.done;
    return { emulator, sandbox, screen };
  }

  it('mq sandbox: the export line goes on after \\, and pasted into a shell it still exports all four; the v2 line folds between words', async () => {
    const { emulator, sandbox, screen } = await banner(80, 24);
    // Stdout is a pipe here, and its first line the base URL alone, as a script reads it.
    const url = sandbox.stdout().split('\n')[0]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(emulator.wrappedRows()).toEqual([]);
    const rows = screen.split('\n');
    // 88 columns and the port's digits: always too wide for 80.
    const exported = rows.findIndex((row) => row.startsWith('export '));
    expect(rows[exported]).toMatch(/ \\$/);
    const pasted = rows.slice(exported, exported + 2).join('\n');
    const shell = execFileSync('sh', ['-c', `${pasted}\nsh -c 'echo "$MQ_API_URL $MQ_TOKEN $MQ_REPO $MQ_ORG"'`], { encoding: 'utf8' });
    expect(shell).toBe(`${url} sandbox acme/widgets acme\n`);
    expect(unfolded(screen).split('\n')).toEqual([
      `sandbox listening on ${url} (manual clock, state in memory)`,
      `export MQ_API_URL=${url} MQ_TOKEN=sandbox MQ_REPO=acme/widgets MQ_ORG=acme`,
      'try: mq queue create && mq submit 1 && mq queue get; mq flaky list --failing',
      `v2 is at ${url.replace(/\/v1$/, '/v2')} with Authorization: Bearer trunk_v2_<anything>`,
      'stop with Ctrl-C',
    ]);
  });

  it('mq sandbox at 50 columns: the try: line, commands too, goes on after \\ rather than between words (helper-112)', async () => {
    const { screen } = await banner(50, 30);
    const rows = screen.split('\n');
    const tried = rows.findIndex((row) => row.startsWith('try: '));
    expect(rows[tried]).toMatch(/ \\$/);
    expect(unfolded(screen)).toContain('try: mq queue create && mq submit 1 && mq queue get; mq flaky list --failing');
  });

  it('mq sandbox at 38 and 39 columns: a word that fits indented but not with its \\ after goes flush left, no row wrapped', async () => {
    for (const columns of [38, 39]) {
      const { emulator, sandbox, screen } = await banner(columns, 40);
      const url = sandbox.stdout().split('\n')[0]!;
      expect(emulator.wrappedRows()).toEqual([]);
      const rows = screen.split('\n');
      const exported = rows.findIndex((row) => row.startsWith('export '));
      const pasted = rows.slice(exported, rows.findIndex((row, index) => index > exported && !row.endsWith(' \\')) + 1).join('\n');
      // `  MQ_API_URL=http://127.0.0.1:PORT/v1 \` is 40 columns with a port of 5 digits (as port 0 picks on Linux).
      const indent = `  MQ_API_URL=${url} \\`.length <= columns ? '  ' : '';
      expect(pasted).toContain(`\n${indent}MQ_API_URL=${url} \\\n`);
      const shell = execFileSync('sh', ['-c', `${pasted}\nsh -c 'echo "$MQ_API_URL $MQ_TOKEN $MQ_REPO $MQ_ORG"'`], { encoding: 'utf8' });
      expect(shell).toBe(`${url} sandbox acme/widgets acme\n`);
    }
  });

  it('an error folds between words under its first line, one message; a pipe gets it on one line', async () => {
    const env = await queueWith(0);
    const piped = await mq(['status', '999'], { env });
    expect(piped.stderr).toMatch(/^mq: pull request #999 was never submitted to the queue for github\.com\/acme\/screens-\d+ branch main \(404\)\n$/);
    const emulator = new Emulator(80, 24);
    expect((await startMq(['status', '999'], { env, stderr: emulator.stdout() }).finish()).code).toBe(piped.code);
    await emulator.settled();
    expect(emulator.wrappedRows()).toEqual([]);
    expect(emulator.screen().split('\n')).toEqual([
      'mq: pull request #999 was never submitted to the queue for',
      expect.stringMatching(/^ {2}github\.com\/acme\/screens-\d+ branch main \(404\)$/),
    ]);
    expect(unfolded(emulator.screen())).toBe(piped.stderr.trimEnd());
  });
});

describe('every command on a terminal 60, 80 and 200 columns wide, against PRs with long authors, CJK titles, long checks', () => {
  /** The lines mq wrote, its escape codes (colours, cursor moves, erases) left out: what takes room on a row. */
  const linesOf = (written: string) =>
    written
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
      .split(/\r?\n/)
      .flatMap((line) => line.split('\r'));

  // One sandbox seeded once, the list cut into a few tests that run in order (some commands change the queue).
  const shared = useSandbox({ shared: true });
  let wide: WideSandbox;
  beforeAll(async () => {
    wide = await seedWide(shared, 'screens-wide');
  });
  for (const chunk of wideChunks(7)) {
    it(`no line is wider than the window but for a URL or id left whole; none is cut; a pipe gets every value whole: ${chunk.title}`, async () => {
      const over: string[] = [];
      const cut: string[] = [];
      for (const command of chunk.of(wideCommands(wide.runId))) {
        const env = wide[command.api];
        // The pipe first: a change (queue update) prints its settings only the first time it changes something.
        const piped = await mq(command.args, { env });
        for (const value of command.whole ?? []) if (!piped.stdout.includes(value)) cut.push(`mq ${command.args.join(' ')}: ${value}`);
        for (const columns of [60, 80, 200]) {
          const emulator = new Emulator(columns, 24);
          await startMq(command.args, { env, stdout: emulator.stdout() }).finish();
          for (const line of linesOf(emulator.written)) {
            if (overflows(line, columns)) over.push(`${columns}: mq ${command.args.join(' ')}: ${line}`);
            for (const value of cutValues(line)) cut.push(`${columns}: mq ${command.args.join(' ')}: ${value}`);
          }
        }
      }
      expect(over).toEqual([]);
      expect(cut).toEqual([]);
    });
  }
});

describe('text for another program on a terminal', () => {
  it('is printed as a pipe gets it, never folded: queue graph --format dot|mermaid, metrics --raw', { timeout: 120_000 }, async () => {
    const wide = await seedWide(fixture, 'screens-tools');
    for (const args of [
      ['queue', 'graph', '--format', 'dot'],
      ['queue', 'graph', '--format', 'mermaid'],
      ['metrics', '--raw'],
    ]) {
      const emulator = new Emulator(40, 24);
      expect(await startMq(args, { env: wide.v2, stdout: emulator.stdout() }).finish()).toMatchObject({ code: 0 });
      const piped = await mq(args, { env: wide.v2 });
      expect(piped.stdout.split('\n').some((line) => line.length > 40)).toBe(true);
      expect(emulator.written.replace(/\r\n/g, '\n')).toBe(piped.stdout);
    }
  });
});
