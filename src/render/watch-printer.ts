// The printer of `mq queue get --watch`. The queue table is the result itself: --quiet keeps it. A terminal
// redraws it in place; a pipe gets it once per change, a blank line between; --json a queue document per change.
import type { WatchEvents } from '../commands/queue/watch.js';
import { frame, type Printer, type ProgressOutput } from './progress.js';
import { renderQueue } from './views/queue.js';

export function watchPrinter(out: ProgressOutput): Printer<WatchEvents, never> {
  const f = frame(out, true);
  let printed = false;
  return {
    events: {
      ...f.service,
      polled: (queue, changed, now) => {
        if (!f.isOpen()) return;
        const text = () => renderQueue(queue, f.ctx(now));
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
