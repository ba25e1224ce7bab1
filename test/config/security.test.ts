// Security at the edges (CLI.md "Config files", "Real conditions"): a project file, which a pull request can
// change, decides neither how the token is obtained nor where it is sent; the token goes over https, or plain
// http to a loopback address, unless --insecure; names from files are data, never keys into a prototype.
import { symlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDir } from '../../src/config/cache-dir.js';
import { checkTokenDestination, isLoopback } from '../../src/config/destination.js';
import { homeDir } from '../../src/config/home.js';
import { resolveSettings } from '../../src/config/resolve.js';
import { ConfigError } from '../../src/errors.js';
import { rejection, tree } from './helpers.js';

const USER_ONLY = 'only the user config ($XDG_CONFIG_HOME/mq/config.yaml, default ~/.config/mq/config.yaml) may set it';

describe('a project file cannot say how the token is obtained', () => {
  it.each([
    ['tokenCommand: "touch pwned.txt; echo tok"', 'tokenCommand'],
    ['tokenFile: /etc/passwd', 'tokenFile'],
    ['token: abc', 'token'],
    ['trustedApiUrls: [https://evil.example/v1]', 'trustedApiUrls'],
    ['profiles:\n  ci:\n    tokenCommand: echo tok', 'profiles.ci.tokenCommand'],
    ['profiles:\n  ci:\n    tokenFile: ./t', 'profiles.ci.tokenFile'],
    // Refused for the key, even when its value would not pass the schema.
    ['tokenCommand: 7', 'tokenCommand'],
  ])('%j is refused, naming the file and the key', async (yaml, key) => {
    const t = tree();
    const file = t.write('home/proj/.mqrc.yaml', `${yaml}\n`);
    const error = await rejection(t.resolve());
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toMatch(new RegExp(`^${file}: "${key.replace(/\./g, '\\.')}" is not allowed in a project config file`));
    expect(error.message).toContain(USER_ONLY);
  });

  it('names every such key, one line each, with the package.json prefix', async () => {
    const t = tree();
    const file = t.write('home/proj/package.json', { name: 'x', mq: { tokenFile: 't', profiles: { ci: { tokenCommand: 'c' } } } });
    const lines = (await rejection(t.resolve())).message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${file}: "mq\\.tokenFile" is not allowed`));
    expect(lines[1]).toMatch(new RegExp(`^${file}: "mq\\.profiles\\.ci\\.tokenCommand" is not allowed`));
  });

  it('--config and MQ_CONFIG name a project file, unless they name the user file itself', async () => {
    const t = tree();
    const named = t.write('home/proj/ci/mq.yaml', 'tokenCommand: echo tok\n');
    expect((await rejection(t.resolve({ flags: { config: named } }))).message).toMatch(/"tokenCommand" is not allowed in a project/);
    expect((await rejection(t.resolve({ env: { MQ_CONFIG: named } }))).message).toMatch(/"tokenCommand" is not allowed in a project/);

    const user = t.write('home/.config/mq/config.yaml', 'tokenCommand: echo tok\ntrustedApiUrls: [https://mq.example.com/v1]\n');
    for (const input of [{ flags: { config: user } }, { env: { MQ_CONFIG: user } }]) {
      const resolved = await t.resolve(input);
      expect(resolved.settings.token).toMatchObject({ kind: 'command', command: 'echo tok' });
      expect(resolved.files).toEqual([user]);
      expect(resolved.trust.trustedApiUrls).toEqual(['https://mq.example.com']);
    }
    // The same file by another name is still the user file.
    const link = join(t.root, 'link.yaml');
    symlinkSync(user, link);
    expect((await t.resolve({ flags: { config: link } })).settings.token).toMatchObject({ kind: 'command' });
  });

  it('the user file may hold them, and its profiles tokenCommand or tokenFile', async () => {
    const t = tree();
    t.write('home/.config/mq/config.yaml', 'tokenCommand: echo a\nprofiles:\n  ci: { tokenFile: t }\n');
    expect((await t.resolve()).settings.token).toMatchObject({ kind: 'command' });
    expect((await t.resolve({ flags: { profile: 'ci' } })).settings.token).toMatchObject({ kind: 'file' });
  });
});

describe('where the token may be sent', () => {
  const check = async (t: ReturnType<typeof tree>, input: Parameters<ReturnType<typeof tree>['resolve']>[0] = {}) =>
    checkTokenDestination(await t.resolve(input));

  it("refuses a project file's apiUrl the user config does not trust, naming file, key and the way to trust it", async () => {
    const t = tree();
    const file = t.write('home/proj/.mqrc.yaml', 'apiUrl: https://evil.example/v1\n');
    const refused = await rejection(check(t));
    expect(refused).toBeInstanceOf(ConfigError);
    expect(refused.exitCode).toBe(3);
    expect(refused.message).toBe(`${file}: "apiUrl" https://evil.example is not trusted with the token (a pull request can change a project file)`);
    expect((refused as ConfigError).hint).toBe(
      `to trust it, add it to trustedApiUrls in ${join(t.xdg, 'mq', 'config.yaml')}, or pass it with --api-url or MQ_API_URL`,
    );
  });

  it('sends it there once the user config lists the URL (trailing slashes aside)', async () => {
    const t = tree();
    t.write('home/proj/.mqrc.yaml', 'apiUrl: https://mq.example.com/v1/\n');
    t.write('home/.config/mq/config.json', { trustedApiUrls: ['https://MQ.example.com/v1'] });
    await expect(check(t)).resolves.toBeUndefined();
  });

  it('compares roots: an entry with /v1 trusts the root, and one without trusts the URL with /v1 or /v2', async () => {
    for (const [project, trusted] of [
      ['https://mq.example.com', 'https://mq.example.com/v1'],
      ['https://mq.example.com/v1', 'https://mq.example.com'],
      ['https://mq.example.com/api/v2', 'https://mq.example.com/api/v1/'],
    ]) {
      const t = tree();
      t.write('home/proj/.mqrc.yaml', `apiUrl: ${project}\n`);
      t.write('home/.config/mq/config.json', { trustedApiUrls: [trusted] });
      await expect(check(t), `${project} trusted by ${trusted}`).resolves.toBeUndefined();
    }
  });

  it.each(['http://127.0.0.1:8080/v1', 'http://localhost:4000/v1', 'http://[::1]:9/v1', 'http://127.1/v1', 'https://api.trunk.io/v1'])(
    'a project file may name %s: a loopback address, or the default',
    async (url) => {
      const t = tree();
      t.write('home/proj/.mqrc.yaml', `apiUrl: "${url}"\n`);
      await expect(check(t)).resolves.toBeUndefined();
    },
  );

  it('names the profile key, and the package.json one', async () => {
    const t = tree();
    const file = t.write('home/proj/.mqrc.yaml', 'profiles:\n  staging:\n    apiUrl: https://staging.example.com/v1\n');
    expect((await rejection(check(t, { flags: { profile: 'staging' } }))).message).toMatch(
      new RegExp(`^${file}: "profiles\\.staging\\.apiUrl" https://staging\\.example\\.com is not trusted`),
    );
    const p = tree();
    const pkg = p.write('home/proj/package.json', { mq: { apiUrl: 'https://evil.example/v1' } });
    expect((await rejection(check(p))).message).toMatch(new RegExp(`^${pkg}: "mq\\.apiUrl" `));
  });

  it('a URL from a flag, the environment or the user config is the user’s own choice', async () => {
    const t = tree();
    t.write('home/proj/.mqrc.yaml', 'apiUrl: https://evil.example/v1\n');
    await expect(check(t, { flags: { apiUrl: 'https://mine.example/v1' } })).resolves.toBeUndefined();
    await expect(check(t, { env: { MQ_API_URL: 'https://mine.example/v1' } })).resolves.toBeUndefined();
    const u = tree();
    u.write('home/.config/mq/config.yaml', 'apiUrl: https://mine.example/v1\n');
    await expect(check(u)).resolves.toBeUndefined();
  });

  it('refuses plain http to a host that is not loopback, unless --insecure or MQ_INSECURE', async () => {
    const t = tree();
    const refused = await rejection(check(t, { env: { MQ_API_URL: 'http://example.com/v1' } }));
    expect(refused).toBeInstanceOf(ConfigError);
    expect(refused.message).toBe(
      'refusing to send the token over plain http to http://example.com (env MQ_API_URL): use https, or pass ' + '--insecure (MQ_INSECURE=1) to allow it',
    );
    await expect(check(t, { env: { MQ_API_URL: 'http://example.com/v1' }, flags: { insecure: true } })).resolves.toBeUndefined();
    for (const on of ['1', 'true', 'YES']) await expect(check(t, { env: { MQ_API_URL: 'http://example.com/v1', MQ_INSECURE: on } })).resolves.toBeUndefined();
    await expect(check(t, { env: { MQ_API_URL: 'http://example.com/v1', MQ_INSECURE: '0' } })).rejects.toThrow(/plain http/);
    const bad = await rejection(t.resolve({ env: { MQ_INSECURE: 'maybe' } }));
    expect(bad).toBeInstanceOf(ConfigError);
    expect(bad.message).toBe('MQ_INSECURE: "maybe" must be 1 (or true) to turn it on, 0 (or false) to turn it off');
  });

  it('--insecure does not trust a project file’s URL', async () => {
    const t = tree();
    t.write('home/proj/.mqrc.yaml', 'apiUrl: http://evil.example/v1\n');
    await expect(check(t, { flags: { insecure: true } })).rejects.toThrow(/is not trusted/);
  });

  it('isLoopback knows 127.0.0.0/8, localhost and [::1], and nothing else', () => {
    for (const yes of ['http://127.0.0.1/', 'http://127.255.0.9/', 'http://LOCALHOST/', 'http://[::1]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://0x7f.1/']) {
      expect(isLoopback(new URL(yes)), yes).toBe(true);
    }
    for (const no of ['http://128.0.0.1/', 'http://localhost.evil.example/', 'http://127.0.0.1.evil.example/', 'http://[::2]/', 'http://10.0.0.1/']) {
      expect(isLoopback(new URL(no)), no).toBe(false);
    }
  });
});

