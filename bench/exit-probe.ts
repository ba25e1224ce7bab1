// The peak RSS and CPU time of a whole child process: an --import probe (an ES module Node runs before the
// program) writes them to a file of its own as the process exits, and the bench reads them back after it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ExitProbe {
  /** Node's arguments that load the probe, before the program's. */
  args: string[];
  /** What the process just run with `args` used: its peak RSS (threads included) in MB, its CPU time in ms. */
  read(): { rssMB: number; cpuMs: number };
}

/** A probe written into `dir`, for one process at a time. */
export function exitProbe(dir: string): ExitProbe {
  const usage = join(dir, 'exit-usage');
  const probe = join(dir, 'exit-probe.mjs');
  writeFileSync(
    probe,
    `import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  const used = process.resourceUsage();
  writeFileSync(${JSON.stringify(usage)}, used.maxRSS + ' ' + (used.userCPUTime + used.systemCPUTime));
});
`,
  );
  return {
    args: ['--import', pathToFileURL(probe).href],
    read() {
      // Taken away once read: a process that died before its exit handler leaves none, rather than the last one's.
      const [rss, cpu] = readFileSync(usage, 'utf8').split(' ').map(Number);
      rmSync(usage);
      return { rssMB: rss! / 1024, cpuMs: cpu! / 1000 };
    },
  };
}
