// Which config files are read, and what is refused in them.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/resolve.js';
import { ConfigError, UsageError } from '../../src/errors.js';
import { MQ_BIN } from '../support/cli.js';
import { rejection, type Tree, tree } from './helpers.js';

const DURATION = 'must be a duration like 30s, 2m, 1m30s, 1d or a number of seconds';
const MORE_THAN_ONE_VERSION = (versions: string) =>
  `ends in more than one API version (${versions}): give the service's root, like https://api.trunk.io (one /v1 or /v2 after it is dropped)`;

describe('finding the project file', () => {
  it('takes the nearest one from the working directory up', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/.mqrc', 'targetBranch: root\n');
    t.write('home/proj/packages/app/.mqrc.yml', 'targetBranch: app\n');
    t.write('home/proj/packages/app/src/x', '');
    const nested = await t.resolve({ cwd: 'home/proj/packages/app/src' });
    expect(nested.settings.targetBranch).toBe('app');
    expect(nested.files).toEqual([join(t.proj, 'packages/app/.mqrc.yml')]);
    expect((await t.resolve({ cwd: 'home/proj/packages' })).settings.targetBranch).toBe('root');
  });

  it('passes over a package.json without an "mq" key (a monorepo package) on its way up', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/.mqrc.json', { targetBranch: 'root' });
    t.write('home/proj/packages/app/package.json', { name: 'app' });
    expect((await t.resolve({ cwd: 'home/proj/packages/app' })).settings.targetBranch).toBe('root');
  });

  it('reads the "mq" key of package.json, and names it in errors', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const pkg = t.write('home/proj/package.json', { name: 'x', mq: { targetBranch: 'from-package' } });
    const { settings, origins } = await t.resolve();
    expect(settings.targetBranch).toBe('from-package');
    expect(origins.targetBranch).toBe(`file ${pkg}`);
    t.write('home/proj/package.json', { name: 'x', mq: { timeout: 'soon' } });
    expect((await rejection(t.resolve())).message).toBe(`${pkg}: "mq.timeout" ${DURATION}`);
  });

  it.each([
    [['package.json', '.mqrc'], 'package.json'],
    [['.mqrc', '.mqrc.json'], '.mqrc'],
    [['.mqrc.json', '.mqrc.yaml'], '.mqrc.json'],
    [['.mqrc.yaml', '.mqrc.yml'], '.mqrc.yaml'],
    [['.mqrc.yml', 'mq.config.json'], '.mqrc.yml'],
    [['mq.config.json'], 'mq.config.json'],
  ])('in one directory, of %j it reads %s', async (names, winner) => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    for (const name of names) {
      const content = { targetBranch: `from${name.replace(/\W/g, '-')}` };
      t.write(`home/proj/${name}`, name === 'package.json' ? { mq: content } : content);
    }
    const { files } = await t.resolve();
    expect(files).toEqual([join(t.proj, winner)]);
  });

  it('a file whose $import is missing is an error, not a file passed over with its settings', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    // Were it passed over, the file above it would be read instead: another branch, without a word.
    t.write('home/proj/.mqrc', 'targetBranch: elsewhere\n');
    const file = t.write('home/proj/app/.mqrc.yaml', '$import: ./shared.yaml\ntargetBranch: develop\n');
    const error = await rejection(t.resolve({ cwd: 'home/proj/app' }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${file}: the file its $import names does not exist: ${join(t.proj, 'app/shared.yaml')}`);
    expect((await rejection(t.resolve({ cwd: 'home/proj/app', flags: { config: file } }))).message).toBe(error.message);

    t.write('home/proj/app/shared.yaml', 'timeout: 45s\n');
    expect((await t.resolve({ cwd: 'home/proj/app' })).settings).toMatchObject({ targetBranch: 'develop', timeoutMs: 45_000 });
  });

  it('an $import is read and checked as a file of its own: whatever is wrong is said of the imported file, in one line (helper-95)', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const importing = join(t.proj, '.mqrc.yaml');
    const by = (file: string) => `${file} (imported by ${importing})`;
    const shared = t.write('home/proj/shared.yaml', 'hello\n');
    mkdirSync(join(t.proj, 'sub'));
    const fifo = join(t.proj, 'ff.yaml');
    execFileSync('mkfifo', [fifo]);
    const loop = [t.write('home/proj/c1.yaml', '$import: ./c2.yaml\n'), t.write('home/proj/c2.yaml', '$import: ./c1.yaml\n')];
    const cases: [imports: string, shared: string | undefined, message: string][] = [
      // A scalar or a list was merged in as keys "0", "1"…: a line for each character or item (1,220 for /etc/passwd).
      ['./shared.yaml', undefined, `${by(shared)}: must be a map of settings (key: value)`],
      ['./shared.yaml', '[a, b]\n', `${by(shared)}: must be a map of settings (key: value)`],
      // A number was taken without a word.
      ['./shared.yaml', '42\n', `${by(shared)}: must be a map of settings (key: value)`],
      // Said of the importing file.
      ['./shared.yaml', 'bogus: 1\n', `${by(shared)}: unknown key "bogus"`],
      ['./shared.yaml', 'tokenCommand: echo tok\n', `${by(shared)}: "tokenCommand" is not allowed in a project config file`],
      ['./shared.yaml', 'targetBranch: [x\n', `${by(shared)}: not valid YAML at line 2, column 1`],
      // "cannot be read (it is a folder)" of the importing file.
      ['./sub', undefined, `${by(join(t.proj, 'sub'))}: not a regular file (a folder); give the path of a file`],
      // It hung, deaf to Ctrl-C and SIGTERM: cosmiconfig opened it.
      ['./ff.yaml', undefined, `${by(fifo)}: not a regular file (a pipe); give the path of a file`],
      // Said of the folder, and with an empty list.
      ['./.mqrc.yaml', undefined, `${importing}: "$import" names this file itself; remove it`],
      ['./c1.yaml', undefined, `${loop[1]}: "$import" goes round in a circle (${[importing, ...loop, loop[0]].join(' → ')}); remove one of them`],
      ['[./shared.yaml, 3]', undefined, `${importing}: "$import" must be the path of a data file, or a list of them, relative to this file`],
    ];
    for (const [imports, content, message] of cases) {
      if (content !== undefined) t.write('home/proj/shared.yaml', content);
      t.write('home/proj/.mqrc.yaml', `$import: ${imports}\ntargetBranch: develop\n`);
      const error = await rejection(t.resolve());
      expect(error, imports).toBeInstanceOf(ConfigError);
      expect(error.message.startsWith(message), `${error.message}\n  should begin\n${message}`).toBe(true);
      expect(error.message.split('\n')).toHaveLength(1);
    }
  });

  it('an $import of the caller’s input (/dev/stdin, /dev/fd/0) is refused unread: a checkout’s file names it, not the caller (helper-110)', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    for (const input of ['/dev/stdin', '/dev/fd/0']) {
      t.write('home/proj/.mqrc.yaml', `$import: ${input}\n`);
      const error = await rejection(t.resolve());
      expect(error, input).toBeInstanceOf(ConfigError);
      expect(error.message, input).toMatch(new RegExp(`^${input} \\(imported by .*\\): (not a regular file|cannot be read)`));
    }
  });

  it('an $import’s keys lie under the importing file’s own: maps merged, lists joined, in profiles and package.json too', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/config/shared.yaml', 'targetBranch: shared\ntimeout: 45s\nprofiles: { ci: { org: acme } }\n');
    t.write('home/proj/config/more.json', { $import: './shared.yaml', org: 'more' });
    t.write('home/proj/.mqrc.yaml', '$import: [./config/more.json]\ntargetBranch: own\nprofiles: { ci: { timeout: 5s } }\n');
    const { settings } = await t.resolve({ flags: { profile: 'ci' } });
    expect(settings).toMatchObject({ targetBranch: 'own', org: 'acme', timeoutMs: 5_000 });
    t.write('home/proj/package.json', { name: 'x', mq: { $import: './config/shared.yaml', output: 'json' } });
    expect((await t.resolve()).settings).toMatchObject({ targetBranch: 'shared', output: 'json' });
    // The user file's lists, joined.
    t.write('home/.config/mq/extra.yaml', 'trustedApiUrls: [https://a.example]\n');
    t.write('home/.config/mq/config.yaml', '$import: ./extra.yaml\ntrustedApiUrls: [https://b.example/v1]\n');
    expect((await t.resolve()).trust.trustedApiUrls).toEqual(['https://a.example', 'https://b.example']);
  });

  it('a config file that is a link takes its $import from the real file’s folder, as Node resolves a module’s requires', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    // The user file kept with the dotfiles, its import beside it; the import is a link too, to a file importing beside itself.
    t.write('home/dotfiles/mq.yaml', '$import: ./mq-shared.yaml\ntimeout: 45s\n');
    t.write('home/shared/extra.yaml', '$import: ./deeper.yaml\norg: acme\n');
    t.write('home/shared/deeper.yaml', 'trustedApiUrls: [https://a.example]\n');
    symlinkSync(join(t.home, 'shared/extra.yaml'), join(t.home, 'dotfiles/mq-shared.yaml'));
    mkdirSync(join(t.xdg, 'mq'), { recursive: true });
    symlinkSync(join(t.home, 'dotfiles/mq.yaml'), join(t.xdg, 'mq/config.yaml'));
    // A project file linked from a shared folder, and --config naming a link, alike.
    t.write('home/team/mq.yaml', '$import: ./base.yaml\n');
    t.write('home/team/base.yaml', 'targetBranch: team\n');
    symlinkSync(join(t.home, 'team/mq.yaml'), join(t.proj, '.mqrc.yaml'));
    const { settings, trust } = await t.resolve();
    expect(settings).toMatchObject({ timeoutMs: 45_000, org: 'acme', targetBranch: 'team' });
    expect(trust.trustedApiUrls).toEqual(['https://a.example']);
    expect((await t.resolve({ flags: { config: join(t.proj, '.mqrc.yaml') } })).settings.targetBranch).toBe('team');
  });

  it('a folder or a link to nothing at a config file’s name is an error naming it, not passed over', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/.mqrc', 'targetBranch: elsewhere\n');
    mkdirSync(join(t.proj, 'app/.mqrc.yaml'), { recursive: true });
    const folder = await rejection(t.resolve({ cwd: 'home/proj/app' }));
    expect(folder).toBeInstanceOf(ConfigError);
    expect(folder.message).toBe(`the config file ${join(t.proj, 'app/.mqrc.yaml')} is a folder, not a file: make it one, or remove it`);
    rmSync(join(t.proj, 'app/.mqrc.yaml'), { recursive: true });
    symlinkSync(join(t.root, 'nowhere.yaml'), join(t.proj, 'app/.mqrc.yaml'));
    expect((await rejection(t.resolve({ cwd: 'home/proj/app' }))).message).toBe(
      `the config file ${join(t.proj, 'app/.mqrc.yaml')} is a link to nothing, not a file: make it one, or remove it`,
    );
    // The user file too.
    unlinkSync(join(t.proj, 'app/.mqrc.yaml'));
    mkdirSync(join(t.xdg, 'mq/config.yaml'), { recursive: true });
    expect((await rejection(t.resolve({ cwd: 'home/proj/app' }))).message).toBe(
      `the config file ${join(t.xdg, 'mq/config.yaml')} is a folder, not a file: make it one, or remove it`,
    );
  });

  it('a loop of links at a config file’s name is an error naming it, project or user (was an internal error, ELOOP; helper-95)', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    for (const dir of [t.proj, join(t.xdg, 'mq')]) {
      const file = join(dir, dir === t.proj ? '.mqrc.yaml' : 'config.yaml');
      mkdirSync(dir, { recursive: true });
      symlinkSync(join(dir, 'a'), file);
      symlinkSync(file, join(dir, 'a'));
      const error = await rejection(t.resolve());
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toBe(`the config file ${file} is a loop of symbolic links, not a file: make it one, or remove it`);
      rmSync(file);
    }
  });

  it('an XDG_CONFIG_HOME or HOME that is a file holds no user file (was an internal error, ENOTDIR; helper-95)', async () => {
    const t = tree();
    const file = t.write('home/not-a-folder', '');
    for (const env of [{ XDG_CONFIG_HOME: file }, { HOME: file, XDG_CONFIG_HOME: undefined }]) {
      const resolved = await resolveSettings({ flags: {}, env, cwd: t.proj, stdoutIsTTY: false, ...(env.HOME && { homeDir: env.HOME }) });
      expect(resolved.files).toEqual([]);
      expect(resolved.locations.user).toBeUndefined();
    }
  });

  it('a file it may not read is an error naming it, not a file passed over with its settings', (context) => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const file = t.write('home/proj/.mqrc.yaml', 'targetBranch: develop\n');
    chmodSync(file, 0o000);
    // Root reads a file of mode 000: the built mq then runs as nobody, as a user whose file it is not; which it can
    // only where nobody may reach the checkout and the temporary folder (a clone in a private folder is not).
    chmodSync(t.root, 0o755);
    const asRoot = process.getuid?.() === 0;
    const nobody = { uid: 65534, gid: 65534 };
    const reaches = (path: string) => spawnSync(process.execPath, ['-e', 'require("node:fs").accessSync(process.argv[1])', path], nobody).status === 0;
    if (asRoot && !(reaches(MQ_BIN) && reaches(t.proj))) context.skip('run as root, and nobody cannot reach the checkout or the temporary folder');
    const run = spawnSync(process.execPath, [MQ_BIN, 'config', 'show'], {
      cwd: t.proj,
      env: { PATH: process.env.PATH, HOME: t.home, XDG_CONFIG_HOME: t.xdg },
      encoding: 'utf8',
      ...(asRoot ? nobody : {}),
    });
    expect(run.stderr).toBe(`mq: ${file}: cannot be read (permission denied)\n`);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(3);
  });

  it('a package.json cosmiconfig reads for its own settings is named with where it breaks, not quoted', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const pkg = t.write('home/proj/package.json', '{\n  "name": "x",\n  "secret-ish": 1,\n');
    t.write('home/proj/.mqrc.yaml', 'targetBranch: develop\n');
    const error = await rejectionInProject(t);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${pkg}: not valid JSON: it ends too soon, at line 3, column 19`);
  });

  it('a JSON file broken by a stray word (which the parser names by quoting, not by position) is named with where it breaks', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const pkg = t.write('home/proj/package.json', '{\n  "name": x,\n  "secret-ish": 1\n}\n');
    const inPackage = await rejectionInProject(t);
    expect(inPackage).toBeInstanceOf(ConfigError);
    expect(inPackage.message).toBe(`${pkg}: not valid JSON at line 2, column 11`);
    const t2 = tree();
    t2.git('home/proj', 'init', '-q');
    const rc = t2.write('home/proj/.mqrc.json', '{"targetBranch": main}');
    const error = await rejection(t2.resolve());
    expect(error.message).toBe(`${rc}: not valid JSON at line 1, column 18`);
  });

  it('a config file past 1 MiB is refused, named or searched; a pipe is read no further (helper-95: "Invalid string length")', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const big = `targetBranch: x\n${'# padding\n'.repeat(120_000)}`;
    const named = t.write('home/big.yaml', big);
    const refusal = (path: string) => `${path}: too big for a config file (over 1 MiB)`;
    expect((await rejection(t.resolve({ flags: { config: named } }))).message).toBe(refusal(named));
    const searched = t.write('home/proj/.mqrc.yaml', big);
    expect((await rejection(t.resolve())).message).toBe(refusal(searched));
    // A package.json is the project's own file first: a large one with no "mq" key is passed over (helper-110).
    rmSync(searched);
    const rc = t.write('home/proj/.mqrc.yaml', 'targetBranch: rc\n');
    t.write('home/proj/pkg/package.json', JSON.stringify({ name: 'big', description: 'y'.repeat(1_100_000) }));
    const passed = await t.resolve({ cwd: 'home/proj/pkg' });
    expect(passed.files).toEqual([rc]);
    // A pipe that never ends.
    const run = spawnSync('sh', ['-c', 'yes "targetBranch: x" | "$0" "$@"', process.execPath, MQ_BIN, 'config', 'show', '--config', '/dev/stdin'], {
      cwd: t.proj,
      env: { PATH: process.env.PATH, HOME: t.home, XDG_CONFIG_HOME: t.xdg },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe(`mq: ${refusal('/dev/stdin')}\n`);
    expect(run.status).toBe(3);
  });

  it('a JSON file cut off is said to end too soon, with where (it said "not valid JSON" alone; helper-95)', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    for (const [text, where] of [
      ['{"targetBranch": \n', '1, column 17'],
      ['{\n  "targetBranch": "x",\n  "profiles": {\n', '3, column 16'],
      ['{"targetBranch": "ma', '1, column 21'],
    ]) {
      const rc = t.write('home/proj/.mqrc.json', text!);
      expect((await rejection(t.resolve())).message).toBe(`${rc}: not valid JSON: it ends too soon, at line ${where}`);
    }
  });

  it('a JSON file that begins with a byte order mark is read, as a YAML one is (helper-95)', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    // "not valid JSON at line 1, column 1"
    t.write('home/proj/.mqrc.json', '\uFEFF{"targetBranch": "bom"}\n');
    expect((await t.resolve()).settings.targetBranch).toBe('bom');
    const broken = t.write('home/proj/.mqrc.json', '\uFEFF{"targetBranch": main}');
    expect((await rejection(t.resolve())).message).toBe(`${broken}: not valid JSON at line 1, column 18`);
  });

  it('a YAML file of comments alone is no settings, passed over as before', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/.mqrc.yaml', '# settings come later\n');
    expect((await t.resolve()).settings.targetBranch).toBe('main');
  });

  it('stops at the git root', async () => {
    const t = tree();
    t.write('home/.mqrc', 'targetBranch: above-the-repo\n');
    t.git('home/proj', 'init', '-q');
    const { settings, files } = await t.resolve();
    expect(settings.targetBranch).toBe('main');
    expect(files).toEqual([]);
  });

  it('outside a checkout, searches up to the home directory and no further', async () => {
    const t = tree();
    t.write('.mqrc', 'targetBranch: above-home\n');
    t.write('home/proj/a/x', '');
    expect((await t.resolve({ cwd: 'home/proj/a' })).settings.targetBranch).toBe('main');
    t.write('home/.mqrc', 'targetBranch: home\n');
    expect((await t.resolve({ cwd: 'home/proj/a' })).settings.targetBranch).toBe('home');
  });

  it('never loads executable config files', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const marker = join(t.root, 'ran');
    const code = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); module.exports = { targetBranch: 'js' };`;
    for (const name of ['.mqrc.js', '.mqrc.cjs', '.mqrc.mjs', '.mqrc.ts', 'mq.config.js', 'mq.config.ts', '.config/mqrc.js']) {
      t.write(`home/proj/${name}`, code);
    }
    const { settings, files } = await t.resolve();
    expect(settings.targetBranch).toBe('main');
    expect(files).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses an executable file named by --config, without running it', async () => {
    const t = tree();
    const marker = join(t.root, 'ran');
    const file = t.write('home/proj/mq.config.cjs', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x');`);
    const error = await rejection(t.resolve({ flags: { config: 'mq.config.cjs' } }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${file}: mq does not load executable config files; write it as JSON or YAML (.mqrc, .mqrc.json, .mqrc.yaml)`);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses to start when cosmiconfig would run a meta config from the process directory', async () => {
    const t = tree();
    const marker = join(t.root, 'ran');
    const meta = t.write('home/proj/.config/config.js', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x');`);
    const error = await rejectionInProject(t);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(new RegExp(`^${meta}: cosmiconfig would run this file`));
    await new Promise((done) => setTimeout(done, 50));
    expect(existsSync(marker)).toBe(false);
  });
});

