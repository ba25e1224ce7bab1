// The plain-fs look that decides whether cosmiconfig is needed at all (files.ts): wherever it passes a file over,
// cosmiconfig would have too, and wherever it is unsure, cosmiconfig decides as before.
import { mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/resolve.js';
import { surveyConfigFiles } from '../../src/config/survey.js';
import { ConfigError } from '../../src/errors.js';
import { rejection, tree } from './helpers.js';

describe('passing over what is not a config file', () => {
  it('an empty or blank file, on its way up', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/.mqrc', 'targetBranch: root\n');
    t.write('home/proj/app/.mqrc', '  \n\n');
    t.write('home/proj/app/.mqrc.json', '');
    expect((await t.resolve({ cwd: 'home/proj/app' })).files).toEqual([join(t.proj, '.mqrc')]);
  });

  it('a directory with a config file name', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/.mqrc.yaml', 'targetBranch: root\n');
    mkdirSync(join(t.proj, 'app/.mqrc'), { recursive: true });
    expect((await t.resolve({ cwd: 'home/proj/app' })).settings.targetBranch).toBe('root');
  });

  it('a package.json whose "mq" is null', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/.mqrc.json', { targetBranch: 'root' });
    t.write('home/proj/app/package.json', { name: 'app', mq: null });
    expect((await t.resolve({ cwd: 'home/proj/app' })).settings.targetBranch).toBe('root');
  });

  it('no config file anywhere: the defaults', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/package.json', { name: 'proj' });
    const { files, settings } = await t.resolve();
    expect(files).toEqual([]);
    expect(settings.targetBranch).toBe('main');
  });
});

describe('where the search stops', () => {
  it('outside a checkout and outside home, at the working directory: a file above it holds for no folder under it (helper-95)', async () => {
    const t = tree();
    t.write('.mqrc.yaml', 'targetBranch: from-above\n');
    const own = t.write('outside/sub/.mqrc.yaml', 'targetBranch: own\n');
    expect((await t.resolve({ cwd: 'outside/sub' })).files).toEqual([own]);
    rmSync(own);
    const none = await t.resolve({ cwd: 'outside/sub' });
    expect(none.files).toEqual([]);
    expect(none.settings.targetBranch).toBe('main');
    // mq config path looks where the search does.
    const survey = await surveyConfigFiles({ cwd: join(t.root, 'outside/sub'), env: { HOME: t.home, XDG_CONFIG_HOME: t.xdg } });
    expect(survey.project).toBeUndefined();
  });

  it('outside a checkout, at home when HOME runs through a link (helper-110: the search did not climb)', async () => {
    const t = tree();
    const home = t.write('home/.mqrc.yaml', 'targetBranch: home\n');
    mkdirSync(join(t.home, 'p/sub'), { recursive: true });
    const link = join(t.root, 'home-link');
    symlinkSync(t.home, link);
    const resolved = await resolveSettings({
      flags: {},
      env: { HOME: link, XDG_CONFIG_HOME: t.xdg },
      cwd: join(t.home, 'p/sub'),
      stdoutIsTTY: false,
      homeDir: link,
    });
    expect(resolved.settings.targetBranch).toBe('home');
    expect(resolved.files.map((file) => realpathSync(file))).toEqual([realpathSync(home)]);
  });

  it('outside a checkout in home, at home; in a checkout, at its root', async () => {
    const t = tree();
    t.write('.mqrc.yaml', 'targetBranch: from-above\n');
    const home = t.write('home/.mqrc.yaml', 'targetBranch: home\n');
    expect((await t.resolve({ cwd: 'home/proj' })).files).toEqual([home]);
    t.git('home/proj', 'init', '-q');
    expect((await t.resolve({ cwd: 'home/proj' })).files).toEqual([]);
  });
});

describe('leaving the rest to cosmiconfig', () => {
  it('a package.json that is not valid JSON is an error naming it, as before', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const pkg = t.write('home/proj/package.json', '{ "name": ');
    const error = await rejection(t.resolve());
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(new RegExp(`^${pkg}: not valid JSON`));
  });

  it('a YAML file that is not valid YAML', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const file = t.write('home/proj/.mqrc', 'targetBranch: [\n');
    expect((await rejection(t.resolve())).message).toMatch(new RegExp(`^${file}: not valid YAML`));
  });
});

describe('executable config files', () => {
  it('are never loaded, and each one the search passes is listed as ignored', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const js = t.write('home/proj/app/.mqrc.js', 'throw new Error("ran")\n');
    const ts = t.write('home/proj/mq.config.ts', 'export default {}\n');
    t.write('home/proj/.mqrc.yaml', 'targetBranch: root\n');
    const resolved = await t.resolve({ cwd: 'home/proj/app' });
    expect(resolved.settings.targetBranch).toBe('root');
    expect(resolved.ignoredFiles).toEqual([js, ts]);
  });

  it('above the file found, or with the file named by --config, are not looked for', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/.mqrc.cjs', 'module.exports = {}\n');
    t.write('home/proj/app/.mqrc.json', { targetBranch: 'app' });
    expect((await t.resolve({ cwd: 'home/proj/app' })).ignoredFiles).toEqual([]);
    const named = t.write('home/proj/ci.yaml', 'output: json\n');
    expect((await t.resolve({ flags: { config: named } })).ignoredFiles).toEqual([]);
  });

  it('with no config file at all, still are named', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const mjs = t.write('home/proj/.mqrc.mjs', 'export default {}\n');
    const resolved = await t.resolve();
    expect(resolved.files).toEqual([]);
    expect(resolved.ignoredFiles).toEqual([mjs]);
  });
});
