// The commands that take their group's own flags (`mq sandbox exec` takes mq sandbox's), as the program made them:
// every other subcommand refuses a group's flag (src/cli/program.ts), so completion offers it only these.
import type { Command } from 'commander';

const TAKING = new WeakSet<Command>();

export function takesGroupFlags(command: Command): boolean {
  return TAKING.has(command);
}

export function markTakesGroupFlags(command: Command): void {
  TAKING.add(command);
}