describe('naming the project file', () => {
  it('--config and MQ_CONFIG name it outright, relative to the working directory; the flag wins', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/.mqrc', 'targetBranch: searched\n');
    const flagged = t.write('home/proj/conf/flag.yaml', 'targetBranch: flagged\n');
    const named = t.write('home/shared/mq.json', { targetBranch: 'named' });
    const byEnv = await t.resolve({ env: { MQ_CONFIG: named } });
    expect(byEnv.settings.targetBranch).toBe('named');
    expect(byEnv.files).toEqual([named]);
    const both = await t.resolve({ flags: { config: 'conf/flag.yaml' }, env: { MQ_CONFIG: named } });
    expect(both.settings.targetBranch).toBe('flagged');
    expect(both.origins.targetBranch).toBe(`file ${flagged}`);
  });

  it('is still a project file: no token in it', async () => {
    const t = tree();
    const file = t.write('home/proj/ci.yaml', 'token: secret\n');
    const error = await rejection(t.resolve({ flags: { config: 'ci.yaml' } }));
    expect(error.message).toMatch(new RegExp(`^${file}: "token" is not allowed in a project config file`));
  });

  it('refuses a FIFO, a folder or a device, which would never be read to its end; /dev/null is an empty file', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    execFileSync('mkfifo', [join(t.proj, 'settings.fifo')]);
    for (const [path, what] of [
      ['settings.fifo', 'a pipe'],
      ['.', 'a folder'],
      ['/dev/zero', 'a device'],
    ]) {
      const error = await rejection(t.resolve({ flags: { config: path } }));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(`--config: "${path}" is ${what}, not a file; use the path of a config file, e.g. .mqrc.yaml`);
      const viaEnv = await rejection(t.resolve({ env: { MQ_CONFIG: path } }));
      expect(viaEnv).toBeInstanceOf(ConfigError);
    }
    t.write('home/proj/.mqrc.yaml', 'targetBranch: develop\n');
    expect((await t.resolve({ flags: { config: '/dev/null' } })).settings.targetBranch).toBe('main');
  });

  it('an empty named file is no settings, not an error', async () => {
    const t = tree();
    t.write('home/proj/empty.yaml', '# nothing yet\n');
    expect((await t.resolve({ flags: { config: 'empty.yaml' } })).settings.targetBranch).toBe('main');
  });

  it('refuses a format it does not read', async () => {
    const t = tree();
    const file = t.write('home/proj/mq.toml', 'targetBranch = "x"\n');
    expect((await rejection(t.resolve({ flags: { config: 'mq.toml' } }))).message).toBe(
      `${file}: not a config file mq reads; use JSON (.json) or YAML (.yaml, .yml, or no extension)`,
    );
  });
});

