// The printer of `mq wait` and `mq submit --wait`: a live line per PR on a terminal, a line per change in a
// pipe, an NDJSON line per change under --json; the summary at the end.
import type { PerPr } from '../commands/pull-requests.js';
import type { WaitEvents, WaitResult } from '../commands/wait.js';
import { frame, type Printer, type ProgressOutput } from './progress.js';
import { renderOutcomes } from './views/outcomes.js';
import { changeJson, renderChangeLine, renderWaitLines, renderWaitSummary, waitSummaryJson } from './views/waiting.js';

export function waitPrinter(out: ProgressOutput): Printer<WaitEvents, WaitResult> {
  const f = frame(out, !out.quiet);
  return {
    events: {
      ...f.service,
      acted: f.acted((submitted: PerPr, ctx) => renderOutcomes(submitted.action, submitted.results, ctx)),
      changed: (change) => {
        if (!f.isOpen()) return;
        if (out.json) f.json(changeJson(change));
        else if (!f.live && !out.quiet) out.write(renderChangeLine(change, f.ctx()));
      },
      polled: (prs, now) => {
        if (f.isOpen() && f.live) f.draw(renderWaitLines(prs, f.ctx(now)));
      },
    },
    finish: f.summary(waitSummaryJson, renderWaitSummary),
    close: f.close,
    aside: f.aside,
  };
}
