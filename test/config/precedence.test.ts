// CLI.md's order, one setting at a time: with every layer present the flag wins; take the winner away and the
// next layer shows through, down to git inference and the default.
import { describe, expect, it } from 'vitest';
import type { GlobalFlags } from '../../src/config/settings.js';
import { tree } from './helpers.js';

type LayerName = 'flag' | 'env' | 'project' | 'user' | 'git' | 'default';

interface Case {
  setting: string;
  flags?: GlobalFlags;
  env?: Record<string, string>;
  project?: Record<string, unknown>;
  user?: Record<string, unknown>;
  remote?: string;
  /** What the setting is when `layer` is the highest one left, and the origin's first word. */
  expected: Partial<Record<LayerName, unknown>>;
}

const cases: Case[] = [
  {
    setting: 'apiUrl',
    flags: { apiUrl: 'https://flag.example/v1' },
    env: { MQ_API_URL: 'https://env.example/v1/' },
    project: { apiUrl: 'https://project.example/api/v1' },
    user: { apiUrl: 'http://localhost:8080/v1' },
    expected: {
      flag: 'https://flag.example',
      env: 'https://env.example',
      project: 'https://project.example/api',
      user: 'http://localhost:8080',
      default: 'https://api.trunk.io',
    },
  },
  {
    setting: 'repo',
    flags: { repo: 'flag/repo' },
    env: { MQ_REPO: 'ghe.example.com/env/repo' },
    project: { repo: 'project/repo' },
    user: { repo: { host: 'user.example', owner: 'user', name: 'repo' } },
    remote: 'git@github.com:git/repo.git',
    expected: {
      flag: { host: 'github.com', owner: 'flag', name: 'repo' },
      env: { host: 'ghe.example.com', owner: 'env', name: 'repo' },
      project: { host: 'github.com', owner: 'project', name: 'repo' },
      user: { host: 'user.example', owner: 'user', name: 'repo' },
      git: { host: 'github.com', owner: 'git', name: 'repo' },
      default: undefined,
    },
  },
  {
    setting: 'targetBranch',
    flags: { branch: 'flag-branch' },
    env: { MQ_BRANCH: 'env-branch' },
    project: { targetBranch: 'project-branch' },
    user: { targetBranch: 'user-branch' },
    expected: {
      flag: 'flag-branch',
      env: 'env-branch',
      project: 'project-branch',
      user: 'user-branch',
      default: 'main',
    },
  },
  {
    setting: 'org',
    flags: { org: 'flag-org' },
    env: { MQ_ORG: 'env-org' },
    project: { org: 'project-org' },
    user: { org: 'user-org' },
    expected: { flag: 'flag-org', env: 'env-org', project: 'project-org', user: 'user-org', default: undefined },
  },
  {
    setting: 'output',
    flags: { output: 'json' },
    project: { output: 'table' },
    user: { output: 'json' },
    expected: { flag: 'json', project: 'table', user: 'json', default: 'table' },
  },
  {
    setting: 'timeoutMs',
    flags: { timeout: '1m' },
    env: { MQ_TIMEOUT: '2m' },
    project: { timeout: '3m' },
    user: { timeout: 4 },
    expected: { flag: 60_000, env: 120_000, project: 180_000, user: 4_000, default: 30_000 },
  },
  {
    setting: 'token',
    // No project layer: a project file may not say how the token is obtained (files.test.ts).
    env: { MQ_TOKEN: 'env-token' },
    user: { tokenCommand: 'echo user-token' },
    expected: {
      env: { kind: 'env', name: 'MQ_TOKEN', value: 'env-token' },
      user: expect.objectContaining({ kind: 'command', command: 'echo user-token' }),
      default: undefined,
    },
  },
];

const ORDER: LayerName[] = ['flag', 'env', 'project', 'user', 'git', 'default'];

describe.each(cases)('$setting', (c) => {
  const present = ORDER.filter((layer) => layer in c.expected);
  it.each(present)('comes from the %s layer when it is the highest one set', async (top) => {
    const t = tree();
    const has = (layer: LayerName) => ORDER.indexOf(layer) >= ORDER.indexOf(top);
    t.git('home/proj', 'init', '-q');
    if (c.remote && has('git')) t.git('home/proj', 'remote', 'add', 'origin', c.remote);
    if (c.project && has('project')) t.write('home/proj/.mqrc.json', c.project);
    if (c.user && has('user')) t.write('home/.config/mq/config.json', c.user);
    const { settings, origins } = await t.resolve({
      flags: has('flag') ? c.flags : {},
      env: has('env') ? c.env : {},
    });
    expect((settings as Record<string, unknown>)[c.setting]).toEqual(c.expected[top]);
    const origin = origins[c.setting];
    const expectedOrigin = {
      flag: /^flag --/,
      env: /^env (MQ|TRUNK)_/,
      project: new RegExp(`^file ${t.proj}/\\.mqrc\\.json$`),
      user: new RegExp(`^file ${t.xdg}/mq/config\\.json$`),
      git: /^git remote origin$/,
      default: /^default$/,
    }[top];
    if (c.expected[top] === undefined) expect(origin).toBeUndefined();
    else expect(origin).toMatch(expectedOrigin);
  });
});