describe('the user file', () => {
  it.each(['config.json', 'config.yaml', 'config.yml'])('is read from $XDG_CONFIG_HOME/mq/%s', async (name) => {
    const t = tree();
    const content = name.endsWith('.json') ? { targetBranch: 'mine' } : 'targetBranch: mine\n';
    const file = t.write(`xdg/mq/${name}`, content);
    const { settings, files } = await t.resolve({ env: { XDG_CONFIG_HOME: join(t.root, 'xdg') } });
    expect(settings.targetBranch).toBe('mine');
    expect(files).toEqual([file]);
  });

  it('defaults to ~/.config/mq, and a relative XDG_CONFIG_HOME is ignored', async () => {
    const t = tree();
    const file = t.write('home/.config/mq/config.yaml', 'org: mine\n');
    expect((await t.resolve({ env: { XDG_CONFIG_HOME: undefined } })).files).toEqual([file]);
    expect((await t.resolve({ env: { XDG_CONFIG_HOME: 'relative/dir' } })).files).toEqual([file]);
  });

  it('may hold the token itself; the project file comes first', async () => {
    const t = tree();
    const user = t.write('home/.config/mq/config.yaml', 'token: from-user\n');
    const project = t.write('home/proj/.mqrc', 'targetBranch: x\n');
    const { settings, files } = await t.resolve();
    expect(settings.token).toEqual({ kind: 'config', value: 'from-user', origin: `file ${user}` });
    expect(files).toEqual([project, user]);
  });
});

