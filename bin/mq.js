#!/usr/bin/env node
// A shim: turn on Node's compile cache where this Node has it, then load the bundled program.
import module from 'node:module';

module.enableCompileCache?.();
await import('../dist/mq.js');