describe('names from files and flags are data, not property names', () => {
  it.each(['__proto__', 'constructor', 'toString'])('a profile named %j is a profile like any other', async (name) => {
    const t = tree();
    t.write('home/proj/.mqrc.json', `{"profiles": {"${name}": {"targetBranch": "from-${name.replace(/_/g, '')}"}}}`);
    const { settings } = await t.resolve({ flags: { profile: name } });
    expect(settings.targetBranch).toBe(`from-${name.replace(/_/g, '')}`);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('--profile %j that no file defines is an unknown profile', async (name) => {
    const t = tree();
    t.write('home/proj/.mqrc.yaml', 'profiles:\n  ci: { output: json }\n');
    const error = await rejection(t.resolve({ flags: { profile: name } }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(new RegExp(`^unknown profile "${name}" \\(defined: ci;`));
  });

  it('a profile only the user file defines is not looked up on the project file’s prototype', async () => {
    const t = tree();
    t.write('home/proj/.mqrc.yaml', 'targetBranch: project\n');
    t.write('home/.config/mq/config.yaml', 'profiles:\n  toString: { output: json }\n');
    const { settings } = await t.resolve({ flags: { profile: 'toString' } });
    expect(settings).toMatchObject({ targetBranch: 'project', output: 'json' });
  });

  it.each(['__proto__', 'constructor'])('a top-level key %j is an unknown key', async (key) => {
    const t = tree();
    const file = t.write('home/proj/.mqrc.json', `{"${key}": {"apiUrl": "https://evil.example/v1"}}`);
    const error = await rejection(t.resolve());
    expect(error.message).toBe(`${file}: unknown key "${key}"`);
  });
});

describe('an empty or relative HOME is no home (helper-95)', () => {
  it('is passed over for the system record of the user, or for none: never a path in the working directory', () => {
    const system = () => '/home/someone';
    expect(homeDir({ HOME: '' }, system)).toBe('/home/someone');
    expect(homeDir({ HOME: 'rel' }, system)).toBe('/home/someone');
    expect(homeDir({ HOME: '/h' }, system)).toBe('/h');
    expect(homeDir({ HOME: '' }, () => '')).toBeUndefined();
    expect(
      homeDir({}, () => {
        throw new Error('no passwd entry');
      }),
    ).toBeUndefined();
    for (const HOME of ['', '.', 'rel']) {
      const cache = cacheDir({ HOME });
      expect(cache === undefined || isAbsolute(cache)).toBe(true);
    }
  });

  it("does not read a checkout's .config/mq/config.yaml as the user file, nor run its tokenCommand", async () => {
    const t = tree();
    const planted = t.write('home/proj/.config/mq/config.yaml', 'tokenCommand: touch pwned\n');
    for (const HOME of ['', '.']) {
      const resolved = await resolveSettings({ flags: {}, env: { HOME }, cwd: t.proj, stdoutIsTTY: false });
      expect(resolved.files).not.toContain(planted);
      expect(resolved.locations.userDir === undefined || isAbsolute(resolved.locations.userDir)).toBe(true);
      expect(resolved.settings.token).not.toMatchObject({ command: 'touch pwned' });
    }
  });
});
