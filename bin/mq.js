#!/usr/bin/env node
// A shim: turn on Node's compile cache where this Node has it, then load the bundled program. `mq --version` alone
// is answered here, from the package's own manifest (the one version there is), without loading the program.
import module from 'node:module';
import { readFileSync } from 'node:fs';

if (process.argv.length === 3 && process.argv[2] === '--version') {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  module.enableCompileCache?.();
  await import('../dist/mq.js');
}
