// The printer of `mq queue get --watch`. The queue table is the result itself: --quiet keeps it. A terminal
// shows it on the alternate screen, as `watch` and `top` do: fitted to the window and drawn over itself, so the
// scrollback never grows, and on leaving (Ctrl-C, an error) the last frame is printed once on the normal screen.
// A pipe gets it once per change, a blank line between; --json a queue document per change.
import type { WatchEvents } from '../model/wait-events.js';
import { frame, type Printer, type ProgressOutput } from './progress.js';
import { queueBlock, renderQueue } from './views/queue.js';

export function watchPrinter(out: ProgressOutput): Printer<WatchEvents, never> {
  const f = frame(out, true, { alternate: true });
  let printed = false;
  return {
    events: {
      ...f.service,
      polled: (queue, changed, now, shown = {}) => {
        if (!f.isOpen()) return;
        const ctx = f.ctx(now);
        if (f.live) f.draw((screen) => queueBlock(queue, { ...ctx, screen }, shown));
        else if (changed && out.json) f.json(queue);
        else if (changed) out.write(`${printed ? '\n' : ''}${renderQueue(queue, ctx)}`);
        printed ||= changed;
      },
    },
    finish: f.close,
    close: f.close,
    aside: f.aside,
  };
}
