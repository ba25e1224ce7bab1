// The printer of `mq queue get --watch` (--quiet keeps the table: it is the result). A terminal gets the alternate
// screen (alternate-screen.ts); a pipe the queue per change and a line a minute while nothing changes (a write is
// how mq learns that the reader went away: `--watch | head -3` ends); --json a queue document per change.
import type { WatchEvents } from '../model/wait-events.js';
import { formatDuration } from '../text/durations.js';
import { frame, type Printer, type ProgressOutput } from './progress.js';
import { joinBlock, type Block } from './screen-fit.js';
import { textWidth } from './text-width.js';
import { clockTime } from './views/outage.js';
import { queueBlock } from './views/queue.js';

const QUIT = 'Ctrl-C to quit';

export function watchPrinter(out: ProgressOutput): Printer<WatchEvents, never> {
  const f = frame(out, true, { alternate: true });
  let printed: number | undefined;
  return {
    events: {
      ...f.service,
      polled: (queue, changed, now, shown = {}) => {
        if (!f.isOpen()) return;
        const ctx = f.ctx(now);
        const updated = `updated ${clockTime(now)}${shown.everyMs ? ` · every ${formatDuration(shown.everyMs / 1000)}` : ''}`;
        const block = (screen?: { columns?: number; rows?: number }): Block => {
          const whole = queueBlock(queue, { ...ctx, ...(screen && { screen }) }, shown);
          if (!f.live) return { ...whole, tail: [...whole.tail, '', ctx.paint.dim(updated)] };
          // How to leave is the one line a person must see: in the foot, which a small window keeps, cutting the
          // view above it; on a row of its own where it does not fit beside the time, never folded within.
          const line = `${updated} · ${QUIT}`;
          if (!screen?.columns || textWidth(line) <= screen.columns) return { ...whole, tail: [...whole.tail, ''], foot: [ctx.paint.dim(line)] };
          return { ...whole, tail: [...whole.tail, '', ctx.paint.dim(updated)], foot: [ctx.paint.dim(QUIT)] };
        };
        if (f.live) f.draw(block);
        else if (changed && out.json) f.json(queue);
        else if (changed) out.write(`${printed === undefined ? '' : '\n'}${joinBlock(block())}`);
        else if (!out.json && printed !== undefined && now - printed >= 60_000) out.write(`${updated}, no change\n`);
        else return;
        printed = now;
      },
    },
    finish: f.close,
    close: f.close,
    aside: f.aside,
  };
}
