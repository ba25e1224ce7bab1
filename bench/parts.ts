// The parts a benchmark plays (the sandbox, a bare server, a receiver, the load generator), each a process of
// its own so that none steals another's event loop: the bench file runs itself again with the part's role as its
// first argument, and the part's first line of output (a server's URL, a generator's result) is what it tells.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface Part {
  /** Its first line of output. */
  line: string;
  /** The CPU time it has used so far (ms; NaN where /proc does not tell). */
  cpuMs: () => number;
  /** Ends it (SIGTERM). */
  stop: () => void;
  /** Resolves when it exits, of itself with 0 or when stopped; rejects on any other exit. */
  done: Promise<void>;
}

/**
 * How the bench file `file` (its own path, as run) starts its parts: `part(role, ...args)` resolves once that
 * process prints its first line, and rejects if it fails first. `execArgv`: Node's flags for a role's process.
 */
export function partsOf(file: string, execArgv: (role: string) => readonly string[] = () => []) {
  return (role: string, ...args: string[]): Promise<Part> => {
    const child = spawn(process.execPath, [...execArgv(role), file, role, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const done = new Promise<void>((resolve, reject) => {
      child.once('exit', (code, signal) => (code === 0 || signal === 'SIGTERM' ? resolve() : reject(new Error(`${role} exited ${code ?? signal}`))));
    });
    return new Promise((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', (line) =>
        resolve({ line, cpuMs: () => cpuMsOf(child.pid!), stop: () => child.kill('SIGTERM'), done }),
      );
      done.catch(reject);
    });
  };
}

/** User and system CPU time of a process, from /proc (ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
