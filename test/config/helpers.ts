// A private file system for each test: <root>/home is HOME, <root>/home/.config is XDG_CONFIG_HOME, and
// <root>/home/proj is where mq runs. Nothing of the real user's home or git settings reaches the code under test.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';
import { resolveSettings } from '../../src/config/resolve.js';
import type { GlobalFlags, ResolvedSettings } from '../../src/config/settings.js';

export interface Tree {
  root: string;
  home: string;
  xdg: string;
  proj: string;
  /** Writes `content` (a string, or an object written as JSON) at `path` under root; returns the absolute path. */
  write(path: string, content: string | object): string;
  /** Runs git in `dir` (relative to root), isolated from the real user's git config. */
  git(dir: string, ...args: string[]): string;
  /** resolveSettings run in `cwd` (relative to root; default home/proj) with HOME and XDG_CONFIG_HOME set to the tree. */
  resolve(options?: ResolveOptions): Promise<ResolvedSettings>;
}

interface ResolveOptions {
  flags?: GlobalFlags;
  env?: Record<string, string | undefined>;
  cwd?: string;
  stdoutIsTTY?: boolean;
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export function tree(): Tree {
  // realpath: on macOS /tmp is a symlink, and the paths the code reports are resolved ones.
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mq-config-')));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, 'home');
  const xdg = join(home, '.config');
  const proj = join(home, 'proj');
  mkdirSync(proj, { recursive: true });
  const at = (path: string) => join(root, path);
  return {
    root,
    home,
    xdg,
    proj,
    write(path, content) {
      const file = at(path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return file;
    },
    git(dir, ...args) {
      mkdirSync(at(dir), { recursive: true });
      return execFileSync('git', args, { cwd: at(dir), env: GIT_ENV, encoding: 'utf8' }).trim();
    },
    resolve({ flags = {}, env = {}, cwd = 'home/proj', stdoutIsTTY = false } = {}) {
      return resolveSettings({
        flags,
        env: { HOME: home, XDG_CONFIG_HOME: xdg, ...env },
        cwd: at(cwd),
        stdoutIsTTY,
        homeDir: home,
      });
    },
  };
}

/** The error a promise rejects with (failing the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { exitCode?: number }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { exitCode?: number };
  }
  throw new Error('expected a rejection');
}

/** The error a function throws. */
export function thrown(fn: () => unknown): Error & { exitCode?: number } {
  try {
    fn();
  } catch (error) {
    return error as Error & { exitCode?: number };
  }
  throw new Error('expected a throw');
}
