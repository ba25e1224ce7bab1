// mq config init and mq config path, end to end: mq (in-process; the built one on a terminal) in a throw-away
// checkout (a .git directory with an origin remote, no git needed) and a private home.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MQ_BIN, TOKEN, type Run } from '../support/cli.js';
import { mq } from '../support/in-process.js';

interface Checkout {
  root: string;
  /** A directory below the root, where mq runs. */
  sub: string;
  home: string;
  env: Record<string, string>;
  userDir: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function checkout(origin: string | undefined = 'git@github.com:acme/widgets.git'): Checkout {
  const base = mkdtempSync(join(tmpdir(), 'mq-init-'));
  const root = join(base, 'repo');
  const sub = join(root, 'src', 'app');
  const home = join(base, 'home');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(sub, { recursive: true });
  mkdirSync(home);
  if (origin) writeFileSync(join(root, '.git', 'config'), `[remote "origin"]\n\turl = ${origin}\n`);
  return { root, sub, home, env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, userDir: join(home, '.config', 'mq') };
}

/** The JSON Schema of config files in the mq under test (this checkout's build), as a user file names it. */
const SCHEMA_FILE = join(import.meta.dirname, '../../dist/mqrc.schema.json');
const SCHEMA_URL = pathToFileURL(SCHEMA_FILE).href;

const json = (run: Run) => JSON.parse(run.stdout) as Record<string, any>;
const read = (path: string) => readFileSync(path, 'utf8');

const HEADER = [
  '# mq settings for this repository, written by `mq config init`. Every key: `mq help config`.',
  '# No token here, nor how to get one: a pull request can change this file. Set MQ_TOKEN, or see mq config init --user.',
];

describe('mq config init', () => {
  it('writes .mqrc.yaml at the git root from what it infers, asking nothing without a terminal', async () => {
    const c = checkout();
    const run = await mq(['config', 'init'], { cwd: c.sub, env: c.env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const file = join(c.root, '.mqrc.yaml');
    expect(run.stdout).toContain(`Wrote ${file}`);
    expect(run.stdout).toContain('No token in it: set MQ_TOKEN');
    expect(read(file)).toBe([...HEADER, 'repo: acme/widgets', 'targetBranch: main', ''].join('\n'));
    const shown = json(await mq(['config', 'show', '--json'], { cwd: c.sub, env: c.env }));
    expect(shown.settings.repo).toEqual({ value: 'github.com/acme/widgets', origin: `file ${file}` });
  });

  it('without a remote origin and without --repo, says the file names no repository (it said nothing, helper-95)', async () => {
    const c = checkout('');
    const run = await mq(['config', 'init'], { cwd: c.sub, env: c.env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'warning: no repository in it: there is no git remote origin here to infer one from; pass --repo owner/name (with --force to replace the file)\n',
    );
    expect(read(join(c.root, '.mqrc.yaml'))).toBe([...HEADER, 'targetBranch: main', ''].join('\n'));
    const given = await mq(['config', 'init', '--repo', 'acme/widgets', '--force'], { cwd: c.sub, env: c.env });
    expect(given).toMatchObject({ code: 0, stderr: '' });
    expect(read(join(c.root, '.mqrc.yaml'))).toContain('repo: acme/widgets\n');
    // The user file names none, and says nothing of it.
    expect(await mq(['config', 'init', '--user'], { cwd: c.sub, env: c.env })).toMatchObject({ code: 0, stderr: '' });
  });

  it('writes the flags it is given; --json prints the result as JSON without writing output: json', async () => {
    const c = checkout();
    const args = [
      'config',
      'init',
      '-R',
      'ghe.example.com/acme/tools',
      '-b',
      'release',
      '--api-url',
      'https://mq.example.com/v1/',
      '--org',
      'acme',
      '-o',
      'json',
    ];
    const run = await mq(args, { cwd: c.sub, env: c.env });
    expect(run.code).toBe(0);
    const values = { repo: 'ghe.example.com/acme/tools', targetBranch: 'release', apiUrl: 'https://mq.example.com', org: 'acme', output: 'json' };
    expect(json(run)).toEqual({ path: join(c.root, '.mqrc.yaml'), scope: 'project', replaced: false, values, token: null, schema: null });
    // That apiUrl gets the token only once the user config trusts it: said now rather than at the first request.
    expect(run.stderr).toBe(
      `warning: mq sends the token to https://mq.example.com from a project file only once trustedApiUrls in ${join(c.userDir, 'config.yaml')} lists it\n`,
    );
    const shown = json(await mq(['config', 'show', '--json'], { cwd: c.root, env: c.env }));
    expect(shown.settings.apiUrl.value).toBe('https://mq.example.com');

    const other = checkout();
    const quiet = await mq(['config', 'init', '--json', '--api-url', 'https://api.trunk.io/v1'], { cwd: other.root, env: other.env });
    // --json is how the result prints; a value at mq's default is left out of the file.
    expect(json(quiet).values).toEqual({ repo: 'acme/widgets', targetBranch: 'main' });
  });

  it('refuses to replace a config file without --force (exit 2), and with --force keeps its format', async () => {
    const c = checkout();
    const existing = join(c.root, '.mqrc.json');
    writeFileSync(existing, '{ "targetBranch": "old" }\n');
    const refused = await mq(['config', 'init'], { cwd: c.sub, env: c.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${existing} already exists`);
    expect(refused.stderr).toContain('--force');
    expect(read(existing)).toBe('{ "targetBranch": "old" }\n');
    expect(existsSync(join(c.root, '.mqrc.yaml'))).toBe(false);

    const replaced = await mq(['config', 'init', '--force', '--branch', 'dev', '--json'], { cwd: c.sub, env: c.env });
    expect(replaced.code).toBe(0);
    expect(json(replaced)).toMatchObject({ path: existing, replaced: true });
    expect(JSON.parse(read(existing))).toEqual({ repo: 'acme/widgets', targetBranch: 'dev' });
  });

  it('never writes a token, and takes the token from one place only', async () => {
    const c = checkout();
    const run = await mq(['config', 'init', '--user', '--token-file', '~/.config/mq/token'], { cwd: c.root, env: { ...c.env, MQ_TOKEN: TOKEN } });
    expect(run.code).toBe(0);
    const text = read(join(c.userDir, 'config.yaml'));
    expect(text).not.toContain(TOKEN);
    expect(text).not.toMatch(/^token:/m);
    expect(text).toContain('tokenFile: "~/.config/mq/token"');
    expect(run.stdout).toContain('The token comes from tokenFile.');

    const fresh = checkout();
    for (const args of [
      ['--token-command', 'x', '--token-file', 'y'],
      ['--token-command', ' '],
      ['--token', TOKEN],
      ['--token-command', 'x'],
      ['--token-file', 'y'],
    ]) {
      const refused = await mq(['config', 'init', ...args], { cwd: fresh.root, env: fresh.env });
      expect({ args, code: refused.code }).toEqual({ args, code: 2 });
    }
    expect(existsSync(join(fresh.root, '.mqrc.yaml'))).toBe(false);
    const project = await mq(['config', 'init', '--token-command', 'pass show mq'], { cwd: fresh.root, env: fresh.env });
    expect(project.stderr).toBe(
      'mq: --token-command goes in the user config (add --user): a project file, which a pull request can change, ' + 'may not say how the token is obtained\n',
    );
  });

  it('checks flag values before writing anything', async () => {
    const c = checkout();
    const run = await mq(['config', 'init', '--repo', 'not a repo'], { cwd: c.root, env: c.env });
    expect(run.code).toBe(2);
    expect(existsSync(join(c.root, '.mqrc.yaml'))).toBe(false);
  });

  it('writes in the working directory outside a checkout, without a repository it cannot infer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mq-init-plain-'));
    const run = await mq(['config', 'init'], { cwd: dir, env: { HOME: dir } });
    expect(run.code).toBe(0);
    expect(read(join(dir, '.mqrc.yaml'))).toBe([...HEADER, 'targetBranch: main', ''].join('\n'));
  });

  it('--user writes the user file, readable by its owner only, with no repository or branch unless given', async () => {
    const c = checkout();
    const run = await mq(['config', 'init', '--user', '--api-url', 'https://mq.example.com/v1', '--json'], { cwd: c.sub, env: c.env });
    expect(run.code).toBe(0);
    const file = join(c.userDir, 'config.yaml');
    expect(json(run)).toEqual({ path: file, scope: 'user', replaced: false, values: { apiUrl: 'https://mq.example.com' }, token: null, schema: SCHEMA_URL });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(read(file)).toContain('apiUrl: "https://mq.example.com"');
    expect((await mq(['config', 'init', '--user'], { cwd: c.sub, env: c.env })).code).toBe(2);
    expect(existsSync(join(c.root, '.mqrc.yaml'))).toBe(false);
    // A user file made by hand, readable by all (umask 022), replaced: its owner's alone too.
    chmodSync(file, 0o644);
    expect((await mq(['config', 'init', '--user', '--force', '--repo', 'acme/x'], { cwd: c.sub, env: c.env })).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('leaves settings in package.json alone, even with --force', async () => {
    const c = checkout();
    writeFileSync(join(c.root, 'package.json'), JSON.stringify({ name: 'w', mq: { targetBranch: 'main' } }));
    expect((await mq(['config', 'init'], { cwd: c.root, env: c.env })).code).toBe(2);
    const forced = await mq(['config', 'init', '--force'], { cwd: c.root, env: c.env });
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain('"mq" key');
    // A package.json without an "mq" key is no config file.
    const other = checkout();
    writeFileSync(join(other.root, 'package.json'), '{"name": "w"}');
    expect((await mq(['config', 'init'], { cwd: other.root, env: other.env })).code).toBe(0);
  });

  it('warns when a config file nearer the working directory will still be read instead', async () => {
    const c = checkout();
    writeFileSync(join(c.sub, '.mqrc'), 'targetBranch: nearer\n');
    const run = await mq(['config', 'init'], { cwd: c.sub, env: c.env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`warning: ${join(c.sub, '.mqrc')} is nearer to the working directory`);
  });
});

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

/** mq under a pseudo-terminal (util-linux `script`), answering each question when it is asked. */
function onTerminal(args: string[], cwd: string, env: Record<string, string>, answers: [RegExp, string][]): Promise<Run> {
  const command = [process.execPath, MQ_BIN, ...args].map((word) => `'${word}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: { PATH: process.env.PATH ?? '', TERM: 'dumb', ...env } });
  let stdout = '';
  let unanswered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    unanswered += chunk;
    const next = answers[0];
    if (next?.[0].test(unanswered)) {
      answers.shift();
      unanswered = '';
      child.stdin.write(next[1]);
    }
  });
  const timer = setTimeout(() => child.kill(), 20_000);
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr: '' });
    }),
  );
}

describe.skipIf(!hasScript)('mq config init on a terminal', () => {
  it('asks for what no flag gives, suggesting what it infers, until an answer is valid', async () => {
    const c = checkout();
    const run = await onTerminal(['config', 'init', '--org', 'acme'], c.sub, c.env, [
      [/repository \(owner\/name\) \[acme\/widgets\]: $/, 'not a repo\r'],
      [/repository \(owner\/name\) \[acme\/widgets\]: $/, '\r'],
      [/target branch \[main\]: $/, 'release\r'],
      [/API URL \[https:\/\/api\.trunk\.io\]: $/, '\r'],
      [/output \(table or json\) \[table\]: $/, 'json\r'],
    ]);
    expect(run.stdout).toContain('repository (owner/name) must be "owner/name"');
    expect(run.code).toBe(0);
    expect(read(join(c.root, '.mqrc.yaml'))).toBe([...HEADER, 'repo: acme/widgets', 'targetBranch: release', 'org: acme', 'output: json', ''].join('\n'));
    expect(run.stdout).not.toMatch(/token\b.*\]: $/m);
  });

  it('ends with exit 130 and writes nothing on Ctrl-C', async () => {
    const c = checkout();
    const run = await onTerminal(['config', 'init'], c.root, c.env, [[/repository .*: $/, '\x03']]);
    expect(run.code).toBe(130);
    expect(existsSync(join(c.root, '.mqrc.yaml'))).toBe(false);
  });
});

describe('mq config init and editors', () => {
  /** A checkout with mq as a local dependency: node_modules/mq holds the package's schema. */
  function withLocalMq(): Checkout {
    const c = checkout();
    mkdirSync(join(c.root, 'node_modules', 'mq', 'dist'), { recursive: true });
    writeFileSync(join(c.root, 'node_modules', 'mq', 'dist', 'mqrc.schema.json'), read(SCHEMA_FILE));
    return c;
  }

  it('points a YAML project file at the local mq schema on its first line, for the YAML language server', async () => {
    const c = withLocalMq();
    const run = await mq(['config', 'init'], { cwd: c.sub, env: c.env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const text = read(join(c.root, '.mqrc.yaml'));
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./node_modules/mq/dist/mqrc.schema.json');
    expect(text).toBe(
      ['# yaml-language-server: $schema=./node_modules/mq/dist/mqrc.schema.json', ...HEADER, 'repo: acme/widgets', 'targetBranch: main', ''].join('\n'),
    );
    expect(run.stdout).toContain('Editors check it against ./node_modules/mq/dist/mqrc.schema.json.');
  });

  it('writes "$schema" first in a JSON file, which mq then reads as any other', async () => {
    const c = withLocalMq();
    const file = join(c.root, '.mqrc.json');
    writeFileSync(file, '{}\n');
    const run = await mq(['config', 'init', '--force', '-b', 'dev', '--json'], { cwd: c.sub, env: c.env });
    expect(json(run)).toMatchObject({ path: file, schema: './node_modules/mq/dist/mqrc.schema.json' });
    expect(read(file)).toBe('{\n  "$schema": "./node_modules/mq/dist/mqrc.schema.json",\n  "repo": "acme/widgets",\n  "targetBranch": "dev"\n}\n');
    const shown = await mq(['config', 'show', '--json'], { cwd: c.sub, env: c.env });
    expect(shown.code).toBe(0);
    expect(json(shown).settings.targetBranch.value).toBe('dev');
  });

  it('names no schema in a project file without a local mq: a path on this machine would break in other clones', async () => {
    const c = checkout();
    const run = await mq(['config', 'init', '--json'], { cwd: c.sub, env: c.env });
    expect(json(run).schema).toBeNull();
    expect(read(join(c.root, '.mqrc.yaml'))).not.toContain('schema');
    const text = await mq(['config', 'init', '--force'], { cwd: c.sub, env: c.env });
    expect(text.stdout).toContain("No $schema for editors in it: mq is not in this project's node_modules");
  });

  it("points the user file at the running mq's own schema", async () => {
    const c = checkout();
    const run = await mq(['config', 'init', '--user'], { cwd: c.sub, env: c.env });
    expect(run.code).toBe(0);
    expect(read(join(c.userDir, 'config.yaml')).split('\n')[0]).toBe(`# yaml-language-server: $schema=${SCHEMA_URL}`);
  });
});

describe('config files mq will not read as written', () => {
  it('warns once on stderr of an executable config file, keeping --json output clean; config path lists it', async () => {
    const c = checkout();
    const js = join(c.root, '.mqrc.js');
    writeFileSync(js, 'module.exports = { targetBranch: "dev" };\n');
    const run = await mq(['config', 'show', '--json'], { cwd: c.sub, env: c.env });
    expect(run.code).toBe(0);
    expect(json(run).settings.targetBranch).toEqual({ value: 'main', origin: 'default' });
    expect(run.stderr).toBe(
      `warning: ${js} is ignored: mq does not load executable config files, which would run a pull request's code in CI; use .mqrc.json or .mqrc.yaml\n`,
    );
    const paths = await mq(['config', 'path'], { cwd: c.sub, env: c.env });
    expect(paths.stdout).toMatch(new RegExp(`ignored +${js.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +not loaded`));
    expect(json(await mq(['config', 'path', '--json'], { cwd: c.sub, env: c.env })).ignored).toEqual([js]);
    expect((await mq(['config', 'show', '--quiet'], { cwd: c.sub, env: c.env })).stderr).toBe('');
  });

  it('refuses an unknown key with the key that was meant (exit 3), in one line', async () => {
    const c = checkout();
    const file = join(c.root, '.mqrc.json');
    writeFileSync(file, '{ "$schema": "./node_modules/mq/dist/mqrc.schema.json", "branch": "main" }\n');
    const run = await mq(['status', '42'], { cwd: c.sub, env: { ...c.env, MQ_TOKEN: TOKEN } });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`mq: ${file}: unknown key "branch"; did you mean "targetBranch"?\n`);
  });
});

describe('mq config path', () => {
  it('says where files would be written when there are none', async () => {
    const c = checkout();
    const run = await mq(['config', 'path', '--json'], { cwd: c.sub, env: c.env });
    expect(run.code).toBe(0);
    expect(json(run)).toEqual({
      project: { path: join(c.root, '.mqrc.yaml'), exists: false, namedBy: null },
      user: { path: join(c.userDir, 'config.yaml'), exists: false },
      ignored: [],
    });
    const text = await mq(['config', 'path'], { cwd: c.sub, env: c.env });
    expect(text.stdout).toContain('none yet: `mq config init` writes it here');
    expect(text.stdout).toContain('none yet: `mq config init --user` writes it here');
  });

  it('shows the files in effect, and what named the project file', async () => {
    const c = checkout();
    writeFileSync(join(c.root, '.mqrc.yml'), 'targetBranch: main\n');
    mkdirSync(c.userDir, { recursive: true });
    writeFileSync(join(c.userDir, 'config.json'), '{}');
    const found = json(await mq(['config', 'path', '--json'], { cwd: c.sub, env: c.env }));
    expect(found).toEqual({
      project: { path: join(c.root, '.mqrc.yml'), exists: true, namedBy: 'search' },
      user: { path: join(c.userDir, 'config.json'), exists: true },
      ignored: [],
    });
    const other = join(c.home, 'ci.yaml');
    writeFileSync(other, 'output: json\n');
    const byFlag = json(await mq(['config', 'path', '--config', other, '--json'], { cwd: c.sub, env: c.env }));
    expect(byFlag.project).toEqual({ path: other, exists: true, namedBy: '--config' });
    const byEnv = json(await mq(['config', 'path', '--json'], { cwd: c.sub, env: { ...c.env, MQ_CONFIG: other } }));
    expect(byEnv.project).toEqual({ path: other, exists: true, namedBy: 'MQ_CONFIG' });
  });

  it('exits 0 with a loop of links as the project file, and a user folder that is a file (was an internal error; helper-95)', async () => {
    const c = checkout();
    symlinkSync(join(c.root, 'a'), join(c.root, '.mqrc.yaml'));
    symlinkSync(join(c.root, '.mqrc.yaml'), join(c.root, 'a'));
    writeFileSync(join(c.home, 'file'), '');
    const run = await mq(['config', 'path', '--json'], { cwd: c.sub, env: { ...c.env, XDG_CONFIG_HOME: join(c.home, 'file') } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(json(run).user).toEqual({ path: join(c.home, 'file', 'mq', 'config.yaml'), exists: false });
    const show = await mq(['config', 'show'], { cwd: c.sub, env: c.env });
    expect(show).toMatchObject({
      code: 3,
      stderr: `mq: the config file ${join(c.root, '.mqrc.yaml')} is a loop of symbolic links, not a file: make it one, or remove it\n`,
    });
  });

  it('marks a folder, a link to nothing or a loop of links at a config file’s name as broken, naming the file: every other command fails on it (helper-95)', async () => {
    const c = checkout();
    const project = join(c.root, '.mqrc.json');
    const makers: [(path: string) => void, string][] = [
      [(path) => mkdirSync(path), 'a folder'],
      [(path) => symlinkSync(join(c.root, 'nowhere'), path), 'a link to nothing'],
      [
        (path) => {
          symlinkSync(`${path}.loop`, path);
          symlinkSync(path, `${path}.loop`);
        },
        'a loop of symbolic links',
      ],
    ];
    for (const [make, what] of makers) {
      const broken = `the config file ${project} is ${what}, not a file: make it one, or remove it`;
      make(project);
      const run = await mq(['config', 'path', '--json'], { cwd: c.sub, env: c.env });
      expect(run).toMatchObject({ code: 0, stderr: '' });
      // It said "none yet: `mq config init` writes it here" of .mqrc.yaml.
      expect(json(run).project).toEqual({ path: project, exists: true, namedBy: 'search', broken });
      expect(await mq(['config', 'show'], { cwd: c.sub, env: c.env })).toMatchObject({ code: 3, stderr: `mq: ${broken}\n` });
      for (const path of [project, `${project}.loop`]) rmSync(path, { recursive: true, force: true });
    }
    // The user file's name, not its folder's.
    const user = join(c.userDir, 'config.yaml');
    mkdirSync(user, { recursive: true });
    const run = await mq(['config', 'path', '--json'], { cwd: c.sub, env: c.env });
    expect(json(run).user).toEqual({ path: user, exists: true, broken: `the config file ${user} is a folder, not a file: make it one, or remove it` });
  });

  it('shows the paths when a config file is broken, flags the broken one with why, and exits 0: doctor sends people here', async () => {
    const c = checkout();
    writeFileSync(join(c.root, '.mqrc.yaml'), 'frobnicate: true\n');
    mkdirSync(c.userDir, { recursive: true });
    writeFileSync(join(c.userDir, 'config.json'), '{ "token": ');
    const doctor = await mq(['doctor'], { cwd: c.sub, env: c.env });
    expect(doctor.code).toBe(3);
    expect(doctor.stdout).toContain('mq config path shows the config files mq reads, and which one is broken');

    const run = await mq(['config', 'path'], { cwd: c.sub, env: c.env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(new RegExp(`project +${escapeRegExp(join(c.root, '.mqrc.yaml'))} +broken, not read: unknown key "frobnicate"`));
    expect(run.stdout).toMatch(new RegExp(`user +${escapeRegExp(join(c.userDir, 'config.json'))} +broken, not read: not valid JSON`));
    const doc = json(await mq(['config', 'path', '--json'], { cwd: c.sub, env: c.env }));
    expect(doc).toEqual({
      project: { path: join(c.root, '.mqrc.yaml'), exists: true, namedBy: 'search', broken: 'unknown key "frobnicate"' },
      user: { path: join(c.userDir, 'config.json'), exists: true, broken: expect.stringMatching(/^not valid JSON/) },
      ignored: [],
    });

    // One broken file does not hide the other, which is read.
    writeFileSync(join(c.userDir, 'config.json'), '{}');
    const one = json(await mq(['config', 'path', '--json'], { cwd: c.sub, env: c.env }));
    expect(one.user).toEqual({ path: join(c.userDir, 'config.json'), exists: true });
    // A file named by MQ_CONFIG that is broken is flagged the same; a bad flag is still a usage error.
    const named = json(await mq(['config', 'path', '--json'], { cwd: c.sub, env: { ...c.env, MQ_CONFIG: join(c.root, '.mqrc.yaml') } }));
    expect(named.project).toMatchObject({ namedBy: 'MQ_CONFIG', broken: 'unknown key "frobnicate"' });
    expect((await mq(['config', 'path', '--output', 'xml'], { cwd: c.sub, env: c.env })).code).toBe(2);
  });
});
