// The package as a user gets it: `npm run pack` (scripts/pack.mjs), then `npm install -g` of the tarball into a
// temporary prefix. Reports the packages that landed in lib/node_modules (the goal: mq alone), their size on
// disk, and the warnings npm printed while installing (the goal: none). Run from the checkout (npm run bench).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { report } from './report.js';

const ROOT = process.env.MQ_BENCH_ROOT ?? process.cwd();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// npm's complaint about a key in this machine's own ~/.npmrc, which says nothing about the package.
const MACHINE_CONFIG = /Unknown user config/;

/** Every package installed under a node_modules folder: its folder holds package.json right under
 * node_modules/name or node_modules/@scope/name (a package.json deeper down, a test fixture's, is no package). */
function packagesUnder(modules: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const folders = entry.name.startsWith('@')
      ? readdirSync(join(modules, entry.name), { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => join(entry.name, e.name))
      : [entry.name];
    for (const folder of folders) {
      const path = join(modules, folder);
      if (existsSync(join(path, 'package.json'))) found.push(folder);
      if (existsSync(join(path, 'node_modules'))) found.push(...packagesUnder(join(path, 'node_modules')).map((p) => `${folder} > ${p}`));
    }
  }
  return found;
}

/** The bytes of every file under a folder (links not followed). */
function bytesUnder(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

const work = mkdtempSync(join(tmpdir(), 'mq-bench-package-'));
try {
  const packed = execFileSync(npm, ['run', '--silent', 'pack', '--', work], { cwd: ROOT, encoding: 'utf8' });
  const tarball = packed.trim().split('\n').pop()!;
  const prefix = join(work, 'prefix');
  // As from a shell: without the npm_config_* that `npm run bench` hands its scripts.
  const shell = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  const install = spawnSync(npm, ['install', '-g', '--prefix', prefix, tarball], { cwd: work, env: shell, encoding: 'utf8' });
  const printed = `${install.stdout}${install.stderr}`.trim();
  if (install.status !== 0) throw new Error(`npm install -g exited ${install.status}:\n${printed}`);

  const lines = printed.split('\n').filter((line) => line.trim());
  const warnings = lines.filter((line) => /\bwarn/i.test(line) && !MACHINE_CONFIG.test(line));
  const modules = join(prefix, 'lib/node_modules');
  const packages = packagesUnder(modules);
  const megabytes = bytesUnder(modules) / 1e6;

  console.log(`packed ${relative(work, tarball)}: ${(statSync(tarball).size / 1e6).toFixed(2)} MB`);
  console.log(`npm ${execFileSync(npm, ['--version'], { encoding: 'utf8' }).trim()} install -g printed:`);
  for (const line of lines) console.log(`  ${line}${MACHINE_CONFIG.test(line) ? '   (this machine’s ~/.npmrc, not counted)' : ''}`);
  console.log(`installed: ${packages.join(', ')}\n`);
  report({
    figure: 'npm install -g: packages installed',
    mine: packages.length,
    unit: 'packages',
    goal: { atMost: 1 },
    how: 'package folders under lib/node_modules',
  });
  report({
    figure: 'npm install -g: installed size',
    mine: megabytes,
    unit: 'MB',
    goal: { atMost: 5 },
    how: 'bytes of the files under lib/node_modules, 1 MB = 10^6',
  });
  report({ figure: 'npm install -g: warnings', mine: warnings.length, unit: 'warnings', goal: { atMost: 0 }, how: 'lines of its output with "warn"' });
} finally {
  rmSync(work, { recursive: true, force: true });
}