describe('flags and the environment', () => {
  it('--json means output json, and contradicting -o table is a usage error', async () => {
    const t = tree();
    const { settings, origins } = await t.resolve({ flags: { json: true } });
    expect(settings.output).toBe('json');
    expect(origins.output).toBe('flag --json');
    expect((await t.resolve({ flags: { json: true, output: 'json' } })).settings.output).toBe('json');
    await expect(t.resolve({ flags: { json: true, output: 'table' } })).rejects.toMatchObject({ exitCode: 2 });
  });

  it('MQ_TOKEN comes before TRUNK_API_TOKEN, and TRUNK_API_TOKEN alone is enough', async () => {
    const t = tree();
    const both = await t.resolve({ env: { MQ_TOKEN: 'a', TRUNK_API_TOKEN: 'b' } });
    expect(both.settings.token).toEqual({ kind: 'env', name: 'MQ_TOKEN', value: 'a' });
    const trunk = await t.resolve({ env: { TRUNK_API_TOKEN: 'b' } });
    expect(trunk.settings.token).toEqual({ kind: 'env', name: 'TRUNK_API_TOKEN', value: 'b' });
    expect(trunk.origins.token).toBe('env TRUNK_API_TOKEN');
  });

  it('takes a token variable of spaces alone as unset, as an empty one, and tries the next (helper-95)', async () => {
    const t = tree();
    // config show said "set", a command "MQ_TOKEN is empty", and TRUNK_API_TOKEN was never tried.
    const blank = await t.resolve({ env: { MQ_TOKEN: ' \t', TRUNK_API_TOKEN: 'b' } });
    expect(blank.settings.token).toEqual({ kind: 'env', name: 'TRUNK_API_TOKEN', value: 'b' });
    const none = await t.resolve({ env: { MQ_TOKEN: '  ', TRUNK_API_TOKEN: ' ' } });
    expect(none.settings.token).toBeUndefined();
    expect(none.origins.token).toBeUndefined();
  });

  it('treats every empty variable as unset', async () => {
    const t = tree();
    t.write('home/proj/.mqrc', 'repo: project/repo\ntargetBranch: develop\ntimeout: 5s\norg: acme\n');
    const empty = {
      MQ_API_URL: '',
      MQ_TOKEN: '',
      TRUNK_API_TOKEN: '',
      MQ_REPO: '',
      MQ_BRANCH: '',
      MQ_ORG: '',
      MQ_PROFILE: '',
      MQ_CONFIG: '',
      MQ_TIMEOUT: '',
      NO_COLOR: '',
      FORCE_COLOR: '',
      XDG_CONFIG_HOME: '',
    };
    const { settings, origins } = await t.resolve({ env: empty, stdoutIsTTY: true });
    expect(settings).toMatchObject({
      apiUrl: 'https://api.trunk.io',
      repo: { owner: 'project', name: 'repo' },
      targetBranch: 'develop',
      org: 'acme',
      timeoutMs: 5_000,
      color: true,
    });
    expect(settings.token).toBeUndefined();
    expect(settings.profile).toBeUndefined();
    expect(origins.repo).toBe(`file ${t.proj}/.mqrc`);
  });

  it.each([
    [{ output: 'xml' }, /--output: "xml" must be "table" or "json"/],
    [{ timeout: 'soon' }, /^--timeout: "soon" is not a duration; use e.g. 30s, 10m, 2h or 1d$/],
    [{ timeout: '0s' }, /^--timeout: "0s" is no time at all; use e.g. 30s, 10m, 2h or 1d$/],
    [{ repo: 'nope' }, /--repo: "nope" must be/],
    [{ apiUrl: 'ftp://x.example/v1' }, /--api-url: "ftp:\/\/x.example\/v1" must be an http\(s\) URL, the service's root/],
    // The query and fragment not said back: a token may be in them.
    [{ apiUrl: 'https://x.example/v1?token=hunter2' }, /^--api-url: "https:\/\/x.example\/v1\?\*\*\*" must not have a query or fragment: the service's root/],
    [{ apiUrl: 'https://x.example/v1#hunter2' }, /^--api-url: "https:\/\/x.example\/v1#\*\*\*" must not have a query or fragment/],
    // Each was an internal error, a zod dump of the settings' schema (helper-95).
    [
      { apiUrl: 'http://127.0.0.1:4000/v1/v1' },
      /^--api-url: "http:\/\/127\.0\.0\.1:4000\/v1\/v1" ends in more than one API version \(\/v1\/v1\): give the service's root/,
    ],
    [{ apiUrl: 'http://x.example/v2/v1/' }, /^--api-url: "http:\/\/x\.example\/v2\/v1\/" ends in more than one API version \(\/v2\/v1\)/],
    [{ apiUrl: 'http://x.example/v1/v2' }, /ends in more than one API version \(\/v1\/v2\)/],
    [{ apiUrl: 'http://127.0.0.1:99999' }, /^--api-url: "http:\/\/127\.0\.0\.1:99999" has the port 99999, which is out of range: a port is 1 to 65535$/],
    [{ branch: '' }, /^--branch: "" is not a valid branch name \(it is empty\); use e\.g\. main$/],
    [{ config: 'missing.yaml' }, /--config: "missing.yaml" is no such file; use the path of a config file/],
  ] satisfies [GlobalFlags, RegExp][])('a bad flag %j is a usage error (exit 2)', async (flags, message) => {
    const t = tree();
    await expect(t.resolve({ flags })).rejects.toMatchObject({
      name: 'UsageError',
      exitCode: 2,
      message: expect.stringMatching(message),
    });
  });

  it.each([
    ['https://api.trunk.io', 'https://api.trunk.io'],
    ['https://api.trunk.io/v1', 'https://api.trunk.io'],
    ['https://api.trunk.io/v2/', 'https://api.trunk.io'],
    ['https://mq.example.com/api/v1/', 'https://mq.example.com/api'],
    ['https://mq.example.com/api/v2', 'https://mq.example.com/api'],
    ['https://mq.example.com/api/', 'https://mq.example.com/api'],
    ['http://127.0.0.1:4000/v1', 'http://127.0.0.1:4000'],
    // A slash too many before the version: the root all the same (it was an internal error, helper-95).
    ['http://127.0.0.1:4000//v1', 'http://127.0.0.1:4000'],
    ['https://mq.example.com/api//v2/', 'https://mq.example.com/api'],
  ])("takes %s as the service's root %s: a trailing /v1 or /v2 is dropped (CLI.md)", async (given, root) => {
    const t = tree();
    expect((await t.resolve({ flags: { apiUrl: given } })).settings.apiUrl).toBe(root);
  });

  it.each([
    ['MQ_TIMEOUT', 'soon', /MQ_TIMEOUT: "soon" must be a duration/],
    ['MQ_REPO', 'nope', /MQ_REPO: "nope" must be/],
    ['MQ_API_URL', 'api.trunk.io/v1', /MQ_API_URL: "api.trunk.io\/v1" must be/],
    ['MQ_API_URL', 'https://user:pw@api.example/v1', /MQ_API_URL: .*must not contain a user name or password/],
    ['MQ_API_URL', 'http://127.0.0.1:4000/v1/v1', /^MQ_API_URL: "http:\/\/127\.0\.0\.1:4000\/v1\/v1" ends in more than one API version \(\/v1\/v1\)/],
    ['MQ_BRANCH', 'two words', /MQ_BRANCH: "two words" is not a valid branch name/],
    ['MQ_CONFIG', 'missing.yaml', /MQ_CONFIG: "missing.yaml" is no such file/],
    // A byte that is not UTF-8 arrives as U+FFFD: refused, not used with the byte replaced.
    ['MQ_BRANCH', 'release-\uFFFD', /^MQ_BRANCH: "release-\uFFFD" is not valid UTF-8/],
    ['MQ_ORG', 'ac\uFFFDme', /^MQ_ORG: "ac\uFFFDme" is not valid UTF-8/],
  ])('a bad %s is a configuration error (exit 3) naming the variable', async (name, value, message) => {
    const t = tree();
    await expect(t.resolve({ env: { [name]: value } })).rejects.toMatchObject({
      name: 'ConfigError',
      exitCode: 3,
      message: expect.stringMatching(message),
    });
  });
});
