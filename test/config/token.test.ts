import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readToken } from '../../src/config/token.js';
import { Settings } from '../../src/config/settings-schema.js';
import { runTokenCommand } from '../../src/config/token.js';
import { gone } from '../support/processes.js';
import { ConfigError, InterruptedError } from '../../src/errors.js';
import { rejection, tree } from './helpers.js';

describe('readToken', () => {
  it('without a token, says how to set one', async () => {
    const error = await rejection(readToken(Settings.parse({ color: false })));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe('no API token: set MQ_TOKEN (or TRUNK_API_TOKEN), or tokenCommand/tokenFile in the user config file');
  });

  it('takes the environment variable, trimmed', async () => {
    const t = tree();
    const { settings } = await t.resolve({ env: { MQ_TOKEN: 'env-token\n' } });
    expect(await readToken(settings)).toBe('env-token');
  });

  it('runs tokenCommand from the config file’s directory, lazily, and trims its output', async () => {
    const t = tree();
    const marker = join(t.root, 'ran');
    t.write('home/.config/mq/config.yaml', `tokenCommand: touch ${marker} && cat ./secret.txt\n`);
    t.write('home/.config/mq/secret.txt', '  cmd-token  \n');
    t.write('home/proj/sub/x', '');
    const { settings } = await t.resolve({ cwd: 'home/proj/sub' });
    expect(existsSync(marker)).toBe(false);
    expect(await readToken(settings)).toBe('cmd-token');
    expect(existsSync(marker)).toBe(true);
  });

  it('reads a linked user file’s tokenFile and runs its tokenCommand from the real file’s folder, as its $import', async () => {
    const t = tree();
    // Kept with the dotfiles, linked into place: its relative paths are beside the file it is.
    t.write('home/dotfiles/mq.yaml', 'tokenFile: ./token.txt\nprofiles:\n  cmd:\n    tokenCommand: cat ./cmd-token.txt\n');
    t.write('home/dotfiles/token.txt', 'file-token\n');
    t.write('home/dotfiles/cmd-token.txt', 'cmd-token\n');
    mkdirSync(join(t.xdg, 'mq'), { recursive: true });
    symlinkSync(join(t.home, 'dotfiles/mq.yaml'), join(t.xdg, 'mq/config.yaml'));
    expect(await readToken((await t.resolve()).settings)).toBe('file-token');
    expect(await readToken((await t.resolve({ flags: { profile: 'cmd' } })).settings)).toBe('cmd-token');
  });

  it('names a failing command but never shows its output', async () => {
    const t = tree();
    const file = t.write('home/.config/mq/config.yaml', 'tokenCommand: echo half-a-secret; echo oops >&2; exit 3\n');
    const { settings } = await t.resolve();
    const error = await rejection(readToken(settings));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`tokenCommand "echo half-a-secret; echo oops >&2; exit 3" (file ${file}) failed (exit code 3); run it yourself to see why`);
    expect(error.cause).toBeUndefined();
    expect(JSON.stringify(error)).not.toContain('oops');
  });

  it('refuses a command that prints nothing, or more than one line', async () => {
    const silent = Settings.parse({ color: false, token: { kind: 'command', command: 'true', origin: 'x' } });
    await expect(readToken(silent)).rejects.toThrow('no API token: tokenCommand "true" is empty');
    const twoLines = Settings.parse({ color: false, token: { kind: 'command', command: 'printf "a\\nb"', origin: 'x' } });
    const error = await rejection(readToken(twoLines));
    expect(error.message).toMatch(/holds more than the token/);
    expect(error.message).not.toMatch(/\ba\b.*\bb\b/);
  });

  it('refuses a character no header can carry, naming where it is and not the token', async () => {
    const pasted = Settings.parse({ color: false, token: { kind: 'command', command: "printf 'tok\\342\\200\\213en'", origin: 'x' } });
    const error = await rejection(readToken(pasted));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      'tokenCommand "printf \'tok\\342\\200\\213en\'" holds U+200B at character 4, which no HTTP header can carry: copy the token again',
    );
    const t = tree();
    const { settings } = await t.resolve({ env: { MQ_TOKEN: 'plain-ascii-token~!' } });
    expect(await readToken(settings)).toBe('plain-ascii-token~!');
  });

  // Ctrl-C or SIGTERM while a password manager waits for a touch: mq ends, and the command with it.
  it('ends a command still running when the signal aborts, before or after it started', async () => {
    const before = new AbortController();
    before.abort();
    await expect(runTokenCommand('sleep 60', 'file /x', undefined, 60_000, before.signal)).rejects.toBeInstanceOf(InterruptedError);

    const t = tree();
    const started = join(t.root, 'started');
    const during = new AbortController();
    const running = runTokenCommand(`touch ${started}; sleep 60`, 'file /x', undefined, 60_000, during.signal);
    while (!existsSync(started)) await new Promise((tick) => setTimeout(tick, 10));
    during.abort();
    await expect(running).rejects.toBeInstanceOf(InterruptedError);
  });

  // What the command started goes with it (helper-83: `sleep 71; echo tok` outlived mq's timeout by its whole
  // length, and held mq open on its stdout): without a terminal the command's group is killed whole.
  it.skipIf(process.platform === 'win32' || process.stdin.isTTY)('ends what the command started too, on a timeout or an abort', async () => {
    const t = tree();
    for (const end of ['timeout', 'abort'] as const) {
      const pids = join(t.root, `pids-${end}`);
      const controller = new AbortController();
      const running = runTokenCommand(
        `sleep 60 & echo $! > ${pids}; wait; echo tok`,
        'file /x',
        undefined,
        end === 'timeout' ? 200 : 60_000,
        controller.signal,
      );
      while (!existsSync(pids) || readFileSync(pids, 'utf8').trim() === '') await new Promise((tick) => setTimeout(tick, 10));
      if (end === 'abort') controller.abort();
      await expect(running).rejects.toThrow();
      const sleeper = Number(readFileSync(pids, 'utf8').trim());
      // Sent SIGTERM with its group: gone once the kernel has run it to its end.
      expect(await gone(sleeper), end).toBe(true);
    }
  });

  // A command that would outlast the test's own time limit: only giving up lets the test end, so no clock is read.
  it('gives up on a command that does not finish', async () => {
    await expect(runTokenCommand('sleep 60', 'file /x', undefined, 200)).rejects.toThrow('tokenCommand "sleep 60" (file /x) did not finish within 200ms');
  });

  it('refuses a tokenFile of more than a token, reading no more of it (helper-83: /dev/zero read half a gigabyte)', async () => {
    const t = tree();
    const file = t.write('home/big-token', 'x'.repeat(70 * 1024));
    t.write('home/.config/mq/config.yaml', `tokenFile: ${file}\n`);
    const error = await rejection(readToken((await t.resolve()).settings));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(new RegExp(`^tokenFile ${file}, named in .*, holds more than a token \\(over 64 KiB\\)$`));
  });

  it('refuses a tokenFile that is no file, unopened: a FIFO (whose open waited for a writer, deaf to Ctrl-C, helper-95), a device, a folder', async () => {
    const t = tree();
    const fifo = join(t.home, 'tok');
    execFileSync('mkfifo', [fifo]);
    for (const [path, kind] of [
      [fifo, 'a pipe'],
      ['/dev/zero', 'a device'],
      [t.home, 'a folder'],
    ]) {
      const user = t.write('home/.config/mq/config.yaml', `tokenFile: ${path}\n`);
      const error = await rejection(readToken((await t.resolve()).settings));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toBe(`tokenFile ${path}, named in file ${user}, is ${kind}, not a file: give the path of a file holding the token`);
    }
  });

  it('reads tokenFile relative to the config file, and expands ~', async () => {
    const t = tree();
    t.write('home/.config/mq/config.yaml', 'tokenFile: ../tokens/mq\n');
    t.write('home/.config/tokens/mq', 'file-token\n');
    expect(await readToken((await t.resolve()).settings)).toBe('file-token');

    const u = tree();
    u.write('home/.config/mq/config.yaml', 'tokenFile: ~/secret/mq-token\n');
    u.write('home/secret/mq-token', 'home-token');
    const { settings } = await u.resolve();
    expect(settings.token).toMatchObject({ kind: 'file', path: join(u.home, 'secret/mq-token') });
    expect(await readToken(settings)).toBe('home-token');
  });

  it('names a tokenFile it cannot read, and an empty one', async () => {
    const t = tree();
    const file = t.write('home/.config/mq/config.yaml', 'tokenFile: missing\n');
    const { settings } = await t.resolve();
    expect((await rejection(readToken(settings))).message).toBe(
      `cannot read tokenFile ${join(t.xdg, 'mq', 'missing')}, named in file ${file}: no such file or directory`,
    );
    const empty = t.write('home/.config/mq/missing', '\n');
    expect((await rejection(readToken(settings))).message).toBe(`no API token: tokenFile ${empty} is empty`);
  });

  it('takes `token` from the user file', async () => {
    const t = tree();
    t.write('home/.config/mq/config.json', { token: 'user-token' });
    expect(await readToken((await t.resolve()).settings)).toBe('user-token');
  });
});
