// npm run pack: the package as it is published, packed from a staging folder: bin/, the bundle, its licences
// and a manifest without what only a checkout needs: scripts, devDependencies and the rules for installing
// them (an install script in a published package makes npm warn, and there is nothing left to build). Prints
// the tarball's path.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const destination = resolve(process.argv[2] ?? root);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const stage = mkdtempSync(join(tmpdir(), 'mq-pack-'));

const { scripts: _scripts, devDependencies: _dev, overrides: _overrides, allowScripts: _allow, ...published } = pkg;
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
for (const entry of ['bin', 'dist', 'README.md', '.mqrc.example']) cpSync(join(root, entry), join(stage, entry), { recursive: true });

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const output = execFileSync(npm, ['pack', '--silent', '--pack-destination', destination], { cwd: stage, encoding: 'utf8' });
console.log(join(destination, output.trim().split('\n').pop()));
