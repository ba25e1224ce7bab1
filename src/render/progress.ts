// What the printers of commands that report as they go share: the output, and the frame (live block, outage line,
// JSON lines, summary). Each printer is a module of its own beside this one, so a command loads only its own.
import type { Outage, ServiceEvents } from '../model/poll.js';
import { makePaint } from './colors.js';
import { AlternateScreen } from './alternate-screen.js';
import { LiveRegion } from './live-region.js';
import type { RenderContext } from './options.js';
import { fitBlock, fitText, linesOf, type Block, type Screen } from './screen-fit.js';
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
  /** Calls `listener` when the terminal changes size; returns what stops it. */
  onResize?(listener: () => void): () => void;
  /** Calls `listener` if the process exits with the block drawn (a second Ctrl-C skips every finally), to give the screen back; returns its stop. */
  onExit?(listener: () => void): () => void;
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
  /** What Ctrl-C leaves behind that the user must know (a queue left draining), said with "interrupted", and the commands it names. */
  interrupted?(): { said: string; commands: readonly string[] } | undefined;
}

/** What a printer draws live: text, or a block laid out for the window's size (drawn again when it changes). */
export type Body = string | ((screen: Screen) => Block);

/** The live block in place under the output before it, or (`alternate`) a whole window of its own. */
interface Region {
  draw(text: string): void;
  aside(write: () => void): void;
  clear(): void;
  /** `last`: the whole last frame, for a region that leaves a screen of its own to print it on the one it left. */
  end(last?: () => string): void;
  resized?(): void;
}

/** Shared by every printer: the live block (only on a terminal), cut to the window and drawn again on a resize, and a gate that shuts once closed. */
export function frame(out: ProgressOutput, progress: boolean, options: { alternate?: boolean } = {}) {
  const live: Region | undefined =
    out.live && progress && !out.json ? (options.alternate ? new AlternateScreen(out.write) : new LiveRegion(out.write, out.screen)) : undefined;
  const paint = makePaint(out.color);
  let open = true;
  let now = out.now();
  /** The block as the engine last described it; an outage adds its line under it. */
  let body: Body = '';
  let drawn = false;
  let outage: Outage | undefined;
  const blockOf = (screen: Screen): Block => {
    const block = typeof body === 'string' ? { head: linesOf(body), items: [], tail: [] } : body(screen);
    // In the foot: the window's last rows say the service is unreachable, whatever else is cut to fit it.
    return outage ? { ...block, foot: [...(block.foot ?? []), ...linesOf(renderOutageLine(outage, out.now(), paint, true))] } : block;
  };
  const draw = (next: Body = body) => {
    body = next;
    if (!live) return;
    drawn = true;
    const screen = out.screen();
    live.draw(fitBlock(blockOf(screen), screen, paint));
  };
  const stopResizing = live
    ? out.onResize?.(() => {
        if (!open || !drawn) return;
        live.resized?.();
        draw();
      })
    : undefined;
  // Only the screen and the cursor: at exit there is no time to print the last frame again.
  const stopAtExit = live ? out.onExit?.(() => live.end()) : undefined;
  const close = () => {
    const shown = open && drawn;
    open = false;
    stopResizing?.();
    stopAtExit?.();
    // The last frame whole (every PR, no height), its lines fitted to the width as the live one's were.
    live?.end(() => {
      if (!shown) return '';
      const { columns } = out.screen();
      return fitBlock(blockOf(out.screen()), { ...(columns !== undefined && { columns }) }, paint);
    });
  };
  const json = (value: unknown) => out.write(`${JSON.stringify(value)}\n`);
  /** Text printed once on a terminal (not redrawn) fits its width as a view's does (screen-fit.ts, fitText). */
  const toWidth = (text: string, commands: readonly string[] = []) => (out.live ? fitText(text, out.screen().columns, commands) : text);
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
        // Printed once above the block: folded to the window as any line printed once is (its words were cut).
        live.aside(() => out.write(toWidth(renderReachableLine(ended, at, paint))));
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
    /** Redraws the live block (a terminal only) with this body, fitted to the window, and the outage line if there is one. */
    draw,
    service,
    /** What ran before the wait, as `view` prints it for that command (the JSON summary carries it instead); `commandsOf` as the summary's. */
    acted:
      <R>(view: (result: R, ctx: RenderContext) => string, commandsOf?: (result: R) => readonly string[]) =>
      (result: R) => {
        if (open && !out.json && !out.quiet) out.write(toWidth(view(result, { paint, now }), commandsOf?.(result)));
      },
    close,
    aside: (write: () => void) => (open && live ? live.aside(write) : write()),
    /** The end: the live block gives way to the summary, as one JSON line or as text; `commandsOf`: the commands its text names, kept whole. */
    summary:
      <R>(asJson: (result: R) => unknown, asText: (result: R, ctx: RenderContext) => string, commandsOf?: (result: R) => readonly string[]) =>
      (result: R) => {
        live?.clear();
        drawn = false;
        close();
        const text = () => toWidth(asText(result, { paint, now, ...(out.live && { screen: out.screen() }) }), commandsOf?.(result));
        out.write(out.json ? `${JSON.stringify(asJson(result))}\n` : text());
      },
  };
}
