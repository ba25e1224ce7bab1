import { describe, expect, it } from 'vitest';
import { flagsLayer } from '../../src/config/flags.js';
import { requireRepo } from '../../src/config/resolve.js';
import { Settings } from '../../src/config/settings-schema.js';
import { parseRemoteUrl } from '../../src/config/repo.js';
import { ConfigError, UsageError } from '../../src/errors.js';
import { thrown } from './helpers.js';

const repo = (host: string, owner: string, name: string) => ({ host, owner, name });
/** -R as the flags layer reads it. */
const parseRepo = (text: string) => flagsLayer({ repo: text }).repo?.value;

describe('parseRepo', () => {
  it.each([
    ['acme/widgets', repo('github.com', 'acme', 'widgets')],
    ['github.com/acme/widgets', repo('github.com', 'acme', 'widgets')],
    ['GHE.Example.com/acme/widgets', repo('ghe.example.com', 'acme', 'widgets')],
    ['localhost:8080/acme/widgets', repo('localhost:8080', 'acme', 'widgets')],
    ['Acme-Inc/my_repo.js', repo('github.com', 'Acme-Inc', 'my_repo.js')],
    // A pasted URL names a repository too, as with gh -R.
    ['https://github.com/acme/widgets', repo('github.com', 'acme', 'widgets')],
    ['git@github.com:acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    // As a clone URL ends: the same repository on both APIs (helper-101: v1 read acme/widgets.git, v2 acme/widgets).
    ['acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    ['ghe.example.com/acme/widgets.git', repo('ghe.example.com', 'acme', 'widgets')],
  ])('%j', (text, expected) => {
    expect(parseRepo(text)).toEqual(expected);
  });

  const bad = ['nope', '', 'acme/', '/widgets', 'acme/.git', 'a/b/c/d', 'acme/wid gets', 'acme/..', 'ho st/a/b', 'https://github.com/acme'];
  it.each(bad)('refuses %j with a UsageError naming it', (text) => {
    const error = thrown(() => parseRepo(text));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(`"${text}"`);
  });
});

describe('parseRemoteUrl', () => {
  it.each([
    ['https://github.com/acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    ['https://github.com/acme/widgets', repo('github.com', 'acme', 'widgets')],
    ['https://github.com/acme/widgets/', repo('github.com', 'acme', 'widgets')],
    ['https://x-access-token:ghs_secret@github.com/acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    ['http://ghe.example.com:8080/acme/widgets.git', repo('ghe.example.com', 'acme', 'widgets')],
    ['ssh://git@github.com/acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    ['ssh://git@github.com:22/acme/widgets', repo('github.com', 'acme', 'widgets')],
    ['ssh://git@ssh.github.com:443/acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    ['git+ssh://git@github.com/acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    ['git://github.com/acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    ['git@github.com:acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    ['git@github.com:acme/widgets', repo('github.com', 'acme', 'widgets')],
    ['github.com:acme/widgets.git', repo('github.com', 'acme', 'widgets')],
    ['org-123@GHE.example.com:/acme/widgets.git', repo('ghe.example.com', 'acme', 'widgets')],
  ])('%s', (url, expected) => {
    expect(parseRemoteUrl(url)).toEqual(expected);
  });

  it.each([
    '/srv/git/widgets.git',
    '../widgets',
    'file:///srv/git/acme/widgets.git',
    'https://gitlab.com/group/subgroup/widgets.git',
    'https://github.com/acme',
    'git@github.com:widgets.git',
    'not a url',
  ])('%s names no repository', (url) => {
    expect(parseRemoteUrl(url)).toBeUndefined();
  });
});

describe('requireRepo', () => {
  it('answers the repository when there is one', () => {
    const settings = Settings.parse({ color: false, repo: repo('github.com', 'acme', 'widgets') });
    expect(requireRepo(settings)).toEqual(repo('github.com', 'acme', 'widgets'));
  });

  it('says every way to give one when there is none', () => {
    const error = thrown(() => requireRepo(Settings.parse({ color: false })));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe('no repository: pass -R owner/name, set MQ_REPO, or run inside a git checkout with an origin remote');
  });
});
