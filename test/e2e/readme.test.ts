// The README's commands work as written, and the documentation links to nothing the repository lacks (issue 21).
// Every fenced `sh` block of README.md runs, in order, with bash -e against one sandbox (in-process, on a manual
// clock, behind the recorder that checks each request body), with the built mq on PATH and the environment
// the README's `export` line gives. A comment on the line before a block changes that:
//   <!-- readme-test: not run (why) -->   never run: it installs, runs the tests themselves, or needs the network
//   <!-- readme-test: exit N -->           expected to exit N (0 otherwise)
//   <!-- readme-test: advance N -->        the sandbox's clock moves N seconds first, as time would pass
// Blocks of any other language (`console`, `text`) are shown, not run; so are the blocks of docs/. The one
// `console` block that shows `mq sandbox` starting is checked against what it prints.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { control, isolatedDir, MQ_BIN, shimDir } from '../support/cli.js';
import { useSandbox } from '../support/in-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const documents = [
  README,
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(DOCS, name)),
];

interface Block {
  /** The line of the opening fence, 1-based. */
  line: number;
  lang: string;
  code: string;
  /** The `readme-test:` comment right before it, if any. */
  marker?: string;
}

/** The fenced blocks of a Markdown text, and its prose (the lines outside them). */
function parse(text: string): { blocks: Block[]; prose: { line: number; text: string }[] } {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  const prose: { line: number; text: string }[] = [];
  let open: { line: number; lang: string; fence: string; body: string[] } | undefined;
  lines.forEach((line, index) => {
    if (open) {
      if (line.trim() === open.fence) {
        let before = open.line - 2;
        while (before >= 0 && lines[before]!.trim() === '') before--;
        const marker = /^<!--\s*readme-test:\s*(.*?)\s*-->$/.exec(lines[before]?.trim() ?? '')?.[1];
        blocks.push({ line: open.line, lang: open.lang, code: open.body.join('\n'), ...(marker !== undefined && { marker }) });
        open = undefined;
      } else open.body.push(line);
      return;
    }
    const fence = /^\s*(`{3,})(\S*)/.exec(line);
    if (fence) open = { line: index + 1, lang: fence[2]!, fence: fence[1]!, body: [] };
    else prose.push({ line: index + 1, text: line });
  });
  return { blocks, prose };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  return new Set(
    parse(readFileSync(file, 'utf8'))
      .prose.map(({ text }) => /^#{1,6}\s+(.*)$/.exec(text)?.[1])
      .filter((heading): heading is string => heading !== undefined)
      .map(slug),
  );
}

/** What is wrong with a relative link of `file`, or undefined. */
function linkProblem(file: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#');
  const destination = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
  const inside = relative(ROOT, destination);
  if (inside.startsWith('..')) return 'points outside the repository';
  if (/^(node_modules|dist|coverage)(\/|$)/.test(inside)) return 'points into a directory the repository does not hold';
  if (!existsSync(destination)) return 'points to a file the repository does not have';
  if (anchor && statSync(destination).isFile() && destination.endsWith('.md') && !anchorsOf(destination).has(anchor))
    return `names a heading #${anchor} that ${inside} does not have`;
  return undefined;
}

describe('the README and docs/ link only to what the repository has', () => {
  it.each(documents.map((file) => [relative(ROOT, file), file]))('%s', (_name, file) => {
    const { prose } = parse(readFileSync(file, 'utf8'));
    const problems: string[] = [];
    let relativeLinks = 0;
    for (const { line, text } of prose) {
      const outsideCode = text.replace(/`[^`]*`/g, '');
      for (const [, target] of outsideCode.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
        relativeLinks++;
        const problem = linkProblem(file, target!);
        if (problem) problems.push(`line ${line}: (${target}) ${problem}`);
      }
      // A repository path named in code (`scripts/demo.mjs`) must exist too; `bench/NAME.bench.ts` is a pattern.
      for (const [, path] of text.matchAll(/`((?:src|test|scripts|examples|bench|bin|docs)\/[\w./-]*\w)`/g))
        if (!/\b(NAME|FILE|PATH)\b/.test(path!) && !existsSync(join(ROOT, path!))) problems.push(`line ${line}: \`${path}\` is not in the repository`);
      // The contract and service descriptions live beside the project, not in it: name them in words.
      for (const [name] of text.matchAll(/\b(?:CLI|SEMANTICS|SERVICE|NOTES)\.md\b|\.\.\/shared/g))
        problems.push(`line ${line}: names ${name}, which a clone does not have`);
    }
    expect(problems).toEqual([]);
    if (file === README) expect(relativeLinks).toBeGreaterThan(5);
  });

  // A comment cites a section of docs/ (or of the README) by path and anchor, and never a document a clone lacks.
  it('comments in src/ cite only what the repository has', () => {
    const problems: string[] = [];
    for (const name of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'))) {
      const path = join('src', name);
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .forEach((text, index) => {
          for (const [target] of text.matchAll(/\b(?:docs\/[\w-]+\.md|README\.md)(?:#[\w-]+)?/g)) {
            const problem = linkProblem(README, target);
            if (problem) problems.push(`${path}:${index + 1}: (${target}) ${problem}`);
          }
          const outside = /\b(?:CLI|SEMANTICS|SERVICE|NOTES)\.md\b|\bNOTES §/.exec(text);
          if (outside) problems.push(`${path}:${index + 1}: cites ${outside[0]}, which a clone does not have`);
        });
    }
    expect(problems).toEqual([]);
  });

  it('checks what it is meant to: a missing file, a missing heading and a path outside are each found', () => {
    expect(linkProblem(README, 'docs/no-such-file.md')).toMatch(/does not have/);
    expect(linkProblem(README, 'docs/sandbox.md#no-such-heading')).toMatch(/heading/);
    expect(linkProblem(README, '../shared/CLI.md')).toMatch(/outside/);
    expect(linkProblem(README, 'docs/sandbox.md#the-v2-api')).toBeUndefined();
  });
});

/** The variables of the README's `export MQ_API_URL=…` line: what a reader pastes before the next steps. */
function exportedByReadme(text: string): Record<string, string> {
  const line = text.split('\n').find((row) => row.startsWith('export MQ_API_URL='));
  if (!line) throw new Error('the README shows no `export MQ_API_URL=…` line to paste');
  return Object.fromEntries(
    line
      .slice('export '.length)
      .split(/\s+/)
      .map((pair) => pair.split('=', 2) as [string, string]),
  );
}

interface Ran {
  code: number | null;
  output: string;
}

/**
 * One block under bash -e (and pipefail), bounded: past `limitMs` it is killed with all it started (its own
 * process group: a sandbox it left running too) and reported so.
 */
function runBlock(code: string, env: Record<string, string>, cwd: string, limitMs: number): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', code], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const limit = setTimeout(() => {
      output += `\n(killed: still running after ${limitMs / 1000}s)`;
      process.kill(-child.pid!, 'SIGKILL');
    }, limitMs);
    child.on('close', (exit) => {
      clearTimeout(limit);
      done({ code: exit, output });
    });
  });
}

