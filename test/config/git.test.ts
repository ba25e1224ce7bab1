import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentGitBranch, findGitRoot, gitConfigValue, originUrl } from '../../src/config/git.js';
import { tree } from './helpers.js';

describe('findGitRoot', () => {
  it('is the nearest directory holding .git', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/proj/a/b/file', '');
    expect(await findGitRoot(join(t.proj, 'a/b'))).toBe(t.proj);
    expect(await findGitRoot(t.proj)).toBe(t.proj);
  });

  it('is undefined outside a checkout', async () => {
    const t = tree();
    expect(await findGitRoot(t.proj)).toBeUndefined();
  });
});

describe('originUrl', () => {
  it('reads remote.origin.url from .git/config', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.git('home/proj', 'remote', 'add', 'upstream', 'https://github.com/other/fork.git');
    t.git('home/proj', 'remote', 'add', 'origin', 'git@github.com:acme/widgets.git');
    t.write('home/proj/deep/dir/x', '');
    expect(await originUrl(join(t.proj, 'deep/dir'))).toBe('git@github.com:acme/widgets.git');
  });

  it('is undefined without an origin remote, or outside a checkout', async () => {
    const t = tree();
    expect(await originUrl(t.proj)).toBeUndefined();
    t.git('home/proj', 'init', '-q');
    expect(await originUrl(t.proj)).toBeUndefined();
  });

  it('follows a linked worktree to the shared config', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q', '-b', 'main');
    t.git('home/proj', 'remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
    t.git('home/proj', 'commit', '-q', '--allow-empty', '-m', 'init');
    t.git('home/proj', 'worktree', 'add', '-q', '-b', 'feature', '../wt');
    const worktree = join(t.home, 'wt');
    expect(await originUrl(worktree)).toBe('https://github.com/acme/widgets.git');
    expect(await currentGitBranch(worktree)).toBe('feature');
    expect(await currentGitBranch(t.proj)).toBe('main');
  });

  it('follows a .git file (as in a submodule)', async () => {
    const t = tree();
    t.git('store/sub.git', 'init', '-q', '--bare');
    t.git('store/sub.git', 'config', 'remote.origin.url', 'ssh://git@ghe.example.com/acme/sub.git');
    t.write('home/proj/.git', `gitdir: ../../store/sub.git\n`);
    expect(await originUrl(t.proj)).toBe('ssh://git@ghe.example.com/acme/sub.git');
  });

  it('asks git when the remote comes through an [include]', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.write('home/remotes.conf', '[remote "origin"]\n\turl = https://github.com/acme/included.git\n');
    t.git('home/proj', 'config', 'include.path', join(t.home, 'remotes.conf'));
    expect(await originUrl(t.proj)).toBe('https://github.com/acme/included.git');
  });
});

describe('currentGitBranch', () => {
  it('is the checked-out branch, read from HEAD', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q', '-b', 'feature/x');
    t.write('home/proj/sub/f', '');
    expect(await currentGitBranch(join(t.proj, 'sub'))).toBe('feature/x');
  });

  it('is undefined on a detached HEAD and outside a checkout', async () => {
    const t = tree();
    expect(await currentGitBranch(t.proj)).toBeUndefined();
    t.git('home/proj', 'init', '-q');
    t.git('home/proj', 'commit', '-q', '--allow-empty', '-m', 'init');
    t.git('home/proj', 'checkout', '-q', '--detach');
    expect(await currentGitBranch(t.proj)).toBeUndefined();
  });

  it('works through a symlinked directory', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q', '-b', 'trunk');
    symlinkSync(t.proj, join(t.home, 'link'));
    expect(await currentGitBranch(join(t.home, 'link'))).toBe('trunk');
  });
});

describe('gitConfigValue', () => {
  const config = [
    '[core]',
    '\tbare = false',
    '[remote "upstream"]',
    '\turl = https://github.com/other/fork.git',
    '[Remote "origin"]   # a comment',
    '\tfetch = +refs/heads/*:refs/remotes/origin/*',
    '\tURL = "git@github.com:acme/widgets.git" ; trailing comment',
    '\turl = https://second.example/ignored.git',
    '[remote "Origin"]',
    '\turl = https://github.com/case/sensitive.git',
  ].join('\n');

  it('finds the first value, section and key case-insensitive, subsection not', () => {
    expect(gitConfigValue(config, 'remote', 'origin', 'url')).toBe('git@github.com:acme/widgets.git');
    expect(gitConfigValue(config, 'remote', 'upstream', 'url')).toBe('https://github.com/other/fork.git');
    expect(gitConfigValue(config, 'remote', 'missing', 'url')).toBeUndefined();
  });

  it('reads the old [section.subsection] spelling', () => {
    expect(gitConfigValue('[remote.origin]\n url = a:b/c\n', 'remote', 'origin', 'url')).toBe('a:b/c');
  });

  it('does not confuse a value in another section', () => {
    expect(gitConfigValue('[branch "origin"]\n\turl = x\n', 'remote', 'origin', 'url')).toBeUndefined();
  });
});
