// The printers of the commands that report as they go (wait, submit --wait, queue drain --wait, queue get
// --watch). Each is the set of events its engine calls, attached from src/cli.ts, and writes through the
// `write` it is given: in place on a terminal, a line per change in a pipe, NDJSON under --json. The words
// themselves come from the pure views beside this file.
import type { Outage, ServiceEvents } from '../commands/poll.js';
import type { DrainEvents, DrainResult } from '../commands/queue/state.js';
import type { WatchEvents } from '../commands/queue/watch.js';
import type { CommandResult } from '../commands/result.js';
import type { WaitEvents, WaitResult } from '../commands/wait.js';
import { makePaint } from './colors.js';
import { admittedJson, drainSummaryJson, renderAdmittedLine, renderDrainSummary } from './drain-view.js';
import { LiveRegion, type Screen } from './live-region.js';
import type { RenderContext } from './options.js';
import { reachableJson, renderOutageLine, renderReachableLine, unreachableJson } from './outage-view.js';
import { renderText } from './text.js';
import { changeJson, renderChangeLine, renderWaitLines, renderWaitSummary, waitSummaryJson } from './wait-view.js';

export interface ProgressOutput {
  write(text: string): void;
  json: boolean;
  /** stdout is a terminal: progress is redrawn in place; otherwise a line per change. */
  live: boolean;
  /** --quiet: no progress, and no confirmation of what ran before the wait; the summary still prints. */
  quiet: boolean;
  color: boolean;
  screen(): Screen;
  /** The local clock, until the service's is known. */
  now(): number;
}

export interface Printer<E, R> {
  events: E;
  /** Replaces the progress with the summary of `result`. */
  finish(result: R): void;
  /** Stops drawing and gives the cursor back; safe to call twice, and after an interruption. */
  close(): void;
  /** Prints something else (a line on stderr) without tearing the live block: above it, while it is drawn. */
  aside(write: () => void): void;
}

/** Shared by every printer: the live block (only on a terminal), and a gate that shuts once closed. */
function frame(out: ProgressOutput, progress: boolean) {
  const live = out.live && progress && !out.json ? new LiveRegion(out.write, out.screen) : undefined;
  const paint = makePaint(out.color);
  let open = true;
  let now = out.now();
  /** The block as the engine last described it; an outage adds its line under it. */
  let body = '';
  let outage: Outage | undefined;
  const close = () => {
    open = false;
    live?.end();
  };
  const draw = (text: string = body) => {
    body = text;
    live?.draw(outage ? `${body}${renderOutageLine(outage, out.now(), paint, true)}` : body);
  };
  const json = (value: unknown) => out.write(`${JSON.stringify(value)}\n`);
  /** An outage: a line under the live block, redrawn each failed round; in a pipe one line as it begins and one as it ends. */
  const service: ServiceEvents = {
    unreachable: (seen) => {
      if (!open) return;
      const begins = outage === undefined;
      outage = seen;
      if (out.json) {
        if (begins) json(unreachableJson(seen));
      } else if (live) draw();
      else if (begins && progress) out.write(renderOutageLine(seen, out.now(), paint, false));
    },
    reachable: (ended, at) => {
      if (!open) return;
      outage = undefined;
      if (out.json) json(reachableJson(ended, at));
      else if (live) {
        draw();
        live.aside(() => out.write(renderReachableLine(ended, at, paint)));
      } else if (progress) out.write(renderReachableLine(ended, at, paint));
    },
  };
  return {
    live,
    /** The render context at the service's last known time. */
    ctx: (at?: number): RenderContext => {
      if (at !== undefined) now = at;
      return { paint, now };
    },
    isOpen: () => open,
    json,
    /** Redraws the live block (a terminal only) with this text, and the outage line if there is one. */
    draw,
    service,
    /** What ran before the wait, as that command prints it (the JSON summary carries it instead). */
    acted: (result: CommandResult) => {
      if (open && !out.json && !out.quiet) out.write(renderText(result, { color: out.color, now }));
    },
    close,
    aside: (write: () => void) => (open && live ? live.aside(write) : write()),
    /** The end: the live block gives way to the summary, as one JSON line or as text. */
    summary:
      <R>(asJson: (result: R) => unknown, asText: (result: R, ctx: RenderContext) => string) =>
      (result: R) => {
        live?.clear();
        close();
        out.write(out.json ? `${JSON.stringify(asJson(result))}\n` : asText(result, { paint, now }));
      },
  };
}

export function waitPrinter(out: ProgressOutput): Printer<WaitEvents, WaitResult> {
  const f = frame(out, !out.quiet);
  return {
    events: {
      ...f.service,
      acted: f.acted,
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

export function drainPrinter(out: ProgressOutput): Printer<DrainEvents, DrainResult> {
  const f = frame(out, !out.quiet);
  return {
    events: {
      ...f.service,
      acted: f.acted,
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
  };
}

/** The queue table is the result itself: --quiet keeps it. A pipe gets it once per change, a blank line between. */
export function watchPrinter(out: ProgressOutput): Printer<WatchEvents, never> {
  const f = frame(out, true);
  let printed = false;
  return {
    events: {
      ...f.service,
      polled: (queue, changed, now) => {
        if (!f.isOpen()) return;
        const text = () => renderText({ kind: 'queue', queue }, { color: out.color, now });
        if (f.live) f.draw(text());
        else if (changed && out.json) f.json(queue);
        else if (changed) out.write(`${printed ? '\n' : ''}${text()}`);
        printed ||= changed;
      },
    },
    finish: f.close,
    close: f.close,
    aside: f.aside,
  };
}
