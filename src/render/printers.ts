// The printers of the commands that report as they go, by the name a command's work gives (PrinterName): each in
// its own module, so that a command loads only the one it reports with. Read by the runner and by `mq mcp`.
import { WaitTimeoutError } from '../errors.js';
import type { Waited } from '../model/poll.js';
import type { Printer, ProgressOutput } from './progress.js';

// biome-ignore lint/suspicious/noExplicitAny: each printer has its own event and summary types; its reader only passes them through
export const PRINTERS: Record<'wait' | 'drain' | 'watch', () => Promise<(out: ProgressOutput) => Printer<any, any>>> = {
  wait: async () => (await import('./wait-printer.js')).waitPrinter,
  drain: async () => (await import('./drain-printer.js')).drainPrinter,
  watch: async () => (await import('./watch-printer.js')).watchPrinter,
};

/** A wait that ran out: exit 7, its message naming how long, and the outage it ended in. */
export async function timedOut(result: Waited): Promise<WaitTimeoutError> {
  const [{ formatDuration }, { describeOutage }] = await Promise.all([import('../config/duration.js'), import('./views/outage.js')]);
  const outage = result.outage ? `; ${describeOutage(result.outage)}` : '';
  return new WaitTimeoutError(`timed out after ${formatDuration(result.timeoutMs)} (--timeout)${outage}`);
}
