// The printer of `mq wait` and `mq submit --wait`: a live line per PR (past the window's height, settled PRs give way
// first), a line or an NDJSON line per change in a pipe; the summary at the end.
import { isFinalState } from '../model/vocabulary.js';
import type { PerPr, PrSighting, WaitEvents, WaitResult } from '../model/wait-events.js';
import { frame, type Printer, type ProgressOutput } from './progress.js';
import type { RenderContext } from './options.js';
import { linesOf, type Block } from './screen-fit.js';
import { renderOutcomes } from './views/outcomes.js';
import { changeJson, renderChangeLine, renderWaitLines, renderWaitSummary, waitSummaryJson } from './views/waiting.js';

export function waitPrinter(out: ProgressOutput): Printer<WaitEvents, WaitResult> {
  const f = frame(out, !out.quiet);
  return {
    events: {
      ...f.service,
      acted: f.acted(
        (submitted: PerPr, ctx) => renderOutcomes(submitted.action, submitted.results, ctx),
        (submitted) => submitted.commands ?? [],
      ),
      changed: (change) => {
        if (!f.isOpen()) return;
        if (out.json) f.json(changeJson(change));
        // A PR's final state is said once, by the summary at the end.
        else if (!f.live && !out.quiet && !isFinalState(change.state)) out.write(renderChangeLine(change, f.ctx()));
      },
      polled: (prs, now) => {
        // The service's time, kept in a pipe too: the summary's ages are read against it, not the local clock.
        const ctx = f.ctx(now);
        if (!f.isOpen() || !f.live) return;
        f.draw((screen) => waitBlock(prs, ctx, screen.columns));
      },
    },
    finish: f.summary(waitSummaryJson, renderWaitSummary, waitCommands),
    close: f.close,
    aside: f.aside,
  };
}

/** The live lines as a list to cut: a line per PR, each known settled or not (any other shape is cut as it comes). */
function waitBlock(prs: readonly PrSighting[], ctx: RenderContext, columns: number | undefined): Block {
  const lines = linesOf(renderWaitLines(prs, ctx, columns));
  const perPr = lines.length === prs.length;
  return {
    head: [],
    items: lines.map((text, i) => ({ text, settled: perPr && prs[i]!.status !== 'waiting', kind: perPr ? prs[i]!.pullRequest?.state : undefined })),
    tail: [],
  };
}

/** The commands the summary may name, each PR's as the command built them. */
function waitCommands(result: WaitResult): string[] {
  return result.prs.flatMap((sighting) => [...Object.values(sighting.commands ?? {}), ...(sighting.why?.next ?? [])]);
}
