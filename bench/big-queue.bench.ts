// `mq queue get` of a 10,000-PR queue, as a table and as --json, against a bare Node script that fetches getQueue
// and writes JSON.stringify of the answer: whole processes in interleaved pairs (baseline, mq, baseline, mq, …),
// medians; and the peak RSS of each, which a probe loaded with --import writes down as the process exits. The
// sandbox runs in this process on a manual clock, so every answer is the same 10,000 PRs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSandbox } from '../src/sandbox/io/server.js';
import { MAIN, REPO, writeQueueState } from './queue-state.js';
import { interleaved, median, report } from './report.js';

const MQ = join(process.env.MQ_BENCH_ROOT ?? process.cwd(), 'bin/mq.js');
const PAIRS = Number(process.env.MQ_BENCH_PAIRS ?? 10);
const SIZE = 10_000;

const BASELINE = `
const response = await fetch(\`\${process.env.MQ_API_URL}/getQueue\`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-token': process.env.MQ_TOKEN },
  body: ${JSON.stringify(JSON.stringify(MAIN))},
});
if (!response.ok) throw new Error(\`HTTP \${response.status}\`);
process.stdout.write(\`\${JSON.stringify(await response.json(), null, 2)}\\n\`);
`;

const PROBE = `
import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.MQ_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));
`;

const dir = mkdtempSync(join(tmpdir(), 'mq-bench-big-queue-'));
const files = { state: join(dir, 'state.json'), baseline: join(dir, 'baseline.mjs'), probe: join(dir, 'probe.mjs'), rss: join(dir, 'rss') };

/** One whole process, its stdout drained as a reader of a pipe would: wall time and peak RSS. */
async function measure(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; rssMB: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', pathToFileURL(files.probe).href, ...args], {
    env: { ...env, MQ_BENCH_RSS_FILE: files.rss },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${stderr}`);
  return { ms, rssMB: Number(readFileSync(files.rss, 'utf8')) / 1024 };
}

/** Interleaved pairs of the baseline script and one mq command: median times, and median peak RSS of each. */
async function pairs(args: string[], env: NodeJS.ProcessEnv) {
  const rss = { baseline: [] as number[], mine: [] as number[] };
  const timed = (which: keyof typeof rss, argv: string[]) => async () => {
    const run = await measure(argv, env);
    rss[which].push(run.rssMB);
    return run.ms;
  };
  const ms = await interleaved(PAIRS, timed('baseline', [files.baseline]), timed('mine', [MQ, ...args]));
  return { ms, rss: { baseline: median(rss.baseline), mine: median(rss.mine) } };
}

writeQueueState(SIZE, files.state);
writeFileSync(files.baseline, BASELINE);
writeFileSync(files.probe, PROBE);
const sandbox = await startSandbox({ clock: 'manual', stateFile: files.state });
const home = join(dir, 'home');
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  MQ_API_URL: sandbox.url,
  MQ_TOKEN: 'bench',
  MQ_REPO: `${REPO.owner}/${REPO.name}`,
};
try {
  console.log(`mq queue get, ${SIZE.toLocaleString('en')} PRs, ${PAIRS} interleaved pairs, medians; stdout a pipe, drained`);
  console.log('baseline: node on a script that fetches getQueue and writes JSON.stringify(answer, null, 2)\n');
  const how = `${PAIRS} interleaved pairs, medians of whole processes`;

  const json = await pairs(['queue', 'get', '--json'], env);
  report({
    figure: 'mq queue get --json, 10,000 PRs / fetch + JSON.stringify',
    mine: json.ms.mine,
    baseline: json.ms.baseline,
    unit: 'ms',
    goal: { atMost: 1.3 },
    how,
  });

  // The table as a terminal shows it: coloured (FORCE_COLOR, as a TTY would have it); no column depends on the
  // terminal's width.
  const table = await pairs(['queue', 'get'], { ...env, FORCE_COLOR: '1' });
  report({
    figure: 'mq queue get (table), 10,000 PRs / the same baseline',
    mine: table.ms.mine,
    baseline: table.ms.baseline,
    unit: 'ms',
    goal: { atMost: 2.0 },
    how: `${how}; coloured`,
  });
  report({
    figure: 'peak RSS of that table',
    mine: table.rss.mine,
    unit: 'MB',
    goal: { atMost: 150 },
    how: `median maxRSS; the bare script's ${table.rss.baseline.toFixed(0)} MB`,
  });
  console.log(`peak RSS of mq queue get --json: ${json.rss.mine.toFixed(0)} MB (the bare script's: ${json.rss.baseline.toFixed(0)} MB)`);
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
