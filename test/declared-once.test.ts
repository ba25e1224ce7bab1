// Each setting and each flag declared once: a variable is named by its setting's row (src/config/setting-rows.ts)
// and at most one other file of src/, and every command's flags are read through the types their specs give,
// never through a cast.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type FlagKey, type FlagsOf, flagKey } from '../src/argv-spec.js';
import { buildProgram, wholeProgram } from '../src/cli/program.js';
import type { METRICS } from '../src/commands/metrics/spec.js';
import type { SANDBOX } from '../src/commands/sandbox/spec.js';
import type { ConfigFileSchema } from '../src/config/config-file.js';
import { envName, type FileKey, type Row, type RowKey, SETTING_FLAGS } from '../src/config/setting-rows.js';
import type { Checked } from '../src/config/values.js';
import type { Settings } from '../src/config/settings-schema.js';

const ROOT = join(import.meta.dirname, '..');

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [{ path, text: readFileSync(join(ROOT, path), 'utf8') }] : [];
  });
}

const SRC = sources('src');

describe('each MQ_* variable', () => {
  const byName = new Map<string, Set<string>>();
  for (const { path, text } of SRC) {
    for (const [name] of text.matchAll(/\bMQ_[A-Z][A-Z_]*\b/g)) byName.set(name, (byName.get(name) ?? new Set()).add(path));
  }

  it('is named in at most two files of src/: its row, and at most one other place', () => {
    expect(byName.size).toBeGreaterThan(8);
    const over = [...byName].filter(([, files]) => files.size > 2).map(([name, files]) => `${name}: ${[...files].join(', ')}`);
    expect(over).toEqual([]);
  });
});

describe('flags and arguments', () => {
  it('are read with the types of their specs: no `flags as` or `args as` cast in src/ (as `grep -rn "flags as" src` reads it)', () => {
    const casts = SRC.flatMap(({ path, text }) =>
      text.split('\n').flatMap((line, i) => (/flags as|args as/.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(casts).toEqual([]);
  });
});

describe('a flag key', () => {
  it('is, in the types, the property commander keeps the value under', () => {
    expectTypeOf<FlagKey<'--all-repos'>>().toEqualTypeOf<'allRepos'>();
    expectTypeOf<FlagKey<'-y, --yes'>>().toEqualTypeOf<'yes'>();
    expectTypeOf<FlagKey<'--no-batch'>>().toEqualTypeOf<'batch'>();
    expectTypeOf<FlagKey<'-R, --repo <[host/]owner/name>'>>().toEqualTypeOf<'repo'>();
    expectTypeOf<FlagsOf<typeof SANDBOX.flags>['clock']>().toEqualTypeOf<'real' | 'manual' | undefined>();
    expectTypeOf<FlagsOf<typeof METRICS.flags>>().toEqualTypeOf<{ readonly allRepos?: boolean; readonly raw?: boolean }>();
  });

  it('is, at run time, the one commander uses, for every flag of every command', () => {
    const program = wholeProgram(buildProgram({ stdout: { write: () => true }, stderr: { write: () => true } }, async () => undefined));
    const walk = (command: Command): Command[] => [command, ...command.commands.flatMap(walk)];
    const options = walk(program).flatMap((command) => command.options);
    expect(options.length).toBeGreaterThan(100);
    for (const option of options) expect(flagKey(option.flags), option.flags).toBe(option.attributeName());
  });
});

describe('the setting rows', () => {
  it('have a row for every setting, and a schema for every config file key', () => {
    expectTypeOf<Exclude<keyof Settings, RowKey>>().toBeNever();
    expectTypeOf<Exclude<FileKey, keyof typeof ConfigFileSchema.shape>>().toBeNever();
    expectTypeOf<Exclude<keyof typeof ConfigFileSchema.shape, FileKey>>().toBeNever();
  });

  it("check a flag's or variable's text into the setting's own type", () => {
    type Checks = Extract<Row, { check: unknown }>;
    type Wrong = {
      [R in Checks as R['key']]: R['check'] extends (text: string) => Checked<infer V> ? (V extends Settings[R['key']] ? never : R['key']) : R['key'];
    }[Checks['key']];
    expectTypeOf<Wrong>().toBeNever();
  });

  it('make the global flags, each with its variable', () => {
    const apiUrl = SETTING_FLAGS.find((flag) => flag.flags.startsWith('--api-url'));
    expect(apiUrl?.description).toMatch(/\(env MQ_API_URL; default: https:\/\/api\.trunk\.io\)$/);
    expect(envName('timeoutMs')).toBe('MQ_TIMEOUT');
  });
});
