// The printer of `mq queue drain --wait`: the admitted PRs left, in place on a terminal or a line per change in a
// pipe (NDJSON under --json); the summary at the end; on Ctrl-C, that the queue is left draining.
import type { DrainEvents, DrainResult, QueueChange } from '../model/wait-events.js';
import { admittedJson, describeInterruptedDrain, drainSummaryJson, renderAdmittedLine, renderDrainSummary } from './views/draining.js';
import { frame, type Printer, type ProgressOutput } from './progress.js';
import { renderQueueChange } from './views/outcomes.js';

export function drainPrinter(out: ProgressOutput): Printer<DrainEvents, DrainResult> {
  const f = frame(out, !out.quiet);
  const showActed = f.acted(renderQueueChange);
  /** The drain, once it stands: an interrupted wait then says the queue is left draining. */
  let drained: QueueChange | undefined;
  return {
    events: {
      ...f.service,
      acted: (change) => {
        drained = change;
        showActed(change);
      },
      polled: (admitted, changed, now) => {
        if (!f.isOpen()) return;
        const ctx = f.ctx(now);
        if (f.live) f.draw(renderAdmittedLine(admitted, ctx));
        else if (changed && out.json) f.json(admittedJson(admitted, now));
        // The summary says it when none is left.
        else if (changed && !out.quiet && admitted.length > 0) out.write(renderAdmittedLine(admitted, ctx));
      },
    },
    finish: f.summary(drainSummaryJson, renderDrainSummary),
    close: f.close,
    aside: f.aside,
    interrupted: () => drained && { said: describeInterruptedDrain(drained), commands: drained.resumeCommand ? [drained.resumeCommand] : [] },
  };
}
