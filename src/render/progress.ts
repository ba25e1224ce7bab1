// What the commands that report as they go (wait, submit --wait, queue drain --wait, queue get --watch) share:
// the output they write through, and the frame every printer is made of: the live block on a terminal, the
// outage line, the JSON lines, the summary at the end. The printers themselves are beside this file, one module
// each (wait-printer.ts, drain-printer.ts, watch-printer.ts), so that a command loads only its own.
import type { Outage, ServiceEvents } from '../commands/poll.js';
import { makePaint } from './colors.js';
import { LiveRegion, type Screen } from './live-region.js';
import type { RenderContext } from './options.js';
import { reachableJson, renderOutageLine, renderReachableLine, unreachableJson } from './views/outage.js';

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
  /** What Ctrl-C leaves behind that the user must know (a queue left draining), said with "interrupted". */
  interrupted?(): string | undefined;
}

/** Shared by every printer: the live block (only on a terminal), and a gate that shuts once closed. */
export function frame(out: ProgressOutput, progress: boolean) {
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
    /** What ran before the wait, as `view` prints it for that command (the JSON summary carries it instead). */
    acted:
      <R>(view: (result: R, ctx: RenderContext) => string) =>
      (result: R) => {
        if (open && !out.json && !out.quiet) out.write(view(result, { paint, now }));
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