describe('validation', () => {
  it('names the file and an unknown key', async () => {
    const t = tree();
    const file = t.write('home/proj/.mqrc', 'concurency: 3\n');
    const error = await rejection(t.resolve());
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe(`${file}: unknown key "concurency"`);
  });

  it.each([
    ['timeout: soon', `"timeout" ${DURATION}`],
    ['timeout: -5', `"timeout" ${DURATION}`],
    ['timeout: 0', '"timeout" must be longer than zero'],
    ['timeout: true', `"timeout" ${DURATION}`],
    ['output: xml', '"output" must be "table" or "json"'],
    ['apiUrl: ftp://api.trunk.io', `"apiUrl" must be an http(s) URL, the service's root, like https://api.trunk.io`],
    ['apiUrl: 42', `"apiUrl" must be an http(s) URL, the service's root, like https://api.trunk.io`],
    // Was an internal error, a zod dump of the settings' schema (helper-95).
    ['apiUrl: http://127.0.0.1:4000/v1/v2', `"apiUrl" ${MORE_THAN_ONE_VERSION('/v1/v2')}`],
    ['profiles: { ci: { apiUrl: "https://x.example/v2/v1/" } }', `"profiles.ci.apiUrl" ${MORE_THAN_ONE_VERSION('/v2/v1')}`],
    ['repo: nope', '"repo" must be "owner/name" or "host/owner/name"'],
    ['repo: { owner: acme }', '"repo" must be "owner/name" or "host/owner/name" or {host, owner, name}'],
    ['repo: { owner: acme, name: w, branch: main }', 'unknown key "repo.branch"'],
    ['repo: { owner: acme, name: "w x" }', `"repo" must be "owner/name" or "host/owner/name", each part letters, digits, '.', '-' or '_'`],
    ['targetBranch: [main]', '"targetBranch" must be a branch name, like main'],
    ['org: ""', '"org" must be an organization slug, like acme (the organization\'s name in the app\'s URLs)'],
    ['profiles: [a, b]', '"profiles" must be a map from profile names to settings'],
    ['profiles: { ci: 3 }', '"profiles.ci" must be a map of settings (key: value)'],
    ['profiles: { ci: { timeout: soon } }', `"profiles.ci.timeout" ${DURATION}`],
    ['profiles: { ci: { concurency: 3 } }', 'unknown key "profiles.ci.concurency"'],
    ['- a\n- b', 'must be a map of settings (key: value)'],
    ['just text', 'must be a map of settings (key: value)'],
  ])('%j: %s', async (yaml, problem) => {
    const t = tree();
    const file = t.write('home/proj/.mqrc', `${yaml}\n`);
    const error = await rejection(t.resolve());
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${file}: ${problem}`);
  });

  it('reports every problem, one line each', async () => {
    const t = tree();
    const file = t.write('home/proj/.mqrc.json', { timeout: 'soon', colour: true, output: 'xml' });
    expect((await rejection(t.resolve())).message.split('\n').sort()).toEqual(
      [`${file}: unknown key "colour"`, `${file}: "timeout" ${DURATION}`, `${file}: "output" must be "table" or "json"`].sort(),
    );
  });

  it('validates the user file as strictly', async () => {
    const t = tree();
    const file = t.write('home/.config/mq/config.yaml', 'tokn: abc\n');
    expect((await rejection(t.resolve())).message).toBe(`${file}: unknown key "tokn"; did you mean "token"?`);
  });

  it.each([
    ['tokenCommand: "  "', '"tokenCommand" must be a shell command'],
    ['tokenFile: 7', '"tokenFile" must be a file path'],
    ['trustedApiUrls: https://mq.example.com/v1', '"trustedApiUrls" must be a list of http(s) URLs'],
    ['trustedApiUrls: [mq.example.com]', `"trustedApiUrls[0]" must be an http(s) URL, the service's root, like https://api.trunk.io`],
    ['profiles: { ci: { trustedApiUrls: [] } }', 'unknown key "profiles.ci.trustedApiUrls"'],
  ])('user file %j: %s', async (yaml, problem) => {
    const t = tree();
    const file = t.write('home/.config/mq/config.yaml', `${yaml}\n`);
    const error = await rejection(t.resolve());
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${file}: ${problem}`);
  });

  it('refuses a token in a project file, saying what to use instead', async () => {
    const t = tree();
    const file = t.write('home/proj/.mqrc', 'token: s3cret-value\n');
    const error = await rejection(t.resolve());
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe(
      `${file}: "token" is not allowed in a project config file, which a pull request can change: only the ` +
        'user config ($XDG_CONFIG_HOME/mq/config.yaml, default ~/.config/mq/config.yaml) may set it; move it ' +
        'there, or set MQ_TOKEN',
    );
    expect(error.message).not.toContain('s3cret-value');
  });

  it('refuses a token in a profile, even in the user file', async () => {
    const t = tree();
    const file = t.write('home/.config/mq/config.yaml', 'profiles:\n  ci:\n    token: abc\n');
    expect((await rejection(t.resolve())).message).toMatch(new RegExp(`^${file}: "profiles.ci.token" is not allowed`));
  });

  it('refuses two token sources at one level', async () => {
    const t = tree();
    const file = t.write('home/.config/mq/config.yaml', 'token: abc\ntokenFile: ./t\n');
    expect((await rejection(t.resolve())).message).toBe(`${file}: set only one of "token", "tokenFile"`);
  });

  it('names a file that does not parse, without quoting it', async () => {
    const t = tree();
    const json = t.write('home/proj/.mqrc.json', '{\n  "targetBranch": "main",\n  "oops": secret-ish\n}\n');
    const jsonError = await rejection(t.resolve());
    expect(jsonError).toBeInstanceOf(ConfigError);
    expect(jsonError.message).toMatch(new RegExp(`^${json}: not valid JSON`));
    expect(jsonError.message).not.toContain('secret-ish');

    const u = tree();
    const yaml = u.write('home/.config/mq/config.yaml', 'token: abc-secret\n  bad: indent\n');
    const yamlError = await rejection(u.resolve());
    expect(yamlError).toBeInstanceOf(ConfigError);
    expect(yamlError.message).toMatch(new RegExp(`^${yaml}: not valid YAML at line 2, column \\d+`));
    expect(yamlError.message).not.toContain('abc-secret');
  });

  it('reads JSON in an extensionless .mqrc', async () => {
    const t = tree();
    t.write('home/proj/.mqrc', '{ "targetBranch": "json-in-rc" }');
    expect((await t.resolve()).settings.targetBranch).toBe('json-in-rc');
  });
});

describe('profiles', () => {
  it('overlay the rest of the file, and say so in the origin', async () => {
    const t = tree();
    const file = t.write('home/proj/.mqrc', 'targetBranch: main\norg: acme\ntimeout: 10s\nprofiles:\n  ci:\n    targetBranch: release\n    output: json\n');
    const { settings, origins } = await t.resolve({ flags: { profile: 'ci' } });
    expect(settings).toMatchObject({
      targetBranch: 'release',
      output: 'json',
      org: 'acme',
      timeoutMs: 10_000,
      profile: 'ci',
    });
    expect(origins).toMatchObject({
      targetBranch: `file ${file} (profile ci)`,
      output: `file ${file} (profile ci)`,
      org: `file ${file}`,
      profile: 'flag --profile',
    });
    expect((await t.resolve()).settings.targetBranch).toBe('main');
  });

  it('apply in every file that defines them; the flag beats MQ_PROFILE', async () => {
    const t = tree();
    t.write('home/proj/.mqrc', 'profiles:\n  staging: { targetBranch: develop }\n');
    const user = t.write('home/.config/mq/config.yaml', 'org: mine\nprofiles:\n  staging: { org: staging-org }\n  prod: { org: prod-org }\n');
    const staging = await t.resolve({ env: { MQ_PROFILE: 'staging' } });
    expect(staging.settings).toMatchObject({ targetBranch: 'develop', org: 'staging-org', profile: 'staging' });
    expect(staging.origins.profile).toBe('env MQ_PROFILE');
    // prod is defined only in the user file; the project file's base keys still apply.
    const prod = await t.resolve({ flags: { profile: 'prod' }, env: { MQ_PROFILE: 'staging' } });
    expect(prod.settings).toMatchObject({ targetBranch: 'main', org: 'prod-org', profile: 'prod' });
    expect(prod.origins.org).toBe(`file ${user} (profile prod)`);
  });

  it('an unknown profile is a configuration error listing the known ones', async () => {
    const t = tree();
    t.write('home/proj/.mqrc', 'profiles:\n  ci: { output: json }\n  staging: { output: table }\n');
    const error = await rejection(t.resolve({ flags: { profile: 'prdo' } }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toMatch(/^unknown profile "prdo" \(defined: ci, staging; config files read: /);
    const none = await rejection(tree().resolve({ env: { MQ_PROFILE: 'ci' } }));
    expect(none.message).toBe('unknown profile "ci" (none is defined; no config file was found)');
  });

  it('a profile token source replaces the file’s own', async () => {
    const t = tree();
    const file = t.write('home/.config/mq/config.yaml', 'tokenCommand: pass show mq\nprofiles:\n  ci: { tokenFile: ci-token }\n');
    const { settings } = await t.resolve({ flags: { profile: 'ci' } });
    expect(settings.token).toEqual({ kind: 'file', path: join(t.xdg, 'mq', 'ci-token'), origin: `file ${file} (profile ci)` });
  });
});

/** How the settings fail with the project's folder as the process's own (cosmiconfig reads that one too): as mq run there. */
async function rejectionInProject(t: Tree): Promise<Error & { exitCode?: number }> {
  const previous = process.cwd();
  process.chdir(t.proj);
  try {
    return await rejection(t.resolve());
  } finally {
    process.chdir(previous);
  }
}