describe("the README's sh blocks", () => {
  // One sandbox for all the blocks: each is a test of its own, run in order on what the blocks before it left.
  const fixture = useSandbox({ shared: true });
  const text = readFileSync(README, 'utf8');
  const shell = parse(text).blocks.filter((block) => block.lang === 'sh');
  const run = shell.filter((block) => !block.marker?.startsWith('not run'));

  it('each runs or says why not, and none that runs would install or run the tests', () => {
    for (const block of shell) {
      if (block.marker?.startsWith('not run')) expect(block.marker, `line ${block.line}`).toMatch(/^not run \(.+\)$/);
      else {
        expect(block.marker ?? 'exit 0', `line ${block.line}`).toMatch(/^(exit \d+|advance \d+)$/);
        expect(block.code, `line ${block.line}`).not.toMatch(/\bnpm (ci|test|install|run)\b|\bnpx\b/);
      }
    }
    expect(run.length).toBeGreaterThanOrEqual(5);
  });

  describe('work as written, in order, against a sandbox', () => {
    const home = mkdtempSync(join(tmpdir(), 'mq-readme-'));
    const shims = shimDir();
    const env = (): Record<string, string> => ({
      PATH: `${shims}:${process.env.PATH ?? ''}`,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      ...exportedByReadme(text),
      MQ_API_URL: fixture.recorder.url,
    });

    it.each(['curl', 'jq'])('%s is on PATH', async (tool) => expect((await runBlock(`command -v ${tool}`, env(), home, 10_000)).code).toBe(0));

    // A test run alone (-t) first runs the blocks before its own, on whose state it stands.
    let next = 0;
    it.each(run.map((block, index) => [block.line, index] as const))('the block at line %i', async (_line, index) => {
      while (next <= index) {
        const block = run[next++]!;
        const advance = /^advance (\d+)$/.exec(block.marker ?? '');
        if (advance) await control(fixture.sandboxUrl, 'advance', { seconds: Number(advance[1]) });
        const expected = Number(/^exit (\d+)$/.exec(block.marker ?? '')?.[1] ?? 0);
        const ran = await runBlock(block.code, env(), home, 60_000);
        expect({ line: block.line, code: ran.code, output: ran.output }).toEqual({ line: block.line, code: expected, output: ran.output });
      }
    });
  });
});

/** What `mq <args>` has printed to stdout and stderr once stderr holds `last` (not what it says as it stops, next). */
function printedUntil(args: string[], last: string): Promise<string[]> {
  return new Promise((done, fail) => {
    const home = isolatedDir();
    const child = spawn(process.execPath, [MQ_BIN, ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      const before = stderr.includes(last);
      stderr += chunk;
      if (!before && stderr.includes(last)) child.kill('SIGTERM');
    });
    // A bound, not a timing: a sandbox that never prints `last` is stopped rather than left running.
    const limit = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', fail);
    child.on('close', () => clearTimeout(limit));
    child.on('close', () => {
      const at = stderr.indexOf(last);
      if (at < 0) fail(new Error(`mq ${args.join(' ')} ended before printing ${last}:\n${stderr}`));
      else done([...stdout.split('\n'), ...stderr.slice(0, at + last.length).split('\n')]);
    });
  });
}

describe('the sandbox as the README and docs/sandbox.md show it starting', () => {
  const shown = [README, join(DOCS, 'sandbox.md')].flatMap((file) =>
    parse(readFileSync(file, 'utf8'))
      .blocks.filter((block) => block.lang === 'console' && block.code.startsWith('$ npx mq sandbox --speed 60\n'))
      .map((block) => [relative(ROOT, file), block.code.split('\n').slice(1)] as const),
  );

  it('is shown in both', () => expect(shown.map(([file]) => file)).toEqual(['README.md', 'docs/sandbox.md']));

  it.each(shown)('%s: shows the lines it prints, all of them, but for its port', async (_file, lines) => {
    const printed = await printedUntil(['sandbox', '--port', '0', '--speed', '60'], 'stop with Ctrl-C');
    const port = /127\.0\.0\.1:(\d+)/.exec(printed[0] ?? '')?.[1];
    expect(port).toBeDefined();
    const asShown = printed.map((line) => line.replaceAll(`127.0.0.1:${port}`, '127.0.0.1:40213'));
    expect(lines.filter(Boolean)).toEqual(asShown.filter(Boolean));
  });
});
